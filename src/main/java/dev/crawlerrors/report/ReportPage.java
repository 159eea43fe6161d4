package dev.crawlerrors.report;

import java.util.List;

/**
 * One page of the report, as the JSON API returns it and the HTML page shows it.
 *
 * @param total    matching error hits in all pages
 * @param page     this page's number, from 1
 * @param pages    how many pages there are (at least 1)
 * @param timeZone the zone the timestamps are shown in
 */
public record ReportPage(
        String title,
        long total,
        int page,
        int pages,
        int pageSize,
        String timeZone,
        List<ReportRow> rows) {

    public static final String TITLE = "Crawler Crawl Errors";

    public boolean hasPrevious() {
        return page > 1;
    }

    public boolean hasNext() {
        return page < pages;
    }
}
