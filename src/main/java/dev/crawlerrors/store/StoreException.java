package dev.crawlerrors.store;

/** The store could not do what was asked; the message says what and where. */
public class StoreException extends RuntimeException {

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
