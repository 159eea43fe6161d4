package dev.crawlerrors.store;

import java.util.Map;

/**
 * How a view's minute counts changed between two snapshots: hits that arrived, and hits whose
 * verdict moved them into or out of the view (negative counts).
 *
 * @param minutes epoch minutes, each once
 * @param counts  the change in each
 */
public record MinuteChange(long[] minutes, long[] counts) {

    public static final MinuteChange NONE = new MinuteChange(new long[0], new long[0]);

    /** The change of each minute in {@code change}, the minutes whose change is nought left out. */
    public static MinuteChange of(Map<Long, Long> change) {
        int n = (int) change.values().stream().filter(c -> c != 0).count();
        long[] minutes = new long[n];
        long[] counts = new long[n];
        int i = 0;
        for (Map.Entry<Long, Long> e : change.entrySet()) {
            if (e.getValue() != 0) {
                minutes[i] = e.getKey();
                counts[i++] = e.getValue();
            }
        }
        return new MinuteChange(minutes, counts);
    }

    public boolean isEmpty() {
        return minutes.length == 0;
    }
}
