package dev.crawlerrors.store;

/**
 * A crawler hit as the store returns it, with its verdict as of now.
 *
 * @param id            the store's key; larger is later within one instant, the stable tie-break
 * @param epochMillis   when the request was made
 * @param offsetMinutes the UTC offset the log wrote the time with
 * @param durationMs    milliseconds, or null when the log carried none
 */
public record StoredHit(
        long id,
        long epochMillis,
        int offsetMinutes,
        String ip,
        String method,
        String url,
        int status,
        Double durationMs,
        String crawler,
        String botType,
        String verification,
        String reason,
        String userAgent,
        String host) {
}
