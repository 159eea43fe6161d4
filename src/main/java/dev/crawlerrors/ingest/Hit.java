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
 * @param forwardedFor  what a proxy in front of the server said about the client, as the log
 *                      recorded it: the X-Forwarded-For list ({@code "66.249.66.1, 172.70.1.2"}),
 *                      or else the CF-Connecting-IP or True-Client-IP address; null when the format
 *                      records none or the line has none. Kept only for hits that may be crawlers
 *                      (the strings are built after the agent filter), so that a proxy's address
 *                      can be replaced by its client's ({@code --trusted-proxies})
 * @param location      where a redirect sent the client, as the log recorded the response's
 *                      Location header (nginx {@code $sent_http_location}, Apache {@code %{Location}o},
 *                      a JSON field); null when the format records none or the response had none
 * @param signed        the Web Bot Auth fields the line records (Signature, Signature-Input,
 *                      Signature-Agent), or null when it records none
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
        String host,
        String forwardedFor,
        String location,
        SignatureFields signed) {

    /** A hit whose log records no signature. */
    public Hit(long epochMillis, int offsetMinutes, String ip, String method, String url, int status, long bytes, String referer,
            String userAgent, double durationMs, String host, String forwardedFor, String location) {
        this(epochMillis, offsetMinutes, ip, method, url, status, bytes, referer, userAgent, durationMs, host, forwardedFor, location, null);
    }

    /** A signed hit whose log records no redirect target. */
    public Hit(long epochMillis, int offsetMinutes, String ip, String method, String url, int status, long bytes, String referer,
            String userAgent, double durationMs, String host, String forwardedFor, SignatureFields signed) {
        this(epochMillis, offsetMinutes, ip, method, url, status, bytes, referer, userAgent, durationMs, host, forwardedFor, null, signed);
    }

    /** A hit whose log records no redirect target and no signature. */
    public Hit(long epochMillis, int offsetMinutes, String ip, String method, String url, int status, long bytes, String referer,
            String userAgent, double durationMs, String host, String forwardedFor) {
        this(epochMillis, offsetMinutes, ip, method, url, status, bytes, referer, userAgent, durationMs, host, forwardedFor, null, null);
    }

    /** A hit whose log records no forwarded client, no redirect target and no signature. */
    public Hit(long epochMillis, int offsetMinutes, String ip, String method, String url, int status, long bytes, String referer,
            String userAgent, double durationMs, String host) {
        this(epochMillis, offsetMinutes, ip, method, url, status, bytes, referer, userAgent, durationMs, host, null, null, null);
    }

    /** This hit as made by {@code client}: the address behind the proxy that logged it. */
    public Hit madeBy(String client) {
        return new Hit(epochMillis, offsetMinutes, client, method, url, status, bytes, referer, userAgent, durationMs, host, forwardedFor,
                location, signed);
    }

    /** This hit on {@code siteHost} when its log records no host ({@code --host}); else this hit. */
    public Hit onHost(String siteHost) {
        if (siteHost == null || (host != null && !host.isEmpty())) {
            return this;
        }
        return new Hit(epochMillis, offsetMinutes, ip, method, url, status, bytes, referer, userAgent, durationMs, siteHost, forwardedFor,
                location, signed);
    }

    /**
     * This hit without its Web Bot Auth fields: for a signed hit whose signature is kept apart
     * (pending, to be checked later), so the hundreds of bytes its fields hold are not kept with
     * it while it waits for the store; this hit when it has none.
     */
    public Hit withoutSignature() {
        if (signed == null) {
            return this;
        }
        return new Hit(epochMillis, offsetMinutes, ip, method, url, status, bytes, referer, userAgent, durationMs, host, forwardedFor,
                location, null);
    }

    public boolean hasDuration() {
        return !Double.isNaN(durationMs);
    }
}
