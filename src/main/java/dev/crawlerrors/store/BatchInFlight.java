package dev.crawlerrors.store;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** A batch handed to a store's writer thread, waited for by the thread that handed it over. */
public final class BatchInFlight {

    private BatchInFlight() {
    }

    /**
     * Waits until {@code batch} is written or has failed, through interrupts: a batch is written
     * whatever happens, so an interrupt is kept for the caller (its flag set again) rather than
     * leaving a write running behind it.
     *
     * @throws ExecutionException the write's failure, for the store to say in its own words
     */
    public static void await(Future<?> batch) throws ExecutionException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    batch.get();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
