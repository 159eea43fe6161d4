package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;

/**
 * What a live source's lines are read with when none of them is in a format auto-detection knows
 * ({@link FormatDetector#forLiveSources}): every line is a bad line that says so and how to name
 * the format, rather than the batch being dropped without a word.
 */
final class UnknownFormatParser implements LineParser {

    static final String REASON = "unknown format";

    @Override
    public Hit parse(byte[] line, int from, int to, AgentFilter filter) throws BadLineException {
        throw new BadLineException(REASON, "'" + LogText.excerpt(line, from, to) + "' is in none of the formats tried ("
                + LogFormat.TRIED + "); name the format with --format");
    }

    @Override
    public LineParser copy() {
        return this; // it keeps no state
    }

    @Override
    public String describe() {
        return "no known format";
    }
}
