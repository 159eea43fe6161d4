package dev.crawlerrors.store;

/**
 * A read of the store was stopped before it ended: its thread was interrupted (serve stops, and
 * stops the reads under way). Nothing is wrong with the store; the page asked is answered 503, to
 * be asked again (of this serve once restarted, or of another).
 */
public final class ReadStoppedException extends StoreException {

    public ReadStoppedException(String message, Throwable cause) {
        super(message, cause);
    }
}
