package dev.crawlerrors.ingest;

/**
 * One access-log request, as parsed: the fields every later stage needs.
 *
 * @param epochMillis   the request time as an instant
 * @param offsetMinutes the UTC offset the log wrote the time with, kept so the original wall time can be shown
 * @param ip            the client address as written (IPv4 or IPv6)
 * @param method        the HTTP method; empty when the request line had none
 * @param url           the request target as requested (path and query)
 * @param status        the response status
 * @param bytes         the response body size, or -1 when the log wrote '-'
 * @param referer       the Referer header, or null when the log wrote '-'
 * @param userAgent     the User-Agent header, or null when the log wrote '-'
 * @param durationMs    the request time in milliseconds, or NaN when the log carries none
 * @param host          the virtual host, or null when the format has none
 */
public record Hit(
        long epochMillis,
        int offsetMinutes,
        String ip,
        String method,
        String url,
        int status,
        long bytes,
        String referer,
        String userAgent,
        double durationMs,
        String host) {

    public boolean hasDuration() {
        return !Double.isNaN(durationMs);
    }
}
