package dev.crawlerrors.store;

/**
 * The buckets durations are counted in, the same for every engine: bucket 0 holds everything
 * under {@link #FLOOR_MS}, bucket {@code k >= 1} the durations from {@code FLOOR_MS * RATIO^(k-1)}
 * up to {@code FLOOR_MS * RATIO^k}. Each bucket is 1% wide, so a percentile read from them is
 * within 1% of the exact one; counts in buckets add up, which exact percentiles do not, so figures
 * counted before and after new hits arrive can be merged.
 */
public final class DurationBuckets {

    public static final double FLOOR_MS = 0.05;
    public static final double RATIO = 1.01;
    /** The last bucket, which holds everything from about 7 hours up. */
    public static final int LAST = 2_000;
    /** A response this slow or slower is slow (a crawler slows its crawl on a slow site). */
    public static final double SLOW_MS = 1_000;

    private DurationBuckets() {
    }

    /** The bucket of {@code ms}. */
    public static int bucket(double ms) {
        if (!(ms >= FLOOR_MS)) {
            return 0;
        }
        return (int) Math.min(LAST, 1 + Math.floor(Math.log(ms / FLOOR_MS) / Math.log(RATIO)));
    }

    /** The middle of bucket {@code k} (geometric), the value a percentile in it is shown as; 0 for bucket 0. */
    public static double middle(int k) {
        return k <= 0 ? 0 : FLOOR_MS * Math.pow(RATIO, k - 0.5);
    }
}
