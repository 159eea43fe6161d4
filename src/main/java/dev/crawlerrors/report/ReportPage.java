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
 * @param counting whether the view's hits are still being counted (a first page asked just after a
 *                 large store was opened): then {@code total} and {@code pages} say only how many
 *                 are known so far (this page's rows, and one more when another page follows)
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
        List<ReportRow> rows,
        boolean counting) {

    public static final String TITLE = "Crawler Crawl Errors";

    public boolean hasPrevious() {
        return page > 1;
    }

    public boolean hasNext() {
        return page < pages;
    }
}
