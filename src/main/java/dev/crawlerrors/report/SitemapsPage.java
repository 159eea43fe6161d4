package dev.crawlerrors.report;

import java.util.List;

/**
 * The sitemaps page, as its JSON returns it and its HTML shows it: each sitemap held with its URLs
 * by what the view's crawlers last got from them in the range asked; the sitemap URLs that no
 * verified {@code crawler} fetched in the {@code recentDays} to {@code recentTo}; and the URLs the
 * view's crawlers fetch most that no sitemap lists (crawl budget spent off the map).
 *
 * @param crawler            the crawler whose recent fetches {@code neverFetchedRecently} is about
 * @param recentFrom         the start of those days (local, to the minute), or null when nothing was crawled
 * @param recentTo           their end: the view's {@code to}, else its newest hit
 * @param neverFetchedRecent how many sitemap URLs {@code crawler} did not fetch then; {@code neverFetchedRecently} lists the first
 */
public record SitemapsPage(String title, String timeZone, String at, List<Sitemap> sitemaps, String crawler, int recentDays,
        String recentFrom, String recentTo, long neverFetchedRecent, List<ListedUrl> neverFetchedRecently, List<OffMapUrl> offMap) {

    public static final String TITLE = "Crawler Crawl Errors: sitemaps";

    /**
     * One sitemap held: its name as given, when its copy in use was read, how many URLs it lists, and
     * those by what the view's crawlers last got: 2xx/304, 3xx, 4xx/5xx, or nothing in the range.
     */
    public record Sitemap(String url, String readAt, long urls, long ok, long redirected, long broken, long neverFetched) {
    }

    /** A URL a sitemap lists: its host and target, what the view's crawlers last got (null state: never fetched). */
    public record ListedUrl(String url, String host, String state, Integer lastStatus, String lastCrawled) {
    }

    /** A URL no sitemap lists, with the view's hits to it in the range and what it answered last. */
    public record OffMapUrl(String url, String host, long hits, long errorHits, String state, int lastStatus) {
    }
}
