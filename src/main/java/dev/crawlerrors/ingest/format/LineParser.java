package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;

/**
 * Turns one access-log line into a {@link Hit}. A parser is built once per format and used by one
 * thread at a time; it must not use regular expressions on the per-line path.
 */
public interface LineParser {

    /** Lines longer than this are reported as bad rather than parsed (they are never access-log lines). */
    int MAX_LINE_BYTES = 64 * 1024;

    /**
     * Parses {@code line[from, to)} (no line terminator).
     *
     * @return the hit, or null when the line is well-formed but {@code filter} dropped its agent, or
     *         when the line is a directive rather than a request (W3C's {@code #Fields:} and such)
     * @throws BadLineException when the line is not in this format
     */
    Hit parse(byte[] line, int from, int to, AgentFilter filter) throws BadLineException;

    /** A fresh parser of the same format, for another thread (or another source). */
    LineParser copy();

    /**
     * Whether the lines of a source must be parsed in order by one parser, because a line can change
     * how the lines after it are read (W3C's {@code #Fields:} directive may change in the middle of
     * a file). {@code LogReader} parses such a source on one thread; every other format is parsed
     * on all cores.
     */
    default boolean sequential() {
        return false;
    }

    /**
     * The format in words, for notices and summaries ({@code combined with request time in seconds
     * (nginx $request_time)}, {@code JSON lines (Caddy)}); it may say more once lines were parsed.
     */
    String describe();
}
