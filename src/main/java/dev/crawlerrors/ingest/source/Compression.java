package dev.crawlerrors.ingest.source;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import com.github.luben.zstd.ZstdInputStream;

/** The compressions read transparently, told by a log's first bytes (its magic), not its name. */
public enum Compression {
    NONE, GZIP, ZSTD;

    static final int MAGIC_BYTES = 6;

    static Compression of(byte[] magic, String name) throws IOException {
        if (starts(magic, 0x1f, 0x8b)) {
            return GZIP;
        }
        if (starts(magic, 0x28, 0xb5, 0x2f, 0xfd)) {
            return ZSTD;
        }
        String other = starts(magic, 'B', 'Z', 'h') ? "bzip2"
                : starts(magic, 0xfd, '7', 'z', 'X', 'Z', 0) ? "xz"
                : starts(magic, 'P', 'K', 3, 4) ? "zip"
                : null;
        if (other != null) {
            throw new IOException(name + " is compressed with " + other + ", which crawl-errors does not read;"
                    + " decompress it into the import, e.g. " + (other.equals("zip") ? "unzip -p" : other + " -dc")
                    + " " + name + " | crawl-errors import -");
        }
        return NONE;
    }

    /** The name users know it by. */
    String label() {
        return this == GZIP ? "gzip" : "zstd";
    }

    /**
     * {@code raw} decompressed, for the log shown to the user as {@code name}. Not buffered again on
     * purpose: a buffer over a decompressor would throw away the bytes it had already decompressed
     * when the stream turns out truncated, and those lines must be kept. The decompressor's failures
     * are {@link DamagedLogException}s, told apart from failures to read.
     */
    InputStream decompressed(InputStream raw, String name) {
        return switch (this) {
            case NONE -> raw;
            case GZIP -> new DecompressingStream(name, this, () -> new GZIPInputStream(raw, raw instanceof ByteArrayInputStream small
                    ? Math.max(512, Math.min(LogSource.READ_BUFFER, small.available())) : LogSource.READ_BUFFER));
            case ZSTD -> new DecompressingStream(name, this, () -> new ZstdInputStream(raw));
        };
    }

    private static boolean starts(byte[] bytes, int... magic) {
        if (bytes.length < magic.length) {
            return false;
        }
        for (int i = 0; i < magic.length; i++) {
            if ((bytes[i] & 0xff) != magic[i]) {
                return false;
            }
        }
        return true;
    }
}
