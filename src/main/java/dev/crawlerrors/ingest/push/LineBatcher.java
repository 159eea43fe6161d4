package dev.crawlerrors.ingest.push;

import dev.crawlerrors.text.Threads;
import java.time.Duration;
import java.util.Arrays;

/**
 * Gathers lines that arrive one at a time (syslog datagrams) into batches, and hands each batch on
 * from a thread of its own: {@link #MAX_WAIT} after the batch's first line, or at once when it
 * holds {@link #MAX_LINES} lines or {@link #MAX_BYTES} bytes.
 *
 * <p>Design: storing a batch is one store transaction (an fsync), so a burst of datagrams must not
 * be one transaction a line; waiting at most {@link #MAX_WAIT} keeps a line well within the second
 * in which it must reach the report. While a full batch is being stored, the receiving threads
 * wait: TCP senders are slowed down, and UDP datagrams queue in the socket's buffer (and are lost
 * by the kernel, not here, when even that is full).
 */
final class LineBatcher implements AutoCloseable {

    /** How long a line waits for others to join its batch. */
    static final Duration MAX_WAIT = Duration.ofMillis(100);
    /** A batch this large is handed on at once: it is a burst, and more lines will not wait for long. */
    static final int MAX_LINES = 10_000;
    static final int MAX_BYTES = 8 << 20;

    /** Receives each batch: {@code lines[0, length)}, each line ending with a newline. */
    @FunctionalInterface
    interface Batches {
        void accept(byte[] lines, int length);
    }

    private final Batches out;
    private final Thread thread;
    private byte[] buffer = new byte[64 * 1024];
    private int length;
    private int lines;
    private long firstLineAt;
    /** A receiving thread waits for room: hand the batch on now. */
    private boolean full;
    private boolean closed;

    LineBatcher(String name, Batches out) {
        this.out = out;
        this.thread = Threads.startDaemon(name, this::run);
    }

    /**
     * Adds {@code b[from, to)} as one line; waits while the batch has no room for it.
     *
     * @return false when the batcher was closed and the line was not taken
     */
    synchronized boolean add(byte[] b, int from, int to) throws InterruptedException {
        int needed = to - from + 1;
        while (!closed && length > 0 && length + needed > MAX_BYTES) {
            full = true;
            notifyAll();
            wait();
        }
        if (closed) {
            return false;
        }
        if (length + needed > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(length + needed, Math.min(MAX_BYTES, buffer.length * 2)));
        }
        System.arraycopy(b, from, buffer, length, to - from);
        length += to - from;
        buffer[length++] = '\n';
        if (lines++ == 0) {
            firstLineAt = System.nanoTime();
            notifyAll();
        } else if (lines >= MAX_LINES) {
            notifyAll();
        }
        return true;
    }

    /** The next batch, once it is due; null once closed and empty. */
    private synchronized byte[] take() throws InterruptedException {
        while (true) {
            if (lines > 0) {
                long waitNanos = MAX_WAIT.toNanos() - (System.nanoTime() - firstLineAt);
                if (closed || full || lines >= MAX_LINES || waitNanos <= 0) {
                    byte[] batch = Arrays.copyOf(buffer, length);
                    length = 0;
                    lines = 0;
                    full = false;
                    notifyAll();
                    return batch;
                }
                wait(Math.max(1, waitNanos / 1_000_000));
            } else if (closed) {
                return null;
            } else {
                wait();
            }
        }
    }

    private void run() {
        try {
            for (byte[] batch; (batch = take()) != null; ) {
                out.accept(batch, batch.length);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Takes no more lines, hands on what it holds, and returns once that is done. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
