package dev.crawlerrors.report;

import dev.crawlerrors.report.pattern.ExploitProbes;

/**
 * One hit with everything known of it, for its own page: the row as the report shows it, and the
 * evidence behind its verdict.
 *
 * @param id    the hit's id in the store (the {@code id} of its page's address)
 * @param probe when its URL or user agent is an exploit probe's, what is said of it ({@link ExploitProbes}); null otherwise
 */
public record HitDetail(long id, ReportRow row, int utcOffsetMinutes, String probe) {
}
