package dev.crawlerrors.web;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * How many report requests are answered at once: each holds a store connection and DuckDB's
 * memory while it runs, so beyond a few at a time they only slow each other down and grow the
 * process. The rest wait their turn for a moment, then are told to come back ({@link BusyException},
 * a 503 with Retry-After) rather than pile up.
 */
final class ReadGate {

    private final Semaphore permits;
    private final int size;
    private final Duration wait;

    ReadGate(int size, Duration wait) {
        this.permits = new Semaphore(size, true);
        this.size = size;
        this.wait = wait;
    }

    /** Runs {@code read} once a place is free. */
    void pass(Read read) throws Exception {
        boolean entered;
        try {
            entered = permits.tryAcquire(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BusyException(size);
        }
        if (!entered) {
            throw new BusyException(size);
        }
        try {
            read.run();
        } finally {
            permits.release();
        }
    }

    /** Requests waiting for a place, for metrics. */
    int waiting() {
        return permits.getQueueLength();
    }

    /** A report read. */
    @FunctionalInterface
    interface Read {
        void run() throws Exception;
    }

    /** Every place was taken for the whole wait. */
    static final class BusyException extends RuntimeException {
        BusyException(int size) {
            super("the report is busy answering " + size + " requests at once; try again in a second");
        }
    }
}
