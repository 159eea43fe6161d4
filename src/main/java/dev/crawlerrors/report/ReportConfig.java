package dev.crawlerrors.report;

import dev.crawlerrors.crawler.CrawlerCatalog;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;

/**
 * How a {@link CrawlErrorReport} reads and shows its store: one record instead of a constructor per
 * combination, so a caller names only what differs from the defaults
 * ({@code ReportConfig.in(zone).withUrlNames(templates)}).
 *
 * @param zone        the time zone the report's times and minute buckets are shown in
 * @param catalog     the crawlers whose names the {@code crawler} filter knows (null: the built-in catalog's)
 * @param urlNames    the site's URL templates, such as {@code /{city}/{street}}, naming the patterns' placeholders
 * @param summaryWait how long the report page waits for its summary before it is shown without
 * @param indexBytes  the memory the report's read model may take ({@link ViewIndex})
 * @param uncountedFrom the hits a store holds from which a first page is not kept waiting for its
 *                    view's first count: it shows the newest rows and says the count goes on
 */
public record ReportConfig(ZoneId zone, CrawlerCatalog catalog, List<String> urlNames, Duration summaryWait, long indexBytes,
        long uncountedFrom) {

    /** How long the report page waits for its summary before it is shown without (the count goes on). */
    public static final Duration SUMMARY_WAIT = Duration.ofMillis(200);
    /** The views kept by default: some 90 views of a month of minutes each. */
    public static final long DEFAULT_INDEX_BYTES = 64L << 20;
    /** A store this large takes seconds to count (a smaller one is counted before its first page is shown). */
    public static final long UNCOUNTED_FROM = 1_000_000;

    public ReportConfig {
        urlNames = List.copyOf(urlNames);
    }

    /** The defaults, shown in {@code zone}: the built-in catalog, no URL templates. */
    public static ReportConfig in(ZoneId zone) {
        return new ReportConfig(zone, null, List.of(), SUMMARY_WAIT, DEFAULT_INDEX_BYTES, UNCOUNTED_FROM);
    }

    public ReportConfig withCatalog(CrawlerCatalog catalog) {
        return new ReportConfig(zone, catalog, urlNames, summaryWait, indexBytes, uncountedFrom);
    }

    public ReportConfig withUrlNames(List<String> urlNames) {
        return new ReportConfig(zone, catalog, urlNames, summaryWait, indexBytes, uncountedFrom);
    }

    public ReportConfig withSummaryWait(Duration summaryWait) {
        return new ReportConfig(zone, catalog, urlNames, summaryWait, indexBytes, uncountedFrom);
    }

    public ReportConfig withIndexBytes(long indexBytes) {
        return new ReportConfig(zone, catalog, urlNames, summaryWait, indexBytes, uncountedFrom);
    }

    public ReportConfig withUncountedFrom(long uncountedFrom) {
        return new ReportConfig(zone, catalog, urlNames, summaryWait, indexBytes, uncountedFrom);
    }
}
