package dev.crawlerrors.store;

/**
 * The hits of one minute (epoch minutes) with one status, bot type, crawler and verdict: a cell of
 * the report's count cube, from which a view of those filters is counted without the store.
 *
 * @param crawler      the crawler's name, or null when the hit names none
 * @param verification the hit's verdict at the snapshot counted
 */
public record MinuteCell(long minute, int status, String botType, String crawler, String verification, long hits) {

    /** A filter of every hit: any status, bot type, crawler and verdict, all time. */
    public static final HitFilter EVERY_HIT = new HitFilter(java.util.List.of(StatusRange.ANY), HitFilter.ALL_BOT_TYPES,
            java.util.EnumSet.allOf(dev.crawlerrors.crawler.Verification.class), null, null, null, null);
}
