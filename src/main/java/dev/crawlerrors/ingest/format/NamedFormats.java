package dev.crawlerrors.ingest.format;

import java.util.function.Consumer;

/**
 * A {@code --format} value as the chooser that reads logs in it: {@code auto} detects each log's
 * format ({@link FormatDetector}), a fixed format's name always gives its parser, and
 * {@code nginx:'...'} or {@code apache:'...'} the parser of the user's format string. The rows of
 * {@link LogFormat} say which names there are.
 */
public final class NamedFormats {

    private NamedFormats() {
    }

    /**
     * The chooser for a {@code --format} value.
     *
     * @param notices told, once, what the user should know about the format (that common lines
     *                carry no agent; which format was detected in each source)
     * @throws IllegalArgumentException for a name that is no format, or a format string that
     *         cannot be used; the message says what is wrong and what is accepted
     */
    public static FormatChooser chooser(String value, Consumer<String> notices) {
        return chooser(value, notices, false);
    }

    /**
     * The chooser for a {@code --format} value given to a source that pushes lines (syslog, the
     * log drain): as {@link #chooser}, but {@code auto} never gives up on a batch, since a pushed
     * batch cannot be read again with the right format ({@link FormatDetector#forLiveSources}).
     * Followed logs use {@link #chooser}: a file can be looked at again as it grows.
     *
     * @throws IllegalArgumentException as {@link #chooser} does
     */
    public static FormatChooser liveChooser(String value, Consumer<String> notices) {
        return chooser(value, notices, true);
    }

    private static FormatChooser chooser(String value, Consumer<String> notices, boolean live) {
        LogFormat format = LogFormat.named(value).orElseThrow(() -> new IllegalArgumentException(
                "'" + value + "' is not a log format; use " + LogFormat.ACCEPTED));
        if (format == LogFormat.AUTO) {
            return live ? FormatDetector.forLiveSources(notices) : new FormatDetector(notices);
        }
        LineParser parser = format.takesFormatString() ? format.compile(value) : format.parser();
        format.noAgentNotice(parser).ifPresent(notices);
        return FormatChooser.of(parser);
    }
}
