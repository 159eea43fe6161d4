package dev.crawlerrors.report;

import java.util.List;

/**
 * One page of the URLs page, as its JSON returns it and its HTML shows it.
 *
 * @param total    the URLs the view lists, in all pages
 * @param at       the snapshot the page belongs to (links to the other pages carry it)
 * @param newer    whether the store holds newer hits or verdicts than this snapshot
 */
public record UrlListPage(String title, long total, int page, int pages, int pageSize, String timeZone, String at, boolean newer,
        List<UrlRow> rows) {

    public static final String TITLE = "Crawler Crawl Errors: URLs";

    public boolean hasPrevious() {
        return page > 1;
    }

    public boolean hasNext() {
        return page < pages;
    }
}
