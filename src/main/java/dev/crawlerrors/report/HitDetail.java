package dev.crawlerrors.report;

/**
 * One hit with everything known of it, for its own page: the row as the report shows it, and the
 * evidence behind its verdict.
 *
 * @param id the hit's id in the store (the {@code id} of its page's address)
 */
public record HitDetail(long id, ReportRow row, int utcOffsetMinutes) {
}
