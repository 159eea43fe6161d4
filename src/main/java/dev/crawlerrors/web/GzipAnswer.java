package dev.crawlerrors.web;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * An answer kept gzipped, as it is sent to a reader who accepts gzip: compressed once, at the
 * fastest level, where the server would otherwise compress it again for each such reader at its
 * slower default level (BENCHMARKS.md has the cost of each).
 *
 * @param gzipped  the answer, gzipped
 * @param length   its length as it is
 */
record GzipAnswer(byte[] gzipped, int length) {

    static GzipAnswer of(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 8 + 64);
        try (GZIPOutputStream gzip = new GZIPOutputStream(out, 1 << 13) {
            {
                def.setLevel(Deflater.BEST_SPEED);
            }
        }) {
            gzip.write(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new GzipAnswer(out.toByteArray(), body.length);
    }

    /** The answer as it is. */
    byte[] unzipped() {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped), 1 << 13)) {
            return in.readNBytes(length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Whether an {@code Accept-Encoding} header accepts gzip: it names {@code gzip} (or
     * {@code x-gzip}) without {@code q=0}.
     */
    static boolean accepted(String acceptEncoding) {
        if (acceptEncoding == null) {
            return false;
        }
        for (String coding : acceptEncoding.split(",")) {
            String[] parts = coding.split(";");
            String name = parts[0].strip();
            if (name.equalsIgnoreCase("gzip") || name.equalsIgnoreCase("x-gzip")) {
                for (int i = 1; i < parts.length; i++) {
                    String parameter = parts[i].strip();
                    if (parameter.length() > 2 && parameter.substring(0, 2).equalsIgnoreCase("q=")) {
                        try {
                            return Double.parseDouble(parameter.substring(2).strip()) > 0;
                        } catch (NumberFormatException e) {
                            return false;
                        }
                    }
                }
                return true;
            }
        }
        return false;
    }
}
