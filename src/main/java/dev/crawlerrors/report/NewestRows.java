package dev.crawlerrors.report;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoredHit;
import java.util.List;

/**
 * A view's newest rows read without its minute counts, for a first page asked before they are
 * counted: the rows of a time window reaching back from the last hit stored, widened until it
 * holds enough of the view's hits (every hit newer than its start is in it, so its newest are the
 * view's newest). A window is a range of the store's time order, so each read skips the row groups
 * of older hits instead of ordering every hit of the view.
 */
final class NewestRows {

    private static final long HOUR_MILLIS = 3_600_000L;
    /** How far back each window reaches from the last hit stored: an hour, a day, 8 days, 64 days; then all time. */
    private static final long[] REACH = {HOUR_MILLIS, 24 * HOUR_MILLIS, 8 * 24 * HOUR_MILLIS, 64 * 24 * HOUR_MILLIS};
    private static final long ALL_TIME = Long.MAX_VALUE / 2;

    private final HitReader store;

    NewestRows(HitReader store) {
        this.store = store;
    }

    /** Up to {@code limit} of the view's newest hits at {@code at}, newest first (ties by id, descending). */
    List<StoredHit> read(HitFilter filter, Snapshot at, int limit) {
        long last = store.hit(at.hits(), at).map(StoredHit::epochMillis).orElse(System.currentTimeMillis());
        for (long reach : REACH) {
            List<StoredHit> rows = store.rows(filter, at, last - reach, ALL_TIME, 0, limit);
            if (rows.size() == limit) {
                return rows;
            }
        }
        return store.rows(filter, at, -ALL_TIME, ALL_TIME, 0, limit);
    }
}
