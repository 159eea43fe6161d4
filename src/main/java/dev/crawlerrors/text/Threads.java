package dev.crawlerrors.text;

import java.time.Duration;

/**
 * Waiting for a worker thread to end when its owner closes. The followers and the alert
 * evaluator each stop their one thread this way; a close that is interrupted keeps the
 * interrupt for its caller rather than swallowing it.
 */
public final class Threads {

    private Threads() {
    }

    /** Waits up to {@code limit} for {@code thread} to end; nothing to wait for when it is null. */
    public static void awaitEnd(Thread thread, Duration limit) {
        if (thread == null) {
            return;
        }
        try {
            thread.join(limit.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
