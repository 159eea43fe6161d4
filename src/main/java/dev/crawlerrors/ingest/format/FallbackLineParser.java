package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a log in the format detected from its first lines, and a line that format cannot read in
 * the first other format that reads it: a log whose format changes partway, as when the server's
 * log format is changed and reloaded without a rotation (nginx's {@code log_format} given
 * {@code escape=json}, or a {@code $host} prefix), goes on in the new format in the same file, and
 * those lines are good lines. Read as bad lines, every crawler hit after the change was lost.
 *
 * <p>The other formats are tried only for a line the detected one rejected, so a log in one format
 * pays nothing: {@code LogReader} parses with {@link #primary()} and asks {@link #parseOther} in the
 * path of a bad line. Only formats that carry the user agent are tried: a line that reads only in an
 * agent-less format can never be a crawler's hit, and a combined line cut short after its size reads
 * as a common one, which would hide the truncation.
 */
public final class FallbackLineParser implements LineParser {

    private final LineParser primary;
    private final List<LineParser> others;
    /** The format of the line {@link #parseOther} last read, for the counts. */
    private String lastOther;

    private FallbackLineParser(LineParser primary, List<LineParser> others) {
        this.primary = primary;
        this.others = others;
    }

    /** {@code primary}, falling back to {@code others} in order; {@code primary} itself when there are none. */
    public static LineParser of(LineParser primary, List<LineParser> others) {
        return others.isEmpty() ? primary : new FallbackLineParser(primary, List.copyOf(others));
    }

    /** The format detected for the log, which reads its lines. */
    public LineParser primary() {
        return primary;
    }

    @Override
    public Hit parse(byte[] line, int from, int to, AgentFilter filter) throws BadLineException {
        try {
            return primary.parse(line, from, to, filter);
        } catch (BadLineException e) {
            return parseOther(line, from, to, filter, e);
        }
    }

    /**
     * Reads a line that {@link #primary()} rejected with {@code rejected} in the first other format
     * that reads it ({@link #lastOtherFormat()} says which).
     *
     * @throws BadLineException {@code rejected}, when no other format reads the line either
     */
    public Hit parseOther(byte[] line, int from, int to, AgentFilter filter, BadLineException rejected) throws BadLineException {
        for (LineParser other : others) {
            try {
                Hit hit = other.parse(line, from, to, filter);
                lastOther = other.describe();
                return hit;
            } catch (BadLineException | RuntimeException e) {
                // not this one either
            }
        }
        throw rejected;
    }

    /** The format of the line {@link #parseOther} read last. */
    public String lastOtherFormat() {
        return lastOther;
    }

    @Override
    public LineParser copy() {
        List<LineParser> copies = new ArrayList<>(others.size());
        others.forEach(other -> copies.add(other.copy()));
        return new FallbackLineParser(primary.copy(), copies);
    }

    @Override
    public boolean sequential() {
        return primary.sequential();
    }

    @Override
    public String describe() {
        return primary.describe();
    }
}
