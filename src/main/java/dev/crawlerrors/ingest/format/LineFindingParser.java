package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;

/**
 * A {@link LineParser} that finds where its line ends in the same walk that reads the fields, so
 * that a chunk of log is not read once to split it into lines and again to parse them.
 * {@code LogReader} uses it for the lines it can (every line of a well-formed log), and splits and
 * parses the others as it does for any parser, so bad lines keep their exact reasons.
 */
public interface LineFindingParser extends LineParser {

    /**
     * Parses the line that starts at {@code b[from]} and ends at the first newline in
     * {@code b[from, limit)}, or at {@code limit} when there is none; a carriage return just
     * before the newline is not part of it. On success the result is what
     * {@link #parse(byte[], int, int, AgentFilter) parse} returns for that line, and
     * {@link #lineEnd()} says where it ended.
     *
     * @throws BadLineException when the line is bad, or cannot be read this way (a blank line, say);
     *         its message may then describe more than the line: find the line's end and
     *         {@link #parse(byte[], int, int, AgentFilter) parse} it for the reason to report
     */
    Hit parseLine(byte[] b, int from, int limit, AgentFilter filter) throws BadLineException;

    /** The index of the newline that ended the line {@link #parseLine} last parsed, or its limit when none did. */
    int lineEnd();
}
