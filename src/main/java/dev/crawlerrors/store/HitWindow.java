package dev.crawlerrors.store;

/**
 * The hits a count covers, read at {@code snapshot}: those numbered after {@code afterHits} through
 * the snapshot's last, with their verdicts as of the snapshot. Hits are numbered as they are stored
 * and never change, so a count made at one snapshot is brought up to date to a later snapshot of the
 * same verdicts by counting only the window after it.
 */
public record HitWindow(long afterHits, Snapshot snapshot) {

    public HitWindow {
        if (afterHits < 0 || afterHits > snapshot.hits()) {
            throw new IllegalArgumentException("a window runs from a hit before its snapshot's: " + afterHits + " of " + snapshot.token());
        }
    }

    /** Every hit of {@code snapshot}. */
    public static HitWindow at(Snapshot snapshot) {
        return new HitWindow(0, snapshot);
    }

    /** The hits of {@code snapshot} after those of {@code counted}, which has the same verdicts. */
    public static HitWindow since(Snapshot counted, Snapshot snapshot) {
        return new HitWindow(counted.hits(), snapshot);
    }
}
