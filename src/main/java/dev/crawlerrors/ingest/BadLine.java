package dev.crawlerrors.ingest;

/**
 * A line that could not be parsed, kept to show the user.
 *
 * @param source     the file name, or {@code -} for stdin
 * @param lineNumber 1-based
 * @param reason     the category it is counted under
 * @param message    what was wrong, with the value and what was expected
 */
public record BadLine(String source, long lineNumber, String reason, String message) {

    @Override
    public String toString() {
        return source + " line " + lineNumber + ": " + message;
    }
}
