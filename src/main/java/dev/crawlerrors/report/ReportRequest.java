package dev.crawlerrors.report;

import dev.crawlerrors.store.HitFilter;

/** What a report request asks for: which hits, and which page of them. */
public record ReportRequest(HitFilter filter, int page) {

    public static final ReportRequest FIRST_PAGE = new ReportRequest(HitFilter.ERRORS, 1);
}
