package dev.crawlerrors.store;

/**
 * The hits stored after the one with id {@code afterId}, through the one with id {@code throughId}:
 * ids grow as hits are appended, so a figure counted through one id is brought up to date by
 * counting only the window after it.
 */
public record HitWindow(long afterId, long throughId) {

    /** Every hit stored. */
    public static final HitWindow ALL = new HitWindow(0, Long.MAX_VALUE);

    /** Every hit through {@code throughId}. */
    public static HitWindow through(long throughId) {
        return new HitWindow(0, throughId);
    }

    public boolean isAll() {
        return afterId <= 0 && throughId == Long.MAX_VALUE;
    }
}
