package dev.crawlerrors.web;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
    private final CompletableFuture<Void> checked;

    /** @param checked done once the store's check at opening passed: no read runs before, none after it failed */
    ReadGate(int size, Duration wait, CompletionStage<Void> checked) {
        this.permits = new Semaphore(size, true);
        this.size = size;
        this.wait = wait;
        this.checked = checked.toCompletableFuture();
    }

    /** Runs {@code read} once the store is checked and a place is free. */
    void pass(Read read) throws Exception {
        awaitChecked();
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

    /**
     * Waits (at most the gate's wait) for the store's check at opening: a request that came as soon
     * as serve listened reads no hit before the store is known sound.
     */
    private void awaitChecked() {
        if (checked.isDone() && !checked.isCompletedExceptionally()) {
            return;
        }
        try {
            checked.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BusyException(CHECKING);
        } catch (TimeoutException e) {
            throw new BusyException(CHECKING);
        } catch (ExecutionException | CancellationException e) {
            throw new BusyException("serve is stopping: its store could not be read; see serve's output");
        }
    }

    private static final String CHECKING = "serve is still checking its store, which it does once as it starts; try again in a second";

    /** Requests waiting for a place, for metrics. */
    int waiting() {
        return permits.getQueueLength();
    }

    /** A report read. */
    @FunctionalInterface
    interface Read {
        void run() throws Exception;
    }

    /** Every place was taken for the whole wait, or the store's check at opening had not passed. */
    static final class BusyException extends RuntimeException {
        BusyException(int size) {
            this("the report is busy answering " + size + " requests at once; try again in a second");
        }

        BusyException(String message) {
            super(message);
        }
    }
}
