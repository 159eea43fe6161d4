package dev.crawlerrors.text;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * A future's value or its failure as the task threw it. {@code join} and {@code get} wrap a
 * task's exception in a {@code CompletionException} or {@code ExecutionException}; callers say
 * what failed in the task's own words, so the wrapper is taken off here, once.
 */
public final class Futures {

    private Futures() {
    }

    /** {@code error} without the completion and execution wrappers around it. */
    public static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** {@code future}'s value; a task's unchecked exception is thrown as itself, anything else still wrapped. */
    public static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            throw unwrap(e) instanceof RuntimeException cause ? cause : e;
        }
    }

    /** {@code future}'s value, waiting for it; a task's exception is thrown as itself, an error still wrapped. */
    public static <T> T get(Future<T> future) throws Exception {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw unwrap(e) instanceof Exception cause ? cause : e;
        }
    }
}
