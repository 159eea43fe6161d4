package dev.crawlerrors.store.remote;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;

/**
 * One import's connection to the store socket, as the server sees it: its streams note how long
 * they wait for the other end and how many bytes a request has brought, so that the server can close
 * a connection whose import stopped (or crawls) half-way through a request ({@link #requestWaitNanos}),
 * or idles while other imports wait ({@link #idleNanos}), and refuse a request larger than any import
 * sends ({@link FrameTooLargeException}) before it is held in memory.
 */
final class ImportConnection implements AutoCloseable {

    /** A request that passed the bound on a frame's bytes; the stream is out of step after it. */
    static final class FrameTooLargeException extends IOException {
        FrameTooLargeException(long bound) {
            super("a request of more than " + (bound >> 20) + " MiB is more than an import sends at once");
        }
    }

    private final SocketChannel channel;
    private final long maxFrameBytes;
    private final Buffer buffer;
    final DataInputStream in;
    final DataOutputStream out;
    /** {@link System#nanoTime()} when a read or write began to wait for the other end; 0 while none does. */
    private volatile long waitingSince;
    /** Bytes of requests read since the last answer: more than 0 means a request is under way. */
    private volatile long requestBytes;
    /** Nanoseconds this request has waited for the other end, but for the wait under way. */
    private volatile long requestWaited;
    private volatile boolean answering;
    private volatile boolean closedHere;

    ImportConnection(SocketChannel channel, long maxFrameBytes) {
        this.channel = channel;
        this.maxFrameBytes = maxFrameBytes;
        this.buffer = new Buffer(new Watched(Channels.newInputStream(channel)));
        this.in = new DataInputStream(buffer);
        this.out = new DataOutputStream(new BufferedOutputStream(new WatchedOut(Channels.newOutputStream(channel)), 1 << 16));
    }

    /** The request read has been answered: the next bytes begin another. */
    void answered() throws IOException {
        answering = true;
        try {
            out.flush();
        } finally {
            answering = false;
            requestBytes = buffer.unread(); // read with this request: the next one's first bytes
            requestWaited = 0;
        }
    }

    /** Whether a request is under way: part of it read, or its answer being written. */
    boolean inRequest() {
        return requestBytes > 0 || answering;
    }

    /** How long a request under way has waited for the other end in all at {@code now}, in nanoseconds; 0 between requests. */
    long requestWaitNanos(long now) {
        if (!inRequest()) {
            return 0;
        }
        long since = waitingSince;
        return requestWaited + (since == 0 ? 0 : now - since);
    }

    /** How long the connection has waited for its next request at {@code now}, in nanoseconds; 0 within one. */
    long idleNanos(long now) {
        long since = waitingSince;
        return since == 0 || inRequest() ? 0 : now - since;
    }

    /** Sends {@code kind} and {@code message} at once, unasked: an import that waits for a place hears so. */
    void tell(byte kind, String message) throws IOException {
        out.writeByte(kind);
        Frames.writeString(out, message);
        out.flush();
    }

    /** Whether this side closed it (the server's watch, or its close): the import's I/O failing after is no news. */
    boolean closedHere() {
        return closedHere;
    }

    @Override
    public void close() {
        closedHere = true;
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** The read buffer, which can say how many bytes it holds that were not read yet. */
    private static final class Buffer extends BufferedInputStream {
        Buffer(InputStream in) {
            super(in, 1 << 16);
        }

        synchronized int unread() {
            return count - pos;
        }
    }

    private final class Watched extends FilterInputStream {
        Watched(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            long start = System.nanoTime() | 1; // never 0
            boolean within = inRequest();
            waitingSince = start;
            int n;
            try {
                n = super.read(b, off, len);
            } finally {
                waitingSince = 0;
                if (within) {
                    requestWaited += System.nanoTime() - start;
                }
            }
            if (n > 0) {
                requestBytes += n;
                if (requestBytes > maxFrameBytes) {
                    throw new FrameTooLargeException(maxFrameBytes);
                }
            }
            return n;
        }
    }

    private final class WatchedOut extends FilterOutputStream {
        WatchedOut(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            long start = System.nanoTime() | 1;
            waitingSince = start;
            try {
                out.write(b, off, len);
            } finally {
                waitingSince = 0;
                if (inRequest()) {
                    requestWaited += System.nanoTime() - start;
                }
            }
        }
    }
}
