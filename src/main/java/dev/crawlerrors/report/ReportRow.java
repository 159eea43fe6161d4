package dev.crawlerrors.report;

import dev.crawlerrors.sitemap.SitemapUrl;

/**
 * One row of the report as it is shown: the spec's eight columns, then the evidence behind them.
 *
 * @param id                 the hit's id, the address of its own page ({@code /crawl-errors/hits/ID})
 * @param timestamp          {@code YYYY-MM-DDTHH:MM} in the display zone
 * @param durationMs         rounded to one decimal place, or null when the log carried no time
 * @param verificationReason the one-line evidence for {@code verification}
 * @param inSitemap          whether a sitemap lists its URL; null (left out of the JSON) when no sitemap is held
 */
public record ReportRow(
        long id,
        String timestamp,
        String ip,
        String method,
        String url,
        int status,
        Double durationMs,
        String botType,
        String verification,
        String crawler,
        String verificationReason,
        String userAgent,
        String host,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) Boolean inSitemap) {

    /** This row, saying whether a sitemap lists its URL. */
    public ReportRow inSitemap(boolean listed) {
        return new ReportRow(id, timestamp, ip, method, url, status, durationMs, botType, verification, crawler, verificationReason,
                userAgent, host, listed);
    }

    /** Its URL as a sitemap's would be matched: host (empty when the log has none) and target. */
    public SitemapUrl sitemapKey() {
        return new SitemapUrl(host == null ? "" : host, url);
    }
}
