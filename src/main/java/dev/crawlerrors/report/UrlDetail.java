package dev.crawlerrors.report;

import java.util.List;

/**
 * One URL's own page, as its JSON returns it and its HTML shows it: its state from the view's hits
 * ({@code state}, null when the view takes none of them), every hit of the view to it, newest first,
 * 100 a page, each marked where its answer changed from the hit before, and the crawlers that
 * fetched it.
 *
 * @param total        the view's hits to the URL, in all pages
 * @param spoofedHits  hits to it from addresses that only claimed a crawler, which the view leaves out
 */
public record UrlDetail(String url, String host, String timeZone, String at, UrlRow state, long total, int page, int pages, int pageSize,
        List<Hit> hits, List<Crawler> crawlers, long spoofedHits) {

    /**
     * One hit to the URL.
     *
     * @param changedFrom the status of the hit before it (older) when its answer's kind (ok, redirect, error) differs, else null
     */
    public record Hit(long id, String timestamp, int status, String state, Integer changedFrom, String crawler, String botType, String ip,
            String verification) {
    }

    /** One crawler's hits to the URL: how many, how many errors (4xx, 5xx), and its last one. */
    public record Crawler(String crawler, String botType, long hits, long errorHits, int lastStatus, String lastCrawled, String state) {
    }

    public boolean hasPrevious() {
        return page > 1;
    }

    public boolean hasNext() {
        return page < pages;
    }
}
