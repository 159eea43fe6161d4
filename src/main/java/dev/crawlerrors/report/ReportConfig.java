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
 * @param rowsBytes   the memory the default view's rows held for its pages may take ({@link DefaultViewRows});
 *                    a view of more is read from the store; 0 holds none
 */
public record ReportConfig(ZoneId zone, CrawlerCatalog catalog, List<String> urlNames, Duration summaryWait, long indexBytes,
        long uncountedFrom, long rowsBytes) {

    /** How long the report page waits for its summary before it is shown without (the count goes on). */
    public static final Duration SUMMARY_WAIT = Duration.ofMillis(200);
    /** The views kept by default: some 90 views of a month of minutes each. */
    public static final long DEFAULT_INDEX_BYTES = 64L << 20;
    /** A store this large takes seconds to count (a smaller one is counted before its first page is shown). */
    public static final long UNCOUNTED_FROM = 1_000_000;

    /**
     * The default view's rows held by default: 320 MiB, what the copy of a 10M-hit store like the
     * benchmarks' takes while it is made (some 17 bytes a row held, 169 MB at 9,990,042 rows, with its
     * URL dictionary and the rows of each URL; more while the URLs are sorted), beside the 512 MiB
     * heap's other bounded parts (read model, count cubes, pages kept). A view larger than this is read
     * from the store as before (BENCHMARKS.md, heldrows).
     */
    public static final long DEFAULT_ROWS_BYTES = 320L << 20;

    /** As before the default view's rows were held: with the default bound for them. */
    public ReportConfig(ZoneId zone, CrawlerCatalog catalog, List<String> urlNames, Duration summaryWait, long indexBytes,
            long uncountedFrom) {
        this(zone, catalog, urlNames, summaryWait, indexBytes, uncountedFrom, DEFAULT_ROWS_BYTES);
    }

    public ReportConfig {
        urlNames = List.copyOf(urlNames);
    }

    /** The defaults, shown in {@code zone}: the built-in catalog, no URL templates. */
    public static ReportConfig in(ZoneId zone) {
        return new ReportConfig(zone, null, List.of(), SUMMARY_WAIT, DEFAULT_INDEX_BYTES, UNCOUNTED_FROM, DEFAULT_ROWS_BYTES);
    }

    public ReportConfig withCatalog(CrawlerCatalog catalog) {
        return new ReportConfig(zone, catalog, urlNames, summaryWait, indexBytes, uncountedFrom, rowsBytes);
    }

    public ReportConfig withUrlNames(List<String> urlNames) {
        return new ReportConfig(zone, catalog, urlNames, summaryWait, indexBytes, uncountedFrom, rowsBytes);
    }

    public ReportConfig withSummaryWait(Duration summaryWait) {
        return new ReportConfig(zone, catalog, urlNames, summaryWait, indexBytes, uncountedFrom, rowsBytes);
    }

    public ReportConfig withIndexBytes(long indexBytes) {
        return new ReportConfig(zone, catalog, urlNames, summaryWait, indexBytes, uncountedFrom, rowsBytes);
    }

    public ReportConfig withUncountedFrom(long uncountedFrom) {
        return new ReportConfig(zone, catalog, urlNames, summaryWait, indexBytes, uncountedFrom, rowsBytes);
    }

    public ReportConfig withRowsBytes(long rowsBytes) {
        return new ReportConfig(zone, catalog, urlNames, summaryWait, indexBytes, uncountedFrom, rowsBytes);
    }
}
