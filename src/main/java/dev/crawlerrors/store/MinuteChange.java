package dev.crawlerrors.store;

/**
 * How a view's minute counts changed between two snapshots: hits that arrived, and hits whose
 * verdict moved them into or out of the view (negative counts).
 *
 * @param minutes epoch minutes, each once
 * @param counts  the change in each
 */
public record MinuteChange(long[] minutes, long[] counts) {

    public static final MinuteChange NONE = new MinuteChange(new long[0], new long[0]);

    public boolean isEmpty() {
        return minutes.length == 0;
    }
}
