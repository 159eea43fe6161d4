package dev.crawlerrors.ingest;

import dev.crawlerrors.text.ShownText;

/**
 * The first line of a log that its detected format rejected and another read
 * ({@code FallbackLineParser}): where the log changed format, shown to the user.
 *
 * @param source     the file name, or {@code -} for stdin, made safe to show ({@link ShownText})
 * @param lineNumber 1-based
 * @param format     the other format, in words ({@code LineParser#describe()})
 */
public record OtherFormatLine(String source, long lineNumber, String format) {

    public OtherFormatLine {
        source = ShownText.of(source);
    }
}
