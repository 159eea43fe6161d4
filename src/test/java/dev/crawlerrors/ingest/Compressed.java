package dev.crawlerrors.ingest;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

/** Log text compressed the ways rotated logs are, for tests. */
public final class Compressed {

    private Compressed() {
    }

    private interface Compressor {
        OutputStream wrap(OutputStream out) throws IOException;
    }

    public static byte[] gzip(String text) throws IOException {
        return compressed(text, GZIPOutputStream::new);
    }

    /** zstd as a stream: the frame header does not carry the content size. */
    public static byte[] zstd(String text) throws IOException {
        return compressed(text, ZstdOutputStream::new);
    }

    private static byte[] compressed(String text, Compressor compressor) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = compressor.wrap(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }
}
