package dev.crawlerrors.ingest;

/**
 * A line that is not in the expected format. Carries a short reason (the category it is counted
 * under) and a message that names the value and what was expected. Thrown for each bad line, so it
 * records no stack trace.
 */
public final class BadLineException extends Exception {

    private final String reason;

    public BadLineException(String reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    /** The category this line is counted under, e.g. {@code "bad time"}. */
    public String reason() {
        return reason;
    }
}
