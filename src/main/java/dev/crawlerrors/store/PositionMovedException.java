package dev.crawlerrors.store;

import dev.crawlerrors.crawler.CrawlerHit;
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

    /**
     * One log whose lines were refused.
     *
     * @param key        the log's key ({@link SourceProgress#fingerprint()})
     * @param storedUpTo how far this writer's lines of it are stored: where the refused ones start
     * @param storeHas   where the store has the log (null: none of it), as far as the refusal knew
     * @param hits       the crawler hits refused that an earlier call had taken (a store that compares
     *                   as it commits, ClickHouse); none when the refused call was the first to see them
     */
    public record Refused(String key, SourceProgress storedUpTo, SourceProgress storeHas, List<CrawlerHit> hits) {

        /**
         * Whether the log was refused though the store has it where this writer's lines start: another
         * writer claims that position (ClickHouse), and either commits there soon or, killed, its claim
         * ends with its life. Waiting, not reading on at once, is what lets this writer go on then.
         */
        public boolean claimedElsewhere() {
            return samePlace(storedUpTo, storeHas);
        }
    }

    private final List<Refused> refused;

    private PositionMovedException(String message, List<Refused> refused) {
        super(message, null);
        this.refused = List.copyOf(refused);
    }

    /**
     * Refuses {@code from} unless it is where the store has its log ({@code recorded}, null when it
     * has none, which is where a log starts): the one rule of both engines.
     */
    public static void check(SourceProgress from, SourceProgress recorded) {
        if (!samePlace(from, recorded)) {
            throw refused(from, recorded, List.of());
        }
    }

    /** Whether {@code from} is where the store has its log ({@code recorded}, null when none: a log's start). */
    public static boolean samePlace(SourceProgress from, SourceProgress recorded) {
        long bytes = recorded == null ? 0 : recorded.bytes();
        long lines = recorded == null ? 0 : recorded.lines();
        return from.bytes() == bytes && from.lines() == lines;
    }

    /** The lines of one log from {@code from} on refused, the store having it at {@code recorded} (null: at its start). */
    private static PositionMovedException refused(SourceProgress from, SourceProgress recorded, List<CrawlerHit> hits) {
        return new PositionMovedException(from.name() + ": another writer stored lines of it while this one read from line "
                + Figures.grouped(from.lines() + 1) + " (the store has it up to line " + Figures.grouped(recorded == null ? 0 : recorded.lines())
                + " now); read on from there", List.of(new Refused(from.fingerprint(), from, recorded, hits)));
    }

    /** The lines of the logs {@code refused} were refused when they were committed. */
    public static PositionMovedException atCommit(List<Refused> refused) {
        return new PositionMovedException("another writer stored lines of " + Figures.counted(refused.size(), "log") + " this one read"
                + " meanwhile; they are read on from where it got", refused);
    }

    /** The refusal as another process told it (through the store socket). */
    public static PositionMovedException told(String message, List<Refused> refused) {
        return new PositionMovedException(message, refused);
    }

    /** The logs whose lines were refused. */
    public List<Refused> refused() {
        return refused;
    }

    /** The keys ({@link SourceProgress#fingerprint()}) of the logs whose lines were refused. */
    public List<String> keys() {
        return refused.stream().map(Refused::key).toList();
    }
}
