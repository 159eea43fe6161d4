package dev.crawlerrors.store;

import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.text.Figures;
import java.util.List;

/**
 * Another writer recorded a log's position since this one read it: the lines this writer read from
 * there were refused, none of them stored, and it reads on from the position the store holds now
 * ({@link HitWriter#imported}). A position is recorded by compare-and-set against the one the
 * writer started from, so two imports of one log, or an import beside {@code serve --follow} of the
 * same file, store each line once.
 */
public final class PositionMovedException extends StoreException {

    private final List<String> keys;

    private PositionMovedException(String message, List<String> keys) {
        super(message, null);
        this.keys = keys;
    }

    /**
     * Refuses {@code from} unless it is where the store has its log ({@code recorded}, null when it
     * has none, which is where a log starts): the one rule of both engines.
     */
    public static void check(SourceProgress from, SourceProgress recorded) {
        long bytes = recorded == null ? 0 : recorded.bytes();
        long lines = recorded == null ? 0 : recorded.lines();
        if (from.bytes() != bytes || from.lines() != lines) {
            throw new PositionMovedException(from.name() + ": another writer recorded " + Figures.counted(lines, "line") + " of it"
                    + " while this one read from line " + Figures.grouped(from.lines() + 1) + "; read on from there",
                    List.of(from.fingerprint()));
        }
    }

    /** The lines of the logs {@code keys} a writer handed over were refused when they were committed. */
    public static PositionMovedException atCommit(List<String> keys) {
        return new PositionMovedException("another writer recorded " + Figures.counted(keys.size(), "log") + " this one read meanwhile;"
                + " their lines are read on from where it got", List.copyOf(keys));
    }

    /** The refusal as another process told it (through the store socket). */
    public static PositionMovedException told(String message, List<String> keys) {
        return new PositionMovedException(message, List.copyOf(keys));
    }

    /** The keys ({@link SourceProgress#fingerprint()}) of the logs whose lines were refused. */
    public List<String> keys() {
        return keys;
    }
}
