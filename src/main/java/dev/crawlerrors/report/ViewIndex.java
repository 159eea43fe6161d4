package dev.crawlerrors.report;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.MinuteChange;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.text.Futures;
import dev.crawlerrors.text.Threads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The report's read model: for each view (a filter) at a snapshot, how many of its hits fall in
 * each minute ({@link MinuteCounts}), from which page N is found at once instead of counting the
 * rows before it. A view is counted once, on first use; at a newer snapshot it is brought up to
 * date from the newest one known (the hits that arrived, the verdicts that changed) rather than
 * counted again. A view of statuses, bot types, crawlers and verdicts is summed from the report's
 * {@link KeptCube}s when they are counted (those with a host or a URL prefix too, where the URL
 * heads decide them; those of {@code in_sitemap} from the cube counted at the same sitemaps' reads), without the store. Views are kept, least recently used first
 * out, within a memory budget; readers asking for the same view at once share one computation.
 * A view filtered by {@code in_sitemap} is kept under the sitemaps' reads too, and counted again
 * (not brought up to date) when a sitemap is read again: its hits are the sitemap's, not frozen.
 * A reader that cannot wait for a view's first count (the first page of a large store, just after
 * serve starts) asks with a bound: the count goes on in the background, one view at a time, and
 * the reader is answered without it.
 */
public final class ViewIndex {

    /** A view at a snapshot; one filtered by the sitemaps also at their reads ({@link SitemapVersion}; empty for the rest). */
    private record Key(HitFilter filter, Snapshot snapshot, String sitemaps) {
    }

    private static final long MINUTE_MILLIS = 60_000;
    /** Views waiting for the background count; a reader asking past them is answered without its count. */
    private static final int QUEUED_COUNTS = 16;
    /** How long closing waits for a background count that is running. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(60);

    private final HitReader store;
    private final KeptCube[] cubes;
    private final long budgetBytes;
    private final SitemapVersion sitemaps;
    private final LinkedHashMap<Key, MinuteCounts> views = new LinkedHashMap<>(64, 0.75f, true);
    private final Map<Key, CompletableFuture<MinuteCounts>> computing = new HashMap<>();
    /** When each view being counted began ({@link System#nanoTime}): a reader's bounded wait runs from then. */
    private final Map<Key, Long> countingSince = new HashMap<>();
    private long bytes;
    /** The report's rows held in memory, which count the views of theirs the cubes cannot sum; null without. */
    private volatile java.util.function.BiFunction<HitFilter, Snapshot, MinuteCounts> held;
    private final ThreadPoolExecutor background = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(QUEUED_COUNTS), Threads.daemons("report-views"));

    /** @param budgetBytes the memory the kept views may take (a month of minutes is under 1 MB a view) */
    public ViewIndex(HitReader store, long budgetBytes) {
        this(store, budgetBytes, new KeptCube[0]);
    }

    /** @param cubes the count cubes views are summed from, the first that can answer them */
    ViewIndex(HitReader store, long budgetBytes, KeptCube... cubes) {
        this.store = store;
        this.budgetBytes = budgetBytes;
        this.cubes = cubes.clone();
        this.sitemaps = new SitemapVersion(store.sitemaps());
    }

    /**
     * Counts the views the cubes cannot sum (a URL prefix deeper than their heads, times of part of a minute)
     * from rows held in memory when {@code rows} can say them (null when it cannot), before the store.
     */
    void countHeld(java.util.function.BiFunction<HitFilter, Snapshot, MinuteCounts> rows) {
        this.held = rows;
    }

    /** The token of the sitemaps' reads the views filtered by them are kept under ({@link SitemapVersion}). */
    String sitemapsVersion() {
        return sitemaps.token();
    }

    /**
     * The view's minute counts at {@code snapshot}. A view over a time range of whole minutes is the
     * same view over all time cut to the range: counted once, it answers every range of it.
     */
    public MinuteCounts counts(HitFilter filter, Snapshot snapshot) {
        return counts(filter, snapshot, null).orElseThrow();
    }

    /**
     * The view's minute counts at {@code snapshot} if they are counted within {@code wait}; a count
     * not done by then goes on in the background (null: no bound, the caller counts if no one does).
     */
    public Optional<MinuteCounts> counts(HitFilter filter, Snapshot snapshot, Duration wait) {
        if (filter.from() == null && filter.to() == null) {
            return allTime(filter, snapshot, wait);
        }
        long from = filter.from() == null ? Long.MIN_VALUE : filter.from().toEpochMilli();
        long to = filter.to() == null ? Long.MAX_VALUE : filter.to().toEpochMilli();
        if ((filter.from() != null && from % MINUTE_MILLIS != 0) || (filter.to() != null && to % MINUTE_MILLIS != 0)) {
            return allTime(filter, snapshot, wait);
        }
        return allTime(filter.withTimes(null, null), snapshot, wait).map(counts -> counts.within(from, to));
    }

    /**
     * Whether {@code filter}'s view, counted now, would wait for a count cube still being counted (the cube by
     * sitemap of an {@code in_sitemap=} view at serve's start or after a sitemap's read: {@link KeptCube#countAwaited}).
     */
    boolean awaitsCube(HitFilter filter) {
        HitFilter allTime = filter.withTimes(null, null);
        for (KeptCube cube : cubes) {
            if (cube.countAwaited(allTime)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The error counts of {@code filter}'s view of every verdict at {@code snapshot} summed from the first count cube that
     * answers it ({@link CountCube#errorCounts}: no durations), without the store; null when none can (a URL prefix deeper
     * than the cubes' heads, times of part of a minute, more than {@code maxCells} cells to sum, a cube not counted yet
     * or dropped past its bound).
     */
    ErrorCounts errorCounts(HitFilter filter, Snapshot snapshot, long bucketMillis, long maxCells) {
        long from = filter.from() == null ? Long.MIN_VALUE : filter.from().toEpochMilli();
        long to = filter.to() == null ? Long.MAX_VALUE : filter.to().toEpochMilli();
        if ((filter.from() != null && from % MINUTE_MILLIS != 0) || (filter.to() != null && to % MINUTE_MILLIS != 0)
                || bucketMillis % MINUTE_MILLIS != 0) {
            return null;
        }
        long fromMinute = filter.from() == null ? Long.MIN_VALUE : from / MINUTE_MILLIS;
        long toMinute = filter.to() == null ? Long.MAX_VALUE : to / MINUTE_MILLIS;
        HitFilter allTime = filter.withTimes(null, null);
        String sitemapsToken = filter.inSitemap() == null ? "" : sitemaps.token();
        for (KeptCube cube : cubes) {
            ErrorCounts summed = cube.errorCounts(allTime, snapshot, sitemapsToken, fromMinute, toMinute, bucketMillis, maxCells);
            if (summed != null) {
                return summed;
            }
        }
        return null;
    }

    /** The minute counts of {@code filter} as it is, kept; empty when {@code wait} (if any) passed first. */
    private Optional<MinuteCounts> allTime(HitFilter filter, Snapshot snapshot, Duration wait) {
        Key key = new Key(filter, snapshot, filter.inSitemap() == null ? "" : sitemaps.token());
        CompletableFuture<MinuteCounts> mine;
        CompletableFuture<MinuteCounts> theirs;
        Key base;
        MinuteCounts baseCounts;
        long since;
        synchronized (this) {
            MinuteCounts kept = views.get(key);
            if (kept != null) {
                return Optional.of(kept);
            }
            theirs = computing.get(key);
            since = countingSince.getOrDefault(key, System.nanoTime());
            if (theirs == null) {
                mine = new CompletableFuture<>();
                computing.put(key, mine);
                countingSince.put(key, since);
                base = newestBefore(key);
                baseCounts = base == null ? null : views.get(base);
            } else {
                mine = null;
                base = null;
                baseCounts = null;
            }
        }
        if (theirs != null) {
            if (wait != null) {
                // bounded from the count's start: a count serve began before its first reader asked has had its time
                return waitFor(theirs, wait.minusNanos(System.nanoTime() - since));
            }
            if (theirs.isCancelled()) {
                return allTime(filter, snapshot, null); // its background count was refused: counted here instead
            }
            try {
                return Optional.of(Futures.join(theirs));
            } catch (CancellationException e) {
                return allTime(filter, snapshot, null);
            }
        }
        if (wait == null) {
            return Optional.of(compute(key, mine, base, baseCounts));
        }
        try {
            background.execute(() -> {
                try {
                    compute(key, mine, base, baseCounts);
                } catch (RuntimeException | Error e) {
                    // the readers that wait for it are told; a later one counts again
                }
            });
        } catch (RejectedExecutionException e) {
            synchronized (this) {
                computing.remove(key);
                countingSince.remove(key);
            }
            mine.cancel(false); // a reader that joined it meanwhile counts it itself
            return Optional.empty();
        }
        return waitFor(mine, wait);
    }

    /** What {@code counting} gives within {@code wait}, else empty (it goes on); its failure is thrown. */
    private static Optional<MinuteCounts> waitFor(CompletableFuture<MinuteCounts> counting, Duration wait) {
        try {
            return Optional.of(counting.get(wait.toNanos(), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (CancellationException e) {
            return Optional.empty(); // refused by the background count, which had views enough waiting
        } catch (ExecutionException e) {
            return Optional.of(Futures.join(counting));
        }
    }

    /** Counts the view of {@code key} (kept and given to the readers waiting for {@code mine}). */
    private MinuteCounts compute(Key key, CompletableFuture<MinuteCounts> mine, Key base, MinuteCounts baseCounts) {
        HitFilter filter = key.filter();
        Snapshot snapshot = key.snapshot();
        try {
            MinuteCounts counts = compute(filter, snapshot, key.sitemaps(), base, baseCounts);
            synchronized (this) {
                keep(key, counts);
                computing.remove(key);
                countingSince.remove(key);
            }
            mine.complete(counts);
            return counts;
        } catch (RuntimeException | Error e) {
            synchronized (this) {
                computing.remove(key);
                countingSince.remove(key);
            }
            mine.completeExceptionally(e);
            throw e;
        }
    }

    private MinuteCounts compute(HitFilter filter, Snapshot snapshot, String sitemapsToken, Key base, MinuteCounts baseCounts) {
        // a view kept at an earlier snapshot needs only the hits since (a followed log's few); a new one, the cube's sum
        if (baseCounts != null) {
            MinuteChange change = store.minuteChange(filter, base.snapshot(), snapshot);
            if (change != null) {
                return baseCounts.plus(change);
            }
        }
        for (KeptCube cube : cubes) {
            MinuteCounts summed = cube.counts(filter, snapshot, sitemapsToken);
            if (summed != null) {
                return summed;
            }
        }
        java.util.function.BiFunction<HitFilter, Snapshot, MinuteCounts> rows = held;
        MinuteCounts counted = rows == null ? null : rows.apply(filter, snapshot);
        return counted != null ? counted : store.minuteCounts(filter, snapshot);
    }

    /** The newest kept snapshot of {@code of}'s view (at the same sitemaps) that its snapshot covers, if any. */
    private Key newestBefore(Key of) {
        Key best = null;
        for (Key key : views.keySet()) {
            if (key.filter().equals(of.filter()) && key.sitemaps().equals(of.sitemaps()) && of.snapshot().covers(key.snapshot())
                    && (best == null || key.snapshot().covers(best.snapshot()))) {
                best = key;
            }
        }
        return best;
    }

    private void keep(Key key, MinuteCounts counts) {
        MinuteCounts before = views.put(key, counts);
        bytes += counts.bytes() - (before == null ? 0 : before.bytes());
        Iterator<Map.Entry<Key, MinuteCounts>> eldest = views.entrySet().iterator();
        while (bytes > budgetBytes && views.size() > 1 && eldest.hasNext()) {
            Map.Entry<Key, MinuteCounts> entry = eldest.next();
            if (entry.getKey().equals(key)) {
                continue;
            }
            bytes -= entry.getValue().bytes();
            eldest.remove();
        }
    }

    /**
     * Stops counting in the background: the count that is running is interrupted (its store read
     * cancelled) and waited for, those waiting are dropped and their readers told; call it before
     * the store closes.
     */
    public void close() {
        background.shutdownNow();
        synchronized (this) {
            computing.values().forEach(counting -> counting.cancel(false));
        }
        try {
            background.awaitTermination(CLOSE_WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The views kept and the bytes they take, for metrics. */
    public synchronized List<Long> footprint() {
        return new ArrayList<>(List.of((long) views.size(), bytes));
    }
}
