package dev.crawlerrors.ingest;

/**
 * Turns one access-log line into a {@link Hit}. A parser is built once per format and used by one
 * thread at a time; it must not use regular expressions on the per-line path.
 */
public interface LineParser {

    /**
     * Parses {@code line[from, to)} (no line terminator).
     *
     * @return the hit, or null when the line is well-formed but {@code filter} dropped its agent
     * @throws BadLineException when the line is not in this format
     */
    Hit parse(byte[] line, int from, int to, AgentFilter filter) throws BadLineException;

    /** A fresh parser of the same format, for another thread. */
    LineParser copy();
}
