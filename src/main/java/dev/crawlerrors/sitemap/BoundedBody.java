package dev.crawlerrors.sitemap;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;

/**
 * A body read within bounds: past {@code maxBytes}, or past the read's deadline, the next read
 * fails with a {@link Exceeded} that says which, in a sentence naming the sitemap. A server that
 * trickles a byte at a time is cut off at the deadline (give or take one read timeout).
 */
final class BoundedBody extends FilterInputStream {

    /** A bound passed; its message is the sentence the user reads. */
    static final class Exceeded extends IOException {
        Exceeded(String message) {
            super(message);
        }
    }

    private final long maxBytes;
    private final Instant deadline;
    private final String tooMuch;
    private final String tooSlow;
    private long read;

    /**
     * @param tooMuch what is said when more than {@code maxBytes} come
     * @param tooSlow what is said when the deadline passes
     */
    BoundedBody(InputStream in, long maxBytes, Instant deadline, String tooMuch, String tooSlow) {
        super(in);
        this.maxBytes = maxBytes;
        this.deadline = deadline;
        this.tooMuch = tooMuch;
        this.tooSlow = tooSlow;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        check();
        // never more than one byte past the bound: enough to know it was passed
        int n = super.read(b, off, (int) Math.min(len, maxBytes - read + 1));
        if (n > 0) {
            read += n;
            if (read > maxBytes) {
                throw new Exceeded(tooMuch);
            }
        }
        check();
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        return read(new byte[(int) Math.min(n, 8192)], 0, (int) Math.min(n, 8192));
    }

    private void check() throws Exceeded {
        if (Instant.now().isAfter(deadline)) {
            throw new Exceeded(tooSlow);
        }
    }
}
