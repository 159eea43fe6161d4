package dev.crawlerrors.store;

/**
 * Hits of one URL, status and bot type.
 *
 * @param firstMillis   the earliest of them (epoch milliseconds)
 * @param lastMillis    the latest
 * @param timedHits     those whose log recorded a duration
 * @param slowHits      those that took {@link DurationBuckets#SLOW_MS} or longer
 * @param location      where they were redirected, as the log recorded the Location header (one of them,
 *                      when they differ); null when the log records none
 * @param host          the virtual host the redirected ones asked (one of them, when they differ); null when the log
 *                      records none, or none was redirected to a recorded target
 */
public record UrlCount(String url, int status, String botType, long hits, long firstMillis, long lastMillis,
        long timedHits, long slowHits, String location, String host) {

    /** Hits whose log records no redirect target and no host. */
    public UrlCount(String url, int status, String botType, long hits, long firstMillis, long lastMillis, long timedHits, long slowHits) {
        this(url, status, botType, hits, firstMillis, lastMillis, timedHits, slowHits, null, null);
    }
}
