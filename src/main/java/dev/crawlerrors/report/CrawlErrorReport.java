package dev.crawlerrors.report;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoredHit;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The Crawler Crawl Errors report over a store: pages of error hits, shown in one time zone, each
 * read at a snapshot and found through the {@link ViewIndex} (page N is a time range and a small
 * skip within it, not an OFFSET over every row before it).
 */
public final class CrawlErrorReport {

    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm");
    /** The views kept by default: some 90 views of a month of minutes each. */
    public static final long DEFAULT_INDEX_BYTES = 64L << 20;

    private final HitReader store;
    private final ZoneId zone;
    private final ViewIndex index;
    private final CrawlerCatalog catalog;

    /** The report over {@code store}, its {@code crawler} filter knowing the built-in catalog's names. */
    public CrawlErrorReport(HitReader store, ZoneId zone) {
        this(store, zone, null, DEFAULT_INDEX_BYTES);
    }

    /** The report over {@code store}, its {@code crawler} filter knowing {@code catalog}'s names (null: the built-in catalog's). */
    public CrawlErrorReport(HitReader store, ZoneId zone, CrawlerCatalog catalog) {
        this(store, zone, catalog, DEFAULT_INDEX_BYTES);
    }

    public CrawlErrorReport(HitReader store, ZoneId zone, CrawlerCatalog catalog, long indexBytes) {
        this.store = store;
        this.zone = zone;
        this.catalog = catalog;
        this.index = new ViewIndex(store, indexBytes);
    }

    public ZoneId zone() {
        return zone;
    }

    /** A request's parameters read as this report reads them. */
    public ReportRequest request(Map<String, List<String>> query) {
        return catalog == null ? ReportParameters.parse(query, zone) : ReportParameters.parse(query, zone, catalog::knownName);
    }

    /**
     * One page of the report.
     *
     * @throws PageNotFoundException  when the page is past the last
     * @throws SnapshotGoneException  when the page's snapshot can no longer be answered
     */
    public ReportPage page(ReportRequest request) {
        Snapshot newest = store.snapshot();
        Snapshot at = snapshot(request, newest);
        HitFilter filter = request.filter();
        MinuteCounts counts = index.counts(filter, at);
        long total = counts.total();
        int pages = Paging.pages(total);
        if (request.page() > pages) {
            throw new PageNotFoundException(request.page(), pages);
        }
        MinuteCounts.Range range = counts.locate(Paging.offset(request.page()), Paging.PAGE_SIZE);
        List<ReportRow> rows = range == null ? List.of()
                : store.rows(filter, at, range.fromMillis(), range.toMillis(), range.skip(), Paging.PAGE_SIZE)
                        .stream().map(this::row).toList();
        return new ReportPage(ReportPage.TITLE, total, request.page(), pages, Paging.PAGE_SIZE, zone.getId(), at.token(),
                !at.equals(newest), rows);
    }

    /** Every matching row at the request's snapshot, newest first, streamed a time slice at a time. */
    public void forEachRow(ReportRequest request, Consumer<ReportRow> rows) {
        Snapshot at = snapshot(request, store.snapshot());
        store.forEach(request.filter(), at, index.counts(request.filter(), at), hit -> rows.accept(row(hit)));
    }

    /** Every matching row at the newest snapshot. */
    public void forEachRow(HitFilter filter, Consumer<ReportRow> rows) {
        forEachRow(new ReportRequest(filter, 1, null), rows);
    }

    /** Whether anything at all has been recorded (an empty report says so). */
    public boolean hasRecords() {
        return store.size() > 0;
    }

    /** The read model, for metrics. */
    public ViewIndex index() {
        return index;
    }

    private Snapshot snapshot(ReportRequest request, Snapshot newest) {
        Snapshot at = request.at();
        if (at == null) {
            return newest;
        }
        if (!store.serves(at)) {
            throw new SnapshotGoneException(at.token());
        }
        return at;
    }

    private ReportRow row(StoredHit hit) {
        String timestamp = MINUTE.format(Instant.ofEpochMilli(hit.epochMillis()).atZone(zone));
        return new ReportRow(timestamp, hit.ip(), hit.method(), hit.url(), hit.status(),
                ReportColumns.oneDecimal(hit.durationMs()), hit.botType(), hit.verification(), hit.crawler(),
                hit.reason(), hit.userAgent(), hit.host());
    }
}
