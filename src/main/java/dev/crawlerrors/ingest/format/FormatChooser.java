package dev.crawlerrors.ingest.format;

import java.io.InputStream;

/**
 * Chooses the parser for one source: always the same one (a format the user named), or one
 * detected from the source's first lines ({@link FormatDetector}).
 */
@FunctionalInterface
public interface FormatChooser {

    /**
     * Picks the parser for {@code in}, which is at its first byte.
     *
     * @return the parser, and the stream to read the source from: the same bytes as {@code in},
     *         with whatever was read ahead to decide put back in front
     * @throws UnrecognizedFormatException when the source's first lines are in no format this
     *         chooser knows; the message says which formats were tried and what to do
     */
    Choice choose(InputStream in, String source) throws UnrecognizedFormatException;

    /** Whether the format is detected from each source's lines ({@code --format auto}), rather than named. */
    default boolean detects() {
        return false;
    }

    /**
     * The parser for a source and the stream to read it from.
     *
     * @param format the fixed format detected in the source, whose parser {@code parser} is (or falls back
     *               from); null when the format was named, or none was found
     */
    record Choice(LineParser parser, InputStream in, LogFormat format) {

        /** A choice made without detection. */
        public Choice(LineParser parser, InputStream in) {
            this(parser, in, null);
        }

        /** The format chosen for the source, without the others a {@link FallbackLineParser} tries for its bad lines. */
        public LineParser detected() {
            return parser instanceof FallbackLineParser fallback ? fallback.primary() : parser;
        }
    }

    /** A chooser that always picks {@code parser} and reads nothing ahead. */
    static FormatChooser of(LineParser parser) {
        return (in, source) -> new Choice(parser, in);
    }
}
