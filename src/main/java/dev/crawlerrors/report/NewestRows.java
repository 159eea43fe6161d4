package dev.crawlerrors.report;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoredHit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A view's newest rows read without its minute counts, for a first page asked before they are
 * counted: the rows of a time window reaching back from the last hit stored, widened until it
 * holds enough of the view's hits (every hit newer than its start is in it, so its newest are the
 * view's newest). A window is a range of the store's time order, so each read skips the row groups
 * of older hits instead of ordering every hit of the view. The last few views read are kept, by
 * snapshot and the sitemaps' version: serve's warm-up reads the {@code in_sitemap=} first pages'
 * rows before the counts of its start take the store's readers, and their first readers find them here.
 */
final class NewestRows {

    private static final long HOUR_MILLIS = 3_600_000L;
    /** How far back each window reaches from the last hit stored: an hour, a day, 8 days, 64 days; then all time. */
    private static final long[] REACH = {HOUR_MILLIS, 24 * HOUR_MILLIS, 8 * 24 * HOUR_MILLIS, 64 * 24 * HOUR_MILLIS};
    private static final long ALL_TIME = Long.MAX_VALUE / 2;

    private final HitReader store;
    /** The time of the last hit of the snapshot read last: a snapshot's last hit never changes. */
    private volatile LastHit lastHit;
    /** The views read last, the least recently asked out first: a few pages of rows. */
    private final Map<Key, List<StoredHit>> kept = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, List<StoredHit>> eldest) {
            return size() > KEPT;
        }
    };
    /** Views kept at most. */
    private static final int KEPT = 8;

    NewestRows(HitReader store) {
        this.store = store;
    }

    /**
     * Up to {@code limit} of the view's newest hits at {@code at}, newest first (ties by id, descending), as the
     * sitemaps of version {@code sitemaps} list them ({@link SitemapVersion}; any for a view that does not ask).
     */
    List<StoredHit> read(HitFilter filter, Snapshot at, String sitemaps, int limit) {
        Key key = new Key(filter, at, filter.inSitemap() == null ? "" : sitemaps, limit);
        synchronized (kept) {
            List<StoredHit> rows = kept.get(key);
            if (rows != null) {
                return rows;
            }
            // the same view read with a larger limit (serve's warm-up reads the in_sitemap= views' first pages so) holds these
            for (Map.Entry<Key, List<StoredHit>> entry : kept.entrySet()) {
                Key other = entry.getKey();
                if (other.limit() > limit && other.filter().equals(key.filter()) && other.at().equals(at) && other.sitemaps().equals(key.sitemaps())) {
                    List<StoredHit> more = entry.getValue();
                    return more.subList(0, Math.min(limit, more.size()));
                }
            }
        }
        List<StoredHit> rows = read(filter, at, limit);
        synchronized (kept) {
            kept.put(key, rows);
        }
        return rows;
    }

    private List<StoredHit> read(HitFilter filter, Snapshot at, int limit) {
        long last = lastHit(at);
        for (long reach : REACH) {
            List<StoredHit> rows = store.rows(filter, at, last - reach, ALL_TIME, 0, limit);
            if (rows.size() == limit) {
                return List.copyOf(rows);
            }
        }
        return List.copyOf(store.rows(filter, at, -ALL_TIME, ALL_TIME, 0, limit));
    }

    private record Key(HitFilter filter, Snapshot at, String sitemaps, int limit) {
    }

    /**
     * The time of {@code at}'s last hit, read once a snapshot: the first pages of several views asked at once
     * (serve's warm-up reads those of {@code in_sitemap=}) ask it of the store once, not once each while the
     * store's readers are taken by the counts of serve's start. Now when the snapshot holds no hit.
     */
    private long lastHit(Snapshot at) {
        LastHit kept = lastHit;
        if (kept != null && kept.at().equals(at)) {
            return kept.millis();
        }
        Optional<Long> read = store.hit(at.hits(), at).map(StoredHit::epochMillis);
        read.ifPresent(millis -> lastHit = new LastHit(at, millis));
        return read.orElse(System.currentTimeMillis());
    }

    private record LastHit(Snapshot at, long millis) {
    }
}
