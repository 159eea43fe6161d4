package dev.crawlerrors.store;

/**
 * The hits of one minute (epoch minutes) with one status, bot type, crawler and verdict, and when
 * counted by URL their host and URL head: a cell of the report's count cube, from which a view of
 * those filters is counted without the store.
 *
 * @param crawler      the crawler's name, or null when the hit names none
 * @param verification the hit's verdict at the snapshot counted
 * @param host         the hits' host (null when they name none), or null when not counted by URL
 * @param urlHead      the hits' {@link #URL_HEAD URL head}, or null when not counted by URL
 * @param listed       whether a sitemap lists the hits' URL, or null when not counted by sitemap
 */
public record MinuteCell(long minute, int status, String botType, String crawler, String verification, String host, String urlHead,
        long hits, Boolean listed) {

    /** A filter of every hit: any status, bot type, crawler and verdict, all time. */
    public static final HitFilter EVERY_HIT = new HitFilter(java.util.List.of(StatusRange.ANY), HitFilter.ALL_BOT_TYPES,
            java.util.EnumSet.allOf(dev.crawlerrors.crawler.Verification.class), null, null, null, null);

    /**
     * A URL's head, as a regular expression both stores run: its first directory ({@code /gent/} of
     * {@code /gent/kaart}) when a second {@code /} comes before any {@code ?} or {@code #}; otherwise
     * {@code /} for a URL that starts with one, and the empty string for any other.
     */
    public static final String URL_HEAD = "^/[^/?#]*/";

    /** A cell not counted by URL. */
    public MinuteCell(long minute, int status, String botType, String crawler, String verification, long hits) {
        this(minute, status, botType, crawler, verification, null, null, hits, null);
    }

    /** A cell counted by URL, not by sitemap. */
    public MinuteCell(long minute, int status, String botType, String crawler, String verification, String host, String urlHead, long hits) {
        this(minute, status, botType, crawler, verification, host, urlHead, hits, null);
    }

    /** A cell counted by whether a sitemap lists its URL. */
    public static MinuteCell listed(long minute, int status, String botType, String crawler, String verification, boolean listed, long hits) {
        return new MinuteCell(minute, status, botType, crawler, verification, null, null, hits, listed);
    }
}
