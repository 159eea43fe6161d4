package dev.crawlerrors.store;

/**
 * Hits of one URL, status and bot type.
 *
 * @param firstMillis   the earliest of them (epoch milliseconds)
 * @param lastMillis    the latest
 * @param timedHits     those whose log recorded a duration
 * @param slowHits      those that took {@link DurationBuckets#SLOW_MS} or longer
 */
public record UrlCount(String url, int status, String botType, long hits, long firstMillis, long lastMillis,
        long timedHits, long slowHits) {
}
