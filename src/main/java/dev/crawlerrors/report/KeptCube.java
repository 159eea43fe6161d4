package dev.crawlerrors.report;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.MinuteCell;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The report's {@link CountCube}, counted once from the store in the background and brought up to
 * date as hits arrive (a later snapshot of the same verdicts adds only the hits after the cube's,
 * as {@link KeptCounts} does), so that a view filtered by status, bot type, crawler, verdict and
 * whole minutes is counted in memory, whatever its combination. It answers only at the snapshot it
 * is at (or one it can be brought to): until it is counted, while a verdict change is recounted, or
 * for an older snapshot, it answers nothing and the store counts, as before.
 *
 * <p>A cube counted by sitemap is counted at the sitemaps' reads of its count ({@link SitemapVersion})
 * and answers only views asked at those; a sitemap read again has it counted again.
 *
 * <p>Bounded: a cube past {@code maxBytes} is dropped (the count stops as soon as it passes) and the
 * store counts every view, so the memory a store's traffic may take is the bound's, not the store's.
 */
final class KeptCube {

    /** Cells counted before they are added to the cube: the count's memory beyond the cube. */
    private static final int CHUNK = 65_536;

    private final HitReader store;
    private final long maxBytes;
    private final boolean byUrl;
    private final boolean bySitemap;
    private final ExecutorService counter;
    /** The cube and the snapshot it was counted at; null until counted, or when too big. */
    private CountCube cube;
    private Snapshot at;
    /** The sitemaps' reads the cube was counted at (a cube by sitemap; empty for the rest). */
    private String sitemapsAt = "";
    private Future<?> counting;
    /** Sitemaps were read while it was counted: counted again when done, if they changed. */
    private boolean again;
    private boolean tooBig;

    /** @param maxBytes the memory the cube may take ({@link CountCube#bytes}); 0 keeps none */
    KeptCube(HitReader store, long maxBytes) {
        this(store, maxBytes, false, counter());
    }

    /**
     * @param byUrl   whether the cube counts hosts and URL heads too (and so answers only filters of them)
     * @param counter the thread it is counted on, which {@link #close} shuts down
     */
    KeptCube(HitReader store, long maxBytes, boolean byUrl, ExecutorService counter) {
        this(store, maxBytes, byUrl, false, counter);
    }

    /** @param bySitemap whether the cube counts whether a sitemap lists each hit's URL (and so answers only {@code in_sitemap}) */
    KeptCube(HitReader store, long maxBytes, boolean byUrl, boolean bySitemap, ExecutorService counter) {
        this.store = store;
        this.maxBytes = maxBytes;
        this.byUrl = byUrl;
        this.bySitemap = bySitemap;
        this.counter = counter;
    }

    /** A thread to count cubes on, one after another. */
    static ExecutorService counter() {
        return Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "report-cube");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * The view's minute counts at {@code snapshot} from the cube, or null when the cube cannot give
     * them now (the store then counts them: before {@link #start}, and until its count is done).
     */
    MinuteCounts counts(HitFilter filter, Snapshot snapshot) {
        return counts(filter, snapshot, "");
    }

    /** As {@link #counts(HitFilter, Snapshot)}, for a view asked at the sitemaps' reads {@code sitemaps} ({@link SitemapVersion}). */
    MinuteCounts counts(HitFilter filter, Snapshot snapshot, String sitemaps) {
        if (!CountCube.answers(filter, byUrl, bySitemap)) {
            return null;
        }
        CountCube now = at(snapshot, bySitemap ? sitemaps : "");
        if (now == null && bySitemap && awaitCount()) {
            now = at(snapshot, sitemaps);
        }
        return now == null ? null : now.counts(filter);
    }

    /**
     * Whether a view of {@code filter} (over all time) asked now would wait for this cube's count: a cube by
     * sitemap that answers it, being counted or queued and not counted yet ({@link #awaitCount}). Such a view's
     * count is done only once the cube's is, seconds at millions of hits.
     */
    synchronized boolean countAwaited(HitFilter filter) {
        return bySitemap && CountCube.answers(filter, byUrl, bySitemap) && cube == null && !tooBig && counting != null;
    }

    /** How long an {@code in_sitemap=} view waits for the cube by sitemap being counted before the store counts it. */
    private static final long WAIT_SECONDS = 60;

    /**
     * Waits for the count of this cube that is running or queued, if any (a cube by sitemap): the
     * store's count of an {@code in_sitemap=} view joins every hit with the listed URLs beside the
     * cube's own count of the same, where the cube then answers it in memory. True when it was waited for.
     */
    private boolean awaitCount() {
        Future<?> running;
        synchronized (this) {
            running = cube == null && !tooBig ? counting : null;
        }
        if (running == null) {
            return false;
        }
        try {
            running.get(WAIT_SECONDS, TimeUnit.SECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException | CancellationException e) {
            return false; // the store counts it
        }
    }

    /**
     * The error counts of {@code filter}'s view (over all time, every verdict) over minutes {@code fromMinute} to
     * {@code toMinute - 1} at {@code snapshot} from the cube ({@link CountCube#errorCounts}), or null when the cube cannot
     * give them now or does not answer the view.
     */
    ErrorCounts errorCounts(HitFilter filter, Snapshot snapshot, String sitemaps, long fromMinute, long toMinute, long bucketMillis, long maxCells) {
        if (!CountCube.answers(filter, byUrl, bySitemap)) {
            return null;
        }
        CountCube now = at(snapshot, bySitemap ? sitemaps : "");
        return now == null ? null : now.errorCounts(filter, fromMinute, toMinute, bucketMillis, maxCells);
    }

    /** Starts counting the cube in the background, if it is not counted or being counted. */
    synchronized void start() {
        if (cube == null && counting == null && !tooBig && maxBytes > 0 && !counter.isShutdown()) {
            counting = counter.submit(this::recount);
        }
    }

    /**
     * Sitemaps were read (a cube by sitemap; nothing for the others): a cube counted at other reads is
     * counted again now, and one being counted is counted again when done, so that the first view at
     * the new reads finds it counted instead of asking the store. A cube not counted yet is started.
     */
    synchronized void sitemapsRead() {
        if (!bySitemap || tooBig) {
            return;
        }
        if (counting != null) {
            again = true;
        } else if (cube == null || !sitemapsAt.equals(SitemapVersion.of(store.sitemaps()))) {
            cube = null;
            start();
        }
    }

    /** The cube at {@code snapshot}, brought to it if it can be; null if not. */
    private synchronized CountCube at(Snapshot snapshot, String sitemaps) {
        if (cube == null && bySitemap) {
            start(); // counted on first use, not at start: most stores hold no sitemap
        }
        if (cube == null || tooBig) {
            return null;
        }
        if (!sitemapsAt.equals(sitemaps)) {
            if (counting == null && !sitemapsAt.equals(SitemapVersion.of(store.sitemaps()))) {
                // a sitemap read since: counted again, the store answers meanwhile
                cube = null;
                start();
            }
            return null;
        }
        if (at.equals(snapshot)) {
            return cube;
        }
        if (!snapshot.covers(at)) {
            return null;
        }
        if (!store.sameVerdicts(at, snapshot)) {
            // a verdict moved hits between verdicts: counted again at the newest snapshot, the store answers meanwhile
            cube = null;
            start();
            return null;
        }
        CountCube added = count(HitWindow.since(at, snapshot), cube);
        if (added == null) {
            return null;
        }
        cube = added;
        at = snapshot;
        return cube;
    }

    private void recount() {
        try {
            Snapshot newest = store.snapshot();
            String sitemaps = bySitemap ? SitemapVersion.of(store.sitemaps()) : "";
            CountCube counted = count(HitWindow.at(newest),
                    bySitemap ? CountCube.EMPTY_BY_SITEMAP : byUrl ? CountCube.EMPTY_BY_URL : CountCube.EMPTY);
            synchronized (this) {
                if (counted != null && !tooBig) {
                    cube = counted;
                    at = newest;
                    sitemapsAt = sitemaps;
                }
            }
        } finally {
            synchronized (this) {
                counting = null;
                if (again) {
                    again = false;
                    sitemapsRead();
                }
            }
        }
    }

    /** {@code base} with the hits of {@code window}; null, and the cube dropped, when that passes the bound. */
    private CountCube count(HitWindow window, CountCube base) {
        CountCube[] sum = {base};
        List<MinuteCell> chunk = new ArrayList<>();
        boolean[] over = {false};
        Consumer<MinuteCell> add = cell -> {
            if (over[0]) {
                return;
            }
            chunk.add(cell);
            if (chunk.size() == CHUNK) {
                sum[0] = sum[0].plus(chunk);
                chunk.clear();
                over[0] = sum[0].bytes() > maxBytes;
                if (over[0]) {
                    throw PastBound.INSTANCE;
                }
            }
        };
        try {
            if (bySitemap) {
                store.countBySitemap(window, add);
            } else {
                store.countByMinute(window, byUrl, add);
            }
        } catch (PastBound e) {
            // the store's read stops here: the cells after are not read at all (a 10,000,000-hit store's
            // cube by URL head is 4,982,811 cells, of which a 64 MiB cube holds about a fifth)
        }
        if (!over[0]) {
            sum[0] = sum[0].plus(chunk);
        }
        if (over[0] || sum[0].bytes() > maxBytes) {
            synchronized (this) {
                tooBig = true;
                cube = null;
            }
            return null;
        }
        return sum[0];
    }

    /** Thrown by a count's consumer once the cube passes its bound, to stop the store's read there. */
    private static final class PastBound extends RuntimeException {

        static final PastBound INSTANCE = new PastBound();

        private PastBound() {
            super("the count cube passed its bound", null, false, false);
        }
    }

    /** The cells kept, the bytes they take, and 1 when the cube was dropped for its bound: for metrics and tests. */
    synchronized List<Long> footprint() {
        return List.of(cube == null ? 0L : cube.cells(), cube == null ? 0L : cube.bytes(), tooBig ? 1L : 0L);
    }

    /** Stops counting: the count that is running is interrupted (its store read cancelled) and waited for (a store must not close under it). */
    void close() {
        for (Runnable waiting : counter.shutdownNow()) {
            if (waiting instanceof Future<?> count) {
                count.cancel(false); // its readers are told
            }
        }
        try {
            counter.awaitTermination(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
