package dev.crawlerrors.report;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.Snapshot;

/**
 * What a report request asks for: which hits, which page of them, the URL pattern they must have
 * ({@code pattern}, as the patterns page writes it, which the report resolves into the filter), and
 * the snapshot the page belongs to ({@code at}; null for the newest).
 *
 * @param pattern  the pattern's text, or null
 * @param interval the overview's time buckets ({@code hour}, {@code day}), or null to choose by the range
 */
public record ReportRequest(HitFilter filter, int page, String pattern, String interval, Snapshot at) {

    public static final ReportRequest FIRST_PAGE = new ReportRequest(HitFilter.ERRORS, 1);

    public ReportRequest(HitFilter filter, int page) {
        this(filter, page, null, null, null);
    }

    public ReportRequest(HitFilter filter, int page, Snapshot at) {
        this(filter, page, null, null, at);
    }

    public ReportRequest(HitFilter filter, int page, String pattern, String interval) {
        this(filter, page, pattern, interval, null);
    }
}
