package dev.crawlerrors.store;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The report's questions to the store, each asked of a {@link Snapshot}: the answer is what the
 * store held at that snapshot, whatever was stored since. Safe from any thread. The counting
 * questions behind the patterns and the overview take a {@link HitWindow} of a snapshot: the report
 * keeps their answers and, as hits arrive, counts only the hits after those it counted.
 */
public interface HitReader {

    /** The state of every URL the store's crawlers fetched, kept as hits arrive: what the URLs page reads. */
    UrlStates urlStates();

    /** The URLs the site's sitemaps list: which of a page's rows are in one, and the sitemaps page. */
    SitemapStore sitemaps();

    /**
     * The newest snapshot: every hit and verdict committed so far. What was appended but not yet
     * committed is committed first, so a reader sees what its own thread stored.
     */
    Snapshot snapshot();

    /**
     * The newest snapshot committed, without committing what was appended since (as {@link #snapshot}
     * does): what watches the store move asks it every few milliseconds, and must neither commit a
     * writer's batches early nor make a query of each look. By default {@link #snapshot}.
     */
    default Snapshot committed() {
        return snapshot();
    }

    /**
     * Whether the store can still answer as of {@code snapshot}: it keeps the history of verdict
     * changes for a while, not forever, and a snapshot newer than the newest is none it made.
     */
    boolean serves(Snapshot snapshot);

    /** The view's hits per minute at {@code snapshot}: the index its pages are found with. */
    MinuteCounts minuteCounts(HitFilter filter, Snapshot snapshot);

    /**
     * How the view's minute counts changed from {@code from} to {@code to} ({@code to} covers
     * {@code from}), or null when so much changed that counting again is cheaper.
     */
    MinuteChange minuteChange(HitFilter filter, Snapshot from, Snapshot to);

    /**
     * The view's hits in {@code [fromMillis, toMillis)} at {@code snapshot}, newest first (ties by
     * id, descending), skipping {@code skip} and returning at most {@code limit}.
     */
    List<StoredHit> rows(HitFilter filter, Snapshot snapshot, long fromMillis, long toMillis, long skip, int limit);

    /** The view's hits at the newest snapshot. */
    default long count(HitFilter filter) {
        return minuteCounts(filter, snapshot()).total();
    }

    /** The view's hits at the newest snapshot, newest first (ties broken by id, descending), skipping {@code offset}. */
    default List<StoredHit> page(HitFilter filter, long offset, int limit) {
        return rows(filter, snapshot(), Long.MIN_VALUE / 2, Long.MAX_VALUE / 2, offset, limit);
    }

    /** Every hit of the view at the newest snapshot, newest first, streamed to {@code rows} a slice at a time. */
    default void forEach(HitFilter filter, Consumer<StoredHit> rows) {
        Snapshot snapshot = snapshot();
        forEach(filter, snapshot, minuteCounts(filter, snapshot), rows);
    }

    /**
     * Every hit of the view at {@code snapshot}, newest first, read in time slices of a bounded number
     * of rows ({@code counts} is the view's index at that snapshot), so no read sorts the whole view.
     */
    default void forEach(HitFilter filter, Snapshot snapshot, MinuteCounts counts, Consumer<StoredHit> rows) {
        for (MinuteCounts.Range slice : counts.slices(10_000)) {
            rows(filter, snapshot, slice.fromMillis(), slice.toMillis(), 0, Integer.MAX_VALUE).forEach(rows);
        }
    }

    /**
     * Whether every hit of {@code from} has the same verdict at {@code to} ({@code to} covers
     * {@code from}): verdicts recorded between them are all first verdicts of new claims, whose hits
     * are newer than {@code from}. A count kept at {@code from} is then brought up to {@code to} by
     * counting only the hits after it.
     */
    default boolean sameVerdicts(Snapshot from, Snapshot to) {
        return from.verdicts() == to.verdicts();
    }

    /**
     * Whether the report may copy the default view's rows out of this store into memory for its
     * pages ({@code report.DefaultViewRows}): an engine says so once the rows' contract
     * ({@code web.DefaultViewRowsContract}) passes on it.
     */
    default boolean defaultRowsHeld() {
        return true;
    }

    /** One hit, whatever its status or verdict, by its number, with its verdict as of {@code snapshot}; empty past it. */
    Optional<StoredHit> hit(long id, Snapshot snapshot);

    /** Matching hits of {@code window} by time bucket ({@code bucketMillis} long, from the epoch), status and verdict. */
    List<TimeCount> countByTime(HitFilter filter, HitWindow window, long bucketMillis);

    /**
     * Every hit of {@code window} ({@link MinuteCell#EVERY_HIT}) counted by minute, status, bot type,
     * crawler and verdict, and when {@code byUrl} by host and {@link MinuteCell#URL_HEAD URL head}
     * too, streamed: the cells of the report's count cubes.
     */
    void countByMinute(HitWindow window, boolean byUrl, Consumer<MinuteCell> cells);

    /**
     * Every hit of {@code window} counted as {@link #countByMinute} does without URLs, and by whether a
     * sitemap lists its URL ({@link MinuteCell#listed}): the cells of the cube that answers views filtered
     * by {@code in_sitemap}, counted once a sitemaps' read instead of once a view.
     */
    void countBySitemap(HitWindow window, Consumer<MinuteCell> cells);

    /** Matching hits of {@code window} by crawler (and its bot type), verdict and status. */
    List<BreakdownCount> countByCrawler(HitFilter filter, HitWindow window);

    /** Matching hits of {@code window} that carry a duration, by status, verdict and {@link DurationBuckets duration bucket}. */
    List<DurationCount> countByDuration(HitFilter filter, HitWindow window);

    /** Matching hits of {@code window} by URL, status and bot type, streamed (a store may hold millions of URLs). */
    void forEachUrl(HitFilter filter, HitWindow window, Consumer<UrlCount> urls);
}
