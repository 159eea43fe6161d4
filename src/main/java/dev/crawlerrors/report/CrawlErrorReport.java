package dev.crawlerrors.report;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StoredHit;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** The Crawler Crawl Errors report over a store: pages of error hits, shown in one time zone. */
public final class CrawlErrorReport {

    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm");

    private final HitStore store;
    private final ZoneId zone;
    private final CrawlerCatalog catalog;

    /** The report over {@code store}, its {@code crawler} filter knowing the built-in catalog's names. */
    public CrawlErrorReport(HitStore store, ZoneId zone) {
        this(store, zone, null);
    }

    /** The report over {@code store}, its {@code crawler} filter knowing {@code catalog}'s names (null: the built-in catalog's). */
    public CrawlErrorReport(HitStore store, ZoneId zone, CrawlerCatalog catalog) {
        this.store = store;
        this.zone = zone;
        this.catalog = catalog;
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
     * @throws PageNotFoundException when the page is past the last
     */
    public ReportPage page(ReportRequest request) {
        long total = store.count(request.filter());
        int pages = Paging.pages(total);
        if (request.page() > pages) {
            throw new PageNotFoundException(request.page(), pages);
        }
        List<ReportRow> rows = store.page(request.filter(), Paging.offset(request.page()), Paging.PAGE_SIZE)
                .stream().map(this::row).toList();
        return new ReportPage(ReportPage.TITLE, total, request.page(), pages, Paging.PAGE_SIZE, zone.getId(), rows);
    }

    /** Every matching row, newest first, streamed. */
    public void forEachRow(HitFilter filter, Consumer<ReportRow> rows) {
        store.forEach(filter, hit -> rows.accept(row(hit)));
    }

    /** Whether anything at all has been recorded (an empty report says so). */
    public boolean hasRecords() {
        return store.size() > 0;
    }

    private ReportRow row(StoredHit hit) {
        String timestamp = MINUTE.format(Instant.ofEpochMilli(hit.epochMillis()).atZone(zone));
        return new ReportRow(timestamp, hit.ip(), hit.method(), hit.url(), hit.status(),
                ReportColumns.oneDecimal(hit.durationMs()), hit.botType(), hit.verification(), hit.crawler(),
                hit.reason(), hit.userAgent(), hit.host());
    }
}
