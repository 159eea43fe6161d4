package dev.crawlerrors.ingest.format;

/**
 * A source whose first lines are in none of the formats auto-detection knows. The message names
 * the formats tried and how to name the right one with {@code --format}.
 */
public final class UnrecognizedFormatException extends Exception {

    public UnrecognizedFormatException(String message) {
        super(message);
    }
}
