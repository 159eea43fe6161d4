package dev.crawlerrors.report;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.MinuteChange;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.text.Futures;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The report's read model: for each view (a filter) at a snapshot, how many of its hits fall in
 * each minute ({@link MinuteCounts}), from which page N is found at once instead of counting the
 * rows before it. A view is counted once, on first use; at a newer snapshot it is brought up to
 * date from the newest one known (the hits that arrived, the verdicts that changed) rather than
 * counted again. A view of statuses, bot types, crawlers and verdicts is summed from the report's
 * {@link KeptCube}s when they are counted (those with a host or a URL prefix too, where the URL
 * heads decide them), without the store. Views are kept, least recently used first
 * out, within a memory budget; readers asking for the same view at once share one computation.
 * A view filtered by {@code in_sitemap} is kept under the sitemaps' reads too, and counted again
 * (not brought up to date) when a sitemap is read again: its hits are the sitemap's, not frozen.
 */
public final class ViewIndex {

    /** A view at a snapshot; one filtered by the sitemaps also at their reads ({@link SitemapVersion}; empty for the rest). */
    private record Key(HitFilter filter, Snapshot snapshot, String sitemaps) {
    }

    private static final long MINUTE_MILLIS = 60_000;

    private final HitReader store;
    private final KeptCube[] cubes;
    private final long budgetBytes;
    private final SitemapVersion sitemaps;
    private final LinkedHashMap<Key, MinuteCounts> views = new LinkedHashMap<>(64, 0.75f, true);
    private final Map<Key, CompletableFuture<MinuteCounts>> computing = new HashMap<>();
    private long bytes;

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

    /** The token of the sitemaps' reads the views filtered by them are kept under ({@link SitemapVersion}). */
    String sitemapsVersion() {
        return sitemaps.token();
    }

    /**
     * The view's minute counts at {@code snapshot}. A view over a time range of whole minutes is the
     * same view over all time cut to the range: counted once, it answers every range of it.
     */
    public MinuteCounts counts(HitFilter filter, Snapshot snapshot) {
        if (filter.from() == null && filter.to() == null) {
            return allTime(filter, snapshot);
        }
        long from = filter.from() == null ? Long.MIN_VALUE : filter.from().toEpochMilli();
        long to = filter.to() == null ? Long.MAX_VALUE : filter.to().toEpochMilli();
        if ((filter.from() != null && from % MINUTE_MILLIS != 0) || (filter.to() != null && to % MINUTE_MILLIS != 0)) {
            return allTime(filter, snapshot);
        }
        return allTime(filter.withTimes(null, null), snapshot).within(from, to);
    }

    /** The minute counts of {@code filter} as it is, kept. */
    private MinuteCounts allTime(HitFilter filter, Snapshot snapshot) {
        Key key = new Key(filter, snapshot, filter.inSitemap() == null ? "" : sitemaps.token());
        CompletableFuture<MinuteCounts> mine;
        CompletableFuture<MinuteCounts> theirs;
        Key base;
        MinuteCounts baseCounts;
        synchronized (this) {
            MinuteCounts kept = views.get(key);
            if (kept != null) {
                return kept;
            }
            theirs = computing.get(key);
            if (theirs == null) {
                mine = new CompletableFuture<>();
                computing.put(key, mine);
                base = newestBefore(key);
                baseCounts = base == null ? null : views.get(base);
            } else {
                mine = null;
                base = null;
                baseCounts = null;
            }
        }
        if (theirs != null) {
            return Futures.join(theirs);
        }
        try {
            MinuteCounts counts = compute(filter, snapshot, base, baseCounts);
            synchronized (this) {
                keep(key, counts);
                computing.remove(key);
            }
            mine.complete(counts);
            return counts;
        } catch (RuntimeException | Error e) {
            synchronized (this) {
                computing.remove(key);
            }
            mine.completeExceptionally(e);
            throw e;
        }
    }

    private MinuteCounts compute(HitFilter filter, Snapshot snapshot, Key base, MinuteCounts baseCounts) {
        // a view kept at an earlier snapshot needs only the hits since (a followed log's few); a new one, the cube's sum
        if (baseCounts != null) {
            MinuteChange change = store.minuteChange(filter, base.snapshot(), snapshot);
            if (change != null) {
                return baseCounts.plus(change);
            }
        }
        for (KeptCube cube : cubes) {
            MinuteCounts summed = cube.counts(filter, snapshot);
            if (summed != null) {
                return summed;
            }
        }
        return store.minuteCounts(filter, snapshot);
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

    /** The views kept and the bytes they take, for metrics. */
    public synchronized List<Long> footprint() {
        return new ArrayList<>(List.of((long) views.size(), bytes));
    }
}
