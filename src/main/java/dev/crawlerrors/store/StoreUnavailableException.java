package dev.crawlerrors.store;

/**
 * The store's server did not answer (refused, gone, or too slow): nothing is wrong with what it
 * holds, and a later try may succeed. The report answers 503 with Retry-After rather than an error
 * of its own.
 */
public final class StoreUnavailableException extends StoreException {

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
