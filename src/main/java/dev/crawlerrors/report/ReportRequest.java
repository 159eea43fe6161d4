package dev.crawlerrors.report;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.Snapshot;

/**
 * What a report request asks for: which hits, which page of them, and the snapshot the page
 * belongs to ({@code at}; null for the newest).
 */
public record ReportRequest(HitFilter filter, int page, Snapshot at) {

    public static final ReportRequest FIRST_PAGE = new ReportRequest(HitFilter.ERRORS, 1, null);

    public ReportRequest(HitFilter filter, int page) {
        this(filter, page, null);
    }
}
