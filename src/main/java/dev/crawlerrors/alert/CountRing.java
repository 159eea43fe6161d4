package dev.crawlerrors.alert;

/**
 * Counts of hits by time, in slots of a fixed width that are reused as time moves on: a bounded
 * window of the recent past, added to in any order (a hit older than the ring holds is left out)
 * and summed over any part of it. Each slot holds a few counters side by side (all hits, client
 * errors, server errors). Not thread-safe: its owner serialises access.
 */
final class CountRing {

    private final long width;
    private final long[] starts;
    private final long[][] counts;

    /**
     * @param width    the slot width, in milliseconds
     * @param slots    how many slots it keeps: it covers {@code width * slots} of the past
     * @param counters how many counters a slot holds
     */
    CountRing(long width, int slots, int counters) {
        this.width = width;
        this.starts = new long[slots];
        this.counts = new long[slots][counters];
        java.util.Arrays.fill(starts, Long.MIN_VALUE);
    }

    long width() {
        return width;
    }

    /** Adds {@code n} to counter {@code counter} of the slot {@code millis} falls in, unless that slot is older than the ring holds. */
    void add(long millis, int counter, long n) {
        long slot = Math.floorDiv(millis, width);
        int i = (int) Math.floorMod(slot, (long) starts.length);
        if (starts[i] != slot) {
            if (starts[i] != Long.MIN_VALUE && slot < starts[i]) {
                return;
            }
            starts[i] = slot;
            java.util.Arrays.fill(counts[i], 0);
        }
        counts[i][counter] += n;
    }

    /** The sum of counter {@code counter} over the slots that start in {@code [fromMillis, toMillis)}. */
    long sum(int counter, long fromMillis, long toMillis) {
        long total = 0;
        for (int i = 0; i < starts.length; i++) {
            if (starts[i] == Long.MIN_VALUE) {
                continue;
            }
            long start = starts[i] * width;
            if (start >= fromMillis && start < toMillis) {
                total += counts[i][counter];
            }
        }
        return total;
    }

    /** Whether any slot that starts at or after {@code fromMillis} holds a count. */
    boolean anySince(long fromMillis) {
        for (int i = 0; i < starts.length; i++) {
            if (starts[i] != Long.MIN_VALUE && starts[i] * width >= fromMillis) {
                for (long count : counts[i]) {
                    if (count != 0) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
