package dev.crawlerrors.ingest;

import dev.crawlerrors.text.ShownText;

/**
 * A line that could not be parsed, kept to show the user. Its source and message are made safe to
 * show as it is made ({@link ShownText}): the message quotes the line, which whoever sent the
 * request wrote, and a bad line is shown on the import's summary, the serve notices and in the
 * log drain's JSON answer.
 *
 * @param source     the file name, or {@code -} for stdin
 * @param lineNumber 1-based
 * @param reason     the category it is counted under
 * @param message    what was wrong, with the value and what was expected
 */
public record BadLine(String source, long lineNumber, String reason, String message) {

    public BadLine {
        source = ShownText.of(source);
        message = ShownText.of(message);
    }

    @Override
    public String toString() {
        return source + " line " + lineNumber + ": " + message;
    }
}
