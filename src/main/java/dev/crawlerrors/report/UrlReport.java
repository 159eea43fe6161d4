package dev.crawlerrors.report;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.UrlPage;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.store.UrlState;
import dev.crawlerrors.store.UrlStates;
import dev.crawlerrors.store.UrlStatesBehindException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The URLs page over the store's kept URL states: every URL the view's crawlers fetched, with its
 * state now, 100 a page, at a snapshot (so that paging neither repeats nor skips a URL while hits
 * arrive), in HTML, JSON and CSV; each URL's own page is {@code UrlPages}'.
 */
public final class UrlReport {

    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm");

    private final CrawlErrorReport report;
    private final HitReader hits;
    private final UrlStates urls;
    private final ZoneId zone;
    private final CrawlerCatalog catalog;

    /** The URLs page of {@code report}'s store, its crawler names and zone the report's. */
    public UrlReport(CrawlErrorReport report) {
        this.report = report;
        this.hits = report.reader();
        this.urls = hits.urlStates();
        this.zone = report.zone();
        this.catalog = report.catalog();
    }

    CrawlerCatalog catalog() {
        return catalog;
    }

    public ZoneId zone() {
        return zone;
    }

    /** Asks the store to bring the URLs' states up to its newest hits, in the background. */
    public void catchUp() {
        urls.catchUp();
    }

    UrlStates urls() {
        return urls;
    }


    /** A request's parameters, as the URLs page reads them. */
    public UrlRequest request(Map<String, List<String>> query) {
        return UrlParameters.parse(query, zone, catalog);
    }

    /**
     * One page of the URLs a request lists.
     *
     * @throws PageNotFoundException   when the page is past the last
     * @throws SnapshotGoneException   when the page's snapshot can no longer be answered
     * @throws StillCountingException  when the kept states are being brought up to a large import
     */
    public UrlListPage page(UrlRequest request) {
        Snapshot newest = hits.snapshot();
        Snapshot at = snapshot(request.report(), newest);
        UrlQuery query = query(request, at);
        UrlPage found = read(() -> urls.page(query, at, Paging.offset(request.report().page()), Paging.PAGE_SIZE));
        int pages = Paging.pages(found.total());
        if (request.report().page() > pages) {
            throw new PageNotFoundException(request.report().page(), pages);
        }
        List<UrlRow> rows = withSitemaps(found.rows().stream().map(this::row).toList(), report.sitemapsHeld());
        return new UrlListPage(UrlListPage.TITLE, found.total(), request.report().page(), pages, Paging.PAGE_SIZE, zone.getId(), at.token(),
                !at.equals(newest), rows);
    }

    /** Every URL a request lists, in its order, at its snapshot. */
    public void forEachRow(UrlRequest request, Consumer<UrlRow> rows) {
        forEachRow(request, report.sitemapsHeld(), rows);
    }

    /** Every URL a request lists, each saying whether a sitemap lists it when {@code held} (asked once by the CSV that wrote its header). */
    public void forEachRow(UrlRequest request, boolean held, Consumer<UrlRow> rows) {
        Snapshot at = snapshot(request.report(), hits.snapshot());
        UrlQuery query = query(request, at);
        List<UrlRow> slice = new java.util.ArrayList<>();
        read(() -> {
            // asked of the sitemaps a thousand rows at a time, not one question a row
            urls.forEach(query, at, state -> {
                slice.add(row(state));
                if (slice.size() == 1000) {
                    withSitemaps(slice, held).forEach(rows);
                    slice.clear();
                }
            });
            return null;
        });
        withSitemaps(slice, held).forEach(rows);
    }

    /** Whether the store holds a sitemap: then rows say whether one lists their URL, and the CSV has a column for it. */
    public boolean sitemapsHeld() {
        return report.sitemapsHeld();
    }

    /** {@code rows}, each saying whether a sitemap lists its URL, when {@code held}; asked of the store at once. */
    private List<UrlRow> withSitemaps(List<UrlRow> rows, boolean held) {
        if (!held || rows.isEmpty()) {
            return rows;
        }
        java.util.Set<dev.crawlerrors.sitemap.SitemapUrl> listed = hits.sitemaps().listed(rows.stream().map(UrlRow::sitemapKey).toList());
        return rows.stream().map(row -> row.inSitemap(listed.contains(row.sitemapKey()))).toList();
    }

    /** The store's question for a request at {@code at}: its filter with its pattern read into the paths it matches. */
    UrlQuery query(UrlRequest request, Snapshot at) {
        ReportRequest atSnapshot = new ReportRequest(request.report().filter(), 1, request.report().pattern(), null, at);
        HitFilter filter = report.filter(atSnapshot);
        return new UrlQuery(filter, request.states(), request.fixedOnly(), request.inconsistentOnly(), request.sort());
    }

    /** A read of the kept states, told to come back when they are being brought up to date. */
    static <T> T read(java.util.function.Supplier<T> read) {
        try {
            return read.get();
        } catch (UrlStatesBehindException e) {
            throw new StillCountingException("The URLs' states");
        }
    }

    /**
     * The snapshot a request is read at: the one its link carried, or the newest.
     *
     * @throws SnapshotGoneException when the store can no longer answer as of the one it carried
     */
    Snapshot snapshot(ReportRequest request, Snapshot newest) {
        Snapshot at = request.at();
        if (at == null) {
            return newest;
        }
        if (!hits.serves(at)) {
            throw new SnapshotGoneException(at.token());
        }
        return at;
    }

    /** The newest snapshot of the store. */
    Snapshot newest() {
        return hits.snapshot();
    }

    /** A time as the report shows it: local, to the minute; null for none. */
    String minute(long millis) {
        return millis == UrlState.NONE ? null : MINUTE.format(Instant.ofEpochMilli(millis).atZone(zone));
    }

    UrlRow row(UrlState state) {
        Map<String, Long> byClass = new LinkedHashMap<>();
        byClass.put("2xx", state.ok());
        byClass.put("304", state.notModified());
        byClass.put("redirect", state.redirects());
        byClass.put("4xx", state.clientErrors());
        byClass.put("5xx", state.serverErrors());
        return new UrlRow(state.url(), state.host().isEmpty() ? null : state.host(), state.state().name(), state.lastStatus(),
                minute(state.lastCrawled()), minute(state.firstCrawled()), state.hits(), state.errorHits(), minute(state.firstError()),
                state.hadError() ? state.firstErrorStatus() : null, minute(state.lastError()), state.hadError() ? state.lastErrorStatus() : null,
                state.fixed(), minute(state.fixedSince()), state.inconsistent(), state.flips(), byClass, null);
    }
}
