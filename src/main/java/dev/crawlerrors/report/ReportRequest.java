package dev.crawlerrors.report;

import dev.crawlerrors.store.HitFilter;

/**
 * What a report request asks for: which hits, which page of them, and the URL pattern they must
 * have ({@code pattern}, as the patterns page writes it), which the report resolves into the filter.
 *
 * @param pattern  the pattern's text, or null
 * @param interval the overview's time buckets ({@code hour}, {@code day}), or null to choose by the range
 */
public record ReportRequest(HitFilter filter, int page, String pattern, String interval) {

    public static final ReportRequest FIRST_PAGE = new ReportRequest(HitFilter.ERRORS, 1);

    public ReportRequest(HitFilter filter, int page) {
        this(filter, page, null, null);
    }
}
