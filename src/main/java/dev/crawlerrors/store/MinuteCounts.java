package dev.crawlerrors.store;

import java.util.Arrays;

/**
 * How many hits a view holds in each minute, newest minute first: the index that finds a page
 * without counting the rows before it. Page N starts at hit {@code (N - 1) * 100} of the view,
 * newest first; the minute that hit falls in, and how many of that minute's hits come before it,
 * are a binary search over the running totals, and the page is then read from that minute on.
 *
 * <p>Immutable. Only minutes with hits are kept: a month of traffic is 43,200 minutes at most,
 * two longs each.
 */
public final class MinuteCounts {

    public static final MinuteCounts NONE = new MinuteCounts(new long[0], new long[0]);
    private static final long MINUTE_MILLIS = 60_000;

    /** The minutes (epoch minutes), newest first. */
    private final long[] minutes;
    /** Hits in the minute and every newer one: {@code through[i]} counts minutes 0..i. */
    private final long[] through;

    private MinuteCounts(long[] minutes, long[] through) {
        this.minutes = minutes;
        this.through = through;
    }

    /** The counts of every minute from {@code first} on (epoch minutes): {@code sums[m]} hits in minute {@code first + m}; zeros dropped. */
    public static MinuteCounts dense(long first, long[] sums) {
        int n = 0;
        for (long sum : sums) {
            n += sum == 0 ? 0 : 1;
        }
        long[] minutes = new long[n];
        long[] counts = new long[n];
        n = 0;
        for (int m = 0; m < sums.length; m++) {
            if (sums[m] != 0) {
                minutes[n] = first + m;
                counts[n++] = sums[m];
            }
        }
        return of(minutes, counts);
    }

    /** The counts of {@code minutes} (epoch minutes, any order, each once) and their {@code counts}; zero counts are dropped. */
    public static MinuteCounts of(long[] minutes, long[] counts) {
        int n = minutes.length;
        Integer[] order = new Integer[n];
        boolean descending = true;
        boolean ascending = true;
        for (int i = 0; i < n; i++) {
            order[i] = i;
            if (i > 0) {
                descending &= minutes[i] < minutes[i - 1];
                ascending &= minutes[i] > minutes[i - 1];
            }
        }
        if (ascending && n > 1) {
            for (int i = 0; i < n; i++) {
                order[i] = n - 1 - i; // a cube's sum, oldest first: no sort
            }
        } else if (!descending) {
            Arrays.sort(order, (a, b) -> Long.compare(minutes[b], minutes[a]));
        }
        long[] sortedMinutes = new long[n];
        long[] running = new long[n];
        int kept = 0;
        long total = 0;
        for (int i = 0; i < n; i++) {
            long count = counts[order[i]];
            if (count == 0) {
                continue;
            }
            if (count < 0) {
                throw new IllegalArgumentException("minute " + minutes[order[i]] + " has " + count + " hits");
            }
            if (kept > 0 && sortedMinutes[kept - 1] == minutes[order[i]]) {
                throw new IllegalArgumentException("minute " + minutes[order[i]] + " given twice");
            }
            total += count;
            sortedMinutes[kept] = minutes[order[i]];
            running[kept] = total;
            kept++;
        }
        return new MinuteCounts(Arrays.copyOf(sortedMinutes, kept), Arrays.copyOf(running, kept));
    }

    public long total() {
        return through.length == 0 ? 0 : through[through.length - 1];
    }

    /** Minutes that hold hits. */
    public int size() {
        return minutes.length;
    }

    /** This view after {@code change}: counts added minute by minute (negative where hits left the view). */
    public MinuteCounts plus(MinuteChange change) {
        if (change.isEmpty()) {
            return this;
        }
        long[] allMinutes = new long[minutes.length + change.minutes().length];
        long[] allCounts = new long[allMinutes.length];
        int n = 0;
        java.util.Map<Long, Integer> at = new java.util.HashMap<>();
        for (int i = 0; i < minutes.length; i++) {
            allMinutes[n] = minutes[i];
            allCounts[n] = count(i);
            at.put(minutes[i], n++);
        }
        for (int i = 0; i < change.minutes().length; i++) {
            Integer slot = at.get(change.minutes()[i]);
            if (slot == null) {
                allMinutes[n] = change.minutes()[i];
                allCounts[n] = change.counts()[i];
                at.put(change.minutes()[i], n++);
            } else {
                allCounts[slot] += change.counts()[i];
            }
        }
        return of(Arrays.copyOf(allMinutes, n), Arrays.copyOf(allCounts, n));
    }

    private long count(int i) {
        return through[i] - (i == 0 ? 0 : through[i - 1]);
    }

    /**
     * Where the hit numbered {@code skip} (from 0, newest first) is, and the time range that holds
     * it and the {@code rows - 1} hits after it: the rows of a page are the view's hits in
     * {@code [fromMillis, toMillis)} after skipping {@link Range#skip} of them, newest first.
     *
     * @return null when the view has no hit numbered {@code skip}
     */
    public Range locate(long skip, int rows) {
        if (skip < 0 || skip >= total()) {
            return null;
        }
        int first = firstAbove(skip);
        long before = first == 0 ? 0 : through[first - 1];
        long lastWanted = Math.min(total(), skip + rows) - 1;
        int last = firstAbove(lastWanted);
        return new Range(minutes[last] * MINUTE_MILLIS, (minutes[first] + 1) * MINUTE_MILLIS, skip - before);
    }

    /** The index of the first minute whose running total exceeds {@code n}. */
    private int firstAbove(long n) {
        int lo = 0;
        int hi = through.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (through[mid] > n) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /**
     * The minutes in time order slices of about {@code rows} hits each, newest first: a whole view
     * read a slice at a time (the CSV) is sorted a slice at a time.
     */
    public java.util.List<Range> slices(long rows) {
        java.util.List<Range> slices = new java.util.ArrayList<>();
        int i = 0;
        while (i < minutes.length) {
            long start = i == 0 ? 0 : through[i - 1];
            int j = i;
            while (j + 1 < minutes.length && through[j + 1] - start <= rows) {
                j++;
            }
            slices.add(new Range(minutes[j] * MINUTE_MILLIS, (minutes[i] + 1) * MINUTE_MILLIS, 0));
            i = j + 1;
        }
        return slices;
    }

    /**
     * The view's minutes in {@code [fromMillis, toMillis)} (each a whole minute, or
     * {@code Long.MIN_VALUE} / {@code Long.MAX_VALUE} for no bound): the same view over a time range,
     * without counting it again.
     *
     * @throws IllegalArgumentException when a bound is not a whole minute
     */
    public MinuteCounts within(long fromMillis, long toMillis) {
        boolean fromBound = fromMillis != Long.MIN_VALUE;
        boolean toBound = toMillis != Long.MAX_VALUE;
        if ((fromBound && fromMillis % MINUTE_MILLIS != 0) || (toBound && toMillis % MINUTE_MILLIS != 0)) {
            throw new IllegalArgumentException("not whole minutes: " + fromMillis + " to " + toMillis);
        }
        // minutes are newest first: [newest, oldest) is the run of minutes below toMillis and at or above fromMillis
        int newest = toBound ? firstBelow(Math.floorDiv(toMillis, MINUTE_MILLIS)) : 0;
        int oldest = fromBound ? firstBelow(Math.floorDiv(fromMillis, MINUTE_MILLIS)) : minutes.length;
        if (newest == 0 && oldest == minutes.length) {
            return this;
        }
        if (oldest <= newest) {
            return NONE;
        }
        long before = newest == 0 ? 0 : through[newest - 1];
        long[] kept = Arrays.copyOfRange(minutes, newest, oldest);
        long[] running = new long[kept.length];
        for (int i = 0; i < kept.length; i++) {
            running[i] = through[newest + i] - before;
        }
        return new MinuteCounts(kept, running);
    }

    /** The index of the first minute (newest first) older than {@code minute}; the size when none is. */
    private int firstBelow(long minute) {
        int lo = 0;
        int hi = minutes.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (minutes[mid] < minute) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** The bytes this index holds, for the read model's memory budget. */
    public long bytes() {
        return 48 + 16L * minutes.length;
    }

    /**
     * Hits in {@code [fromMillis, toMillis)} of the view, newest first, after skipping {@code skip}.
     */
    public record Range(long fromMillis, long toMillis, long skip) {
    }
}
