package dev.crawlerrors.report;

/**
 * One row of the report as it is shown: the spec's eight columns, then the evidence behind them.
 *
 * @param id                 the hit's id, the address of its own page ({@code /crawl-errors/hits/ID})
 * @param timestamp          {@code YYYY-MM-DDTHH:MM} in the display zone
 * @param durationMs         rounded to one decimal place, or null when the log carried no time
 * @param verificationReason the one-line evidence for {@code verification}
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
        String host) {
}
