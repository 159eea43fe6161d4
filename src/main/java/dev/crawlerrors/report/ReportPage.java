package dev.crawlerrors.report;

import java.util.List;

/**
 * One page of the report, as the JSON API returns it and the HTML page shows it.
 *
 * @param total    matching error hits in all pages
 * @param page     this page's number, from 1
 * @param pages    how many pages there are (at least 1)
 * @param timeZone the zone the timestamps are shown in
 * @param at       the snapshot the page belongs to: links to the other pages carry it, so they show
 *                 the same hits however many arrive meanwhile
 * @param newer    whether the store holds newer hits or verdicts than this snapshot
 */
public record ReportPage(
        String title,
        long total,
        int page,
        int pages,
        int pageSize,
        String timeZone,
        String at,
        boolean newer,
        List<ReportRow> rows) {

    public static final String TITLE = "Crawler Crawl Errors";

    public boolean hasPrevious() {
        return page > 1;
    }

    public boolean hasNext() {
        return page < pages;
    }
}
