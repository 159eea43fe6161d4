package dev.crawlerrors.cli;

import dev.crawlerrors.text.Threads;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A check run on a thread of its own while the caller goes on, and waited for where its answer is
 * needed: serve reads its store's newest hits while it starts its server, so the first page waits
 * for the longer of the two rather than for both one after the other.
 */
final class CheckBeside {

    private final CompletableFuture<Void> done = new CompletableFuture<>();

    private CheckBeside() {
    }

    /** Starts {@code check} on a daemon thread named {@code name}. */
    static CheckBeside start(String name, Runnable check) {
        CheckBeside beside = new CheckBeside();
        Threads.startDaemon(name, () -> {
            try {
                check.run();
                beside.done.complete(null);
            } catch (RuntimeException | Error e) {
                beside.done.completeExceptionally(e);
            }
        });
        return beside;
    }

    /** Done once the check passed; failed with what it threw. */
    CompletionStage<Void> done() {
        return done.minimalCompletionStage();
    }

    /** Waits for the check; what it threw is thrown here, as it was thrown (a damaged store's sentence stays the same). */
    void await() {
        try {
            done.join();
        } catch (CompletionException e) {
            switch (e.getCause()) {
                case RuntimeException failed -> throw failed;
                case Error failed -> throw failed;
                default -> throw e;
            }
        }
    }
}
