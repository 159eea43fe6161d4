package dev.crawlerrors.ingest.push;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** A stream that fails with {@link TooLargeException} once more than its limit was read from it. */
final class BoundedInputStream extends FilterInputStream {

    /** Reading went past the limit. */
    static final class TooLargeException extends IOException {
        TooLargeException(String message) {
            super(message);
        }
    }

    private final long limit;
    private final String what;
    private long read;

    /** @param what the bytes counted, for the message ("the body", "the decompressed body") */
    BoundedInputStream(InputStream in, long limit, String what) {
        super(in);
        this.limit = limit;
        this.what = what;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            counted(1);
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            counted(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        counted(skipped);
        return skipped;
    }

    private void counted(long n) throws TooLargeException {
        read += n;
        if (read > limit) {
            throw new TooLargeException(what + " is larger than " + size(limit));
        }
    }

    /** {@code bytes} as people say it: {@code 64 MiB}, {@code 256 KiB}, {@code 1,000 bytes}. */
    static String size(long bytes) {
        if (bytes > 0 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes > 0 && bytes % 1024 == 0) {
            return (bytes >> 10) + " KiB";
        }
        return String.format(java.util.Locale.ROOT, "%,d bytes", bytes);
    }
}
