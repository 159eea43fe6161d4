package dev.crawlerrors.ingest;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * One log to read: a file (plain or gzip, told by its magic bytes, not its name) or standard
 * input ({@code -}). Counts the raw bytes consumed so progress can be shown against the file size.
 */
public final class LogSource {

    private static final int GZIP_MAGIC_1 = 0x1f;
    private static final int GZIP_MAGIC_2 = 0x8b;
    private static final int READ_BUFFER = 1 << 16;

    private final String name;
    private final Path path;
    private volatile long consumed;

    private LogSource(String name, Path path) {
        this.name = name;
        this.path = path;
    }

    /** {@code -} is standard input; anything else a file path. */
    public static LogSource of(String argument) {
        return "-".equals(argument) ? new LogSource("-", null) : new LogSource(argument, Path.of(argument));
    }

    public String name() {
        return name;
    }

    /** The size on disk, or -1 for standard input. */
    public long size() {
        try {
            return path == null ? -1 : Files.size(path);
        } catch (IOException e) {
            return -1;
        }
    }

    /** Raw (compressed) bytes consumed so far. */
    public long consumed() {
        return consumed;
    }

    /**
     * Opens the log, decompressing gzip transparently.
     *
     * @throws IOException with a one-sentence message when the file cannot be read
     */
    public InputStream open() throws IOException {
        InputStream raw;
        if (path == null) {
            raw = System.in;
        } else {
            if (Files.isDirectory(path)) {
                throw new IOException(name + " is a directory, not a log file");
            }
            if (!Files.isReadable(path)) {
                throw new IOException(name + " does not exist or cannot be read");
            }
            raw = Files.newInputStream(path);
        }
        BufferedInputStream in = new BufferedInputStream(new Counting(raw), READ_BUFFER);
        in.mark(2);
        int first = in.read();
        int second = in.read();
        in.reset();
        if (first == GZIP_MAGIC_1 && second == GZIP_MAGIC_2) {
            return new GZIPInputStream(in, READ_BUFFER);
        }
        return in;
    }

    private final class Counting extends FilterInputStream {
        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                consumed++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                consumed += n;
            }
            return n;
        }
    }
}
