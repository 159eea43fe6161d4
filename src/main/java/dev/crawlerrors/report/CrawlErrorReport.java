package dev.crawlerrors.report;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.report.pattern.ExploitProbes;
import dev.crawlerrors.report.pattern.PatternReport;
import dev.crawlerrors.report.pattern.PatternText;
import dev.crawlerrors.report.pattern.PlaceholderNames;
import dev.crawlerrors.report.pattern.UrlShapes;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.UrlPattern;
import dev.crawlerrors.text.KeptOnce;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The Crawler Crawl Errors report over a store: pages of error hits, shown in one time zone, each
 * read at a snapshot and found through the {@link ViewIndex} (page N is a time range and a small
 * skip within it, not an OFFSET over every row before it); and the analysis around them (URL
 * patterns, the overview, the summary above the table), whose counts are taken at a snapshot too,
 * kept per filter and brought up to date as hits arrive ({@link KeptCounts}).
 */
public final class CrawlErrorReport {

    /** How long the patterns and overview pages wait for figures counted for the first time. */
    static final Duration ANALYSIS_WAIT = Duration.ofSeconds(30);
    /** How long a first page of a large store waits for its view's first count before it is shown without. */
    static final Duration FIRST_PAGE_WAIT = Duration.ofMillis(300);
    /** Filters whose counts are kept; their memory is bounded each (see UrlShapes, ErrorCounts). */
    private static final int KEPT_FILTERS = 16;
    private static final int KEPT_SHAPES = 8;

    private final HitReader store;
    private final ViewIndex index;
    private final KeptCubes cube;
    private final CrawlerCatalog catalog;
    private final ZoneId zone;
    private final MinuteStamps minutes;
    private final PlaceholderNames names;
    private final Duration summaryWait;
    private final long bucketMillis;
    private final long uncountedFrom;
    private final NewestRows newestRows;
    private final KeptPageRows pageRows;
    private final DefaultViewRows defaultRows;
    private final KeptCounts<ErrorCounts> counts;
    private final KeptCounts<UrlShapes> shapes;
    /** The version of the sitemaps the kept counts of views by sitemap were last asked under ({@link #forgetCountsOfOlderSitemaps}). */
    private final java.util.concurrent.atomic.AtomicReference<String> countedUnderSitemaps = new java.util.concurrent.atomic.AtomicReference<>();

    /**
     * The report over {@code store}, read and shown as {@code config} says; its read model (the
     * views of {@link ViewIndex}) may take {@code config.indexBytes()}, and each of its two count
     * cubes ({@link KeptCubes}) and its pages' rows ({@link KeptPageRows}) as much again; the default
     * view's rows held in memory ({@link DefaultViewRows}) may take {@code config.rowsBytes()}.
     *
     * @throws IllegalArgumentException saying which URL template is not one
     */
    public CrawlErrorReport(HitReader store, ReportConfig config) {
        this.store = store;
        this.catalog = config.catalog();
        this.cube = new KeptCubes(store, config.indexBytes());
        this.index = new ViewIndex(store, config.indexBytes(), cube.each());
        this.zone = config.zone();
        this.minutes = new MinuteStamps(zone);
        this.names = PlaceholderNames.of(config.urlNames());
        this.summaryWait = config.summaryWait();
        this.bucketMillis = bucketMillis(config.zone());
        this.uncountedFrom = config.uncountedFrom();
        this.newestRows = new NewestRows(store);
        this.pageRows = new KeptPageRows(store, config.indexBytes());
        this.defaultRows = new DefaultViewRows(store, store.defaultRowsHeld() ? config.rowsBytes() : 0, cube.counter(), index::sitemapsVersion);
        this.index.countHeld(this::heldCounts);
        this.counts = new KeptCounts<>(store, ErrorCounts.counting(store, bucketMillis(config.zone())), KEPT_FILTERS, "report-counts");
        this.shapes = new KeptCounts<>(store, new KeptCounts.Counting<>() {
            @Override
            public UrlShapes start() {
                return new UrlShapes();
            }

            @Override
            public void count(UrlShapes state, HitFilter filter, HitWindow window) {
                store.forEachUrl(filter, window, state::add);
            }
        }, KEPT_SHAPES, "report-patterns");
    }

    /**
     * Checks the site's URL templates as the report reads them.
     *
     * @throws IllegalArgumentException saying which template is not one
     */
    public static void checkUrlNames(List<String> urlNames) {
        PlaceholderNames.of(urlNames);
    }

    public ZoneId zone() {
        return zone;
    }

    /** The store's reader this report asks. */
    HitReader reader() {
        return store;
    }

    /** The crawlers whose names the {@code crawler} filter knows. */
    CrawlerCatalog catalog() {
        return catalog == null ? CrawlerCatalog.builtIn() : catalog;
    }

    /** A request's parameters read as this report reads them. */
    public ReportRequest request(Map<String, List<String>> query) {
        return request(query, ReportParameters.REPORT);
    }

    /** A request's parameters read as this report reads them, for a page that takes {@code accepted}. */
    public ReportRequest request(Map<String, List<String>> query, java.util.Set<String> accepted) {
        return catalog == null ? ReportParameters.parse(query, zone, accepted) : ReportParameters.parse(query, zone, accepted, catalog);
    }

    /**
     * One page of the report. The first page of a store of {@link ReportConfig#uncountedFrom} hits or
     * more is not kept waiting past {@link #FIRST_PAGE_WAIT} for its view's first count: it shows the
     * newest rows and says the count goes on ({@link ReportPage#counting()}).
     *
     * @throws PageNotFoundException  when the page is past the last
     * @throws SnapshotGoneException  when the page's snapshot can no longer be answered
     */
    public ReportPage page(ReportRequest request) {
        Snapshot newest = store.snapshot();
        Snapshot at = snapshot(request, newest);
        HitFilter filter = filter(request, at);
        // the first page of a large store is not kept waiting for its view's count; nor are an in_sitemap= view's first pages
        // after it (counted from the cube by sitemap, seconds after serve starts, or by the store before that is queued)
        boolean quick = at.hits() >= uncountedFrom && (request.page() == 1 || request.page() <= UNCOUNTED_PAGES && filter.inSitemap() != null);
        // a view whose count waits for a cube still being counted is not done within the wait: not waited for
        Duration wait = !quick ? null : index.awaitsCube(filter) ? Duration.ZERO : FIRST_PAGE_WAIT;
        MinuteCounts counts = index.counts(filter, at, wait).orElse(null);
        if (counts == null) {
            return uncounted(filter, at, newest, request.page());
        }
        long total = counts.total();
        int pages = Paging.pages(total);
        if (request.page() > pages) {
            throw new PageNotFoundException(request.page(), pages);
        }
        HitFilter view = defaultRows.heldAt() == null || HitFilter.ERRORS.equals(filter) ? null : heldView(filter, at, false);
        // a view the held rows answer has the same rows as the one asked, so the same counts
        List<StoredHit> hits = defaultRows.page(view == null ? filter : view, at, counts, request.page(), at.equals(newest));
        if (hits == null) {
            hits = pageRows.page(filter, at, counts, request.page());
        }
        List<ReportRow> rows = hits.stream().map(this::row).toList();
        rows = withSitemaps(rows, sitemapsHeld());
        return new ReportPage(ReportPage.TITLE, total, request.page(), pages, Paging.PAGE_SIZE, zone.getId(), at.token(),
                !at.equals(newest), rows, false);
    }

    /**
     * {@code filter}'s view as a part of the default view's rows held in memory ({@link DefaultViewRows}), or
     * null when it is not one: the filter itself when it is; for named crawlers of any bot type, the same view of
     * the types shown by default when those crawlers have no hit of another type (or none) at {@code at} under the
     * filter's statuses and verdicts, which the count cubes say (views of the crawlers alone, over all time).
     */
    private HitFilter heldView(HitFilter filter, Snapshot at, boolean counting) {
        if (DefaultViewRows.partOfHeld(filter)) {
            return filter;
        }
        boolean narrower = filter.urlPrefix() != null || filter.host() != null || filter.from() != null || filter.to() != null;
        if (filter.crawlers().isEmpty() || !filter.botTypes().isEmpty() || (counting && !narrower) || !at.equals(defaultRows.heldAt())) {
            return null; // the crawlers' view over all time is the cubes' to count (the check below asks it), not this one's
        }
        java.util.Set<dev.crawlerrors.crawler.BotType> shownTypes = dev.crawlerrors.crawler.BotType.shownByDefaultTypes();
        HitFilter shown = new HitFilter(filter.statuses(), shownTypes, filter.verifications(), filter.from(), filter.to(), filter.urlPrefix(),
                filter.host(), filter.crawlers(), filter.urlPattern(), filter.inSitemap());
        if (!DefaultViewRows.partOfHeld(shown)) {
            return null;
        }
        HitFilter all = new HitFilter(filter.statuses(), java.util.Set.of(), filter.verifications(), null, null, null, null, filter.crawlers());
        HitFilter allShown = new HitFilter(filter.statuses(), shownTypes, filter.verifications(), null, null, null, null, filter.crawlers());
        return index.counts(all, at).total() == index.counts(allShown, at).total() ? shown : null;
    }

    /** The minute counts of {@code filter}'s view from the rows held in memory, or null when they cannot say them. */
    private MinuteCounts heldCounts(HitFilter filter, Snapshot at) {
        HitFilter view = defaultRows.heldAt() == null ? null : heldView(filter, at, true);
        return view == null ? null : defaultRows.minuteCounts(view, at);
    }

    /**
     * The pages of an {@code in_sitemap=} view not yet counted shown from its newest rows (the first {@value} pages; past
     * them a page waits for the count).
     */
    static final int UNCOUNTED_PAGES = 10;

    /**
     * A page of a view still being counted (the first, or one of an {@code in_sitemap=} view's first {@link #UNCOUNTED_PAGES}):
     * its newest rows up to the page's last, one more read to know whether a page follows.
     *
     * @throws PageNotFoundException when the view has no row of the page
     */
    private ReportPage uncounted(HitFilter filter, Snapshot at, Snapshot newest, int page) {
        int skip = (page - 1) * Paging.PAGE_SIZE;
        List<StoredHit> found = newestRows.read(filter, at, sitemapsVersion(), skip + Paging.PAGE_SIZE + 1);
        if (page > 1 && found.size() <= skip) {
            throw new PageNotFoundException(page, Paging.pages(found.size()));
        }
        List<ReportRow> rows = found.stream().skip(skip).limit(Paging.PAGE_SIZE).map(this::row).toList();
        rows = withSitemaps(rows, sitemapsHeld());
        return new ReportPage(ReportPage.TITLE, found.size(), page, found.size() > skip + Paging.PAGE_SIZE ? page + 1 : page,
                Paging.PAGE_SIZE, zone.getId(), at.token(), !at.equals(newest), rows, true);
    }

    /**
     * Counts the default view, then what its first page, patterns and overview show, on the caller's
     * thread: serve's warm-up, so that the first reader finds them counted (a first page asked meanwhile
     * is shown without its count rather than wait for it). The patterns and overview are counted after
     * the first page's count, so they do not share the cores with it; so is {@code afterFirstPage} (run
     * even when the count fails), what else serve reads of the whole store when it starts.
     */
    public void warmUp(Runnable afterFirstPage) {
        try {
            index.counts(HitFilter.ERRORS, store.snapshot());
            page(ReportRequest.FIRST_PAGE);
            readFirstSitemapRows();
        } finally {
            afterFirstPage.run();
        }
        startCounting();
    }

    /**
     * When a sitemap is held, the newest rows of the first pages of {@code in_sitemap=yes} and {@code =no}, read
     * before what serve reads of the whole store at its start takes the store's readers: such a page asked before
     * its view is counted (the cube by sitemap takes seconds at 10,000,000 hits, and the view waits for it) shows
     * these rows ({@link #uncounted}, kept by {@link NewestRows}) instead of waiting for a reader of the store
     * that the counts of the start free only as each ends (5-8 s at a load of 16-25, 10M hits).
     */
    private void readFirstSitemapRows() {
        try {
            if (!sitemapsHeld()) {
                return;
            }
            String version = sitemapsVersion();
            Snapshot at = store.snapshot();
            for (String listed : List.of("yes", "no")) {
                // the rows of its first pages shown uncounted ({@link #UNCOUNTED_PAGES}), one read
                newestRows.read(filter(request(Map.of("in_sitemap", List.of(listed))), at), at, version, UNCOUNTED_PAGES * Paging.PAGE_SIZE + 1);
            }
        } catch (RuntimeException e) {
            // the first such reader reads them: nothing of the warm-up depends on them
        }
    }

    /**
     * Whether the summary above {@code request}'s page is counted at the newest snapshot, waiting up to {@code wait}
     * for its count (started now if it is not): serve's warm-up asks it of the first page before rendering it.
     */
    public boolean summaryCounted(ReportRequest request, Duration wait) {
        return overview(request, wait).isPresent();
    }

    /**
     * Whether {@code request}'s view is counted at its snapshot now (not waiting, a count not started is started): then its
     * first page is no longer shown uncounted, and a kept page shown so is let go.
     */
    public boolean counted(ReportRequest request) {
        Snapshot at = snapshot(request, store.snapshot());
        return index.counts(filter(request, at), at, Duration.ZERO).isPresent();
    }

    /**
     * Starts counting the default view in the background and returns: serve begins it beside its
     * server's start, so that the first page's bounded wait for it ({@link #FIRST_PAGE_WAIT}, which
     * runs from the count's start) has passed by the time the first reader asks; {@link #warmUp}
     * then joins it.
     */
    public void startFirstCount() {
        index.counts(HitFilter.ERRORS, store.snapshot(), Duration.ZERO);
    }

    /** Every matching row at the request's snapshot, newest first, streamed a time slice at a time. */
    public void forEachRow(ReportRequest request, Consumer<ReportRow> rows) {
        forEachRow(request, sitemapsHeld(), rows);
    }

    /**
     * Every matching row, each saying whether a sitemap lists it when {@code held}: asked once by the
     * caller that wrote a CSV's header, so that a sitemap read mid-response changes no row's columns.
     */
    public void forEachRow(ReportRequest request, boolean held, Consumer<ReportRow> rows) {
        Snapshot at = snapshot(request, store.snapshot());
        HitFilter filter = filter(request, at);
        List<ReportRow> batch = new java.util.ArrayList<>(SITEMAP_BATCH);
        store.forEach(filter, at, index.counts(filter, at), hit -> {
            batch.add(row(hit));
            if (batch.size() == SITEMAP_BATCH) {
                withSitemaps(batch, held).forEach(rows);
                batch.clear();
            }
        });
        withSitemaps(batch, held).forEach(rows);
    }

    /** Rows streamed are asked of the sitemaps this many at a time. */
    private static final int SITEMAP_BATCH = 1_000;

    /** Every matching row at the newest snapshot. */
    public void forEachRow(HitFilter filter, Consumer<ReportRow> rows) {
        forEachRow(new ReportRequest(filter, 1, null), rows);
    }

    /** The store's newest snapshot: what a request without {@code at} is read at. */
    public Snapshot newest() {
        return store.snapshot();
    }

    /**
     * The store's newest snapshot as committed, without committing what was appended since ({@link HitReader#committed}):
     * what serve watches, every few milliseconds, to render the first page of each new snapshot before a reader asks.
     */
    public Snapshot committed() {
        return store.committed();
    }

    /** The bytes the count cube takes (0 until counted, or past its bound), for metrics. */
    public long cubeBytes() {
        return cube.footprint().get(1);
    }

    /** The bytes of the pages' rows kept packed ({@link KeptPageRows}), for metrics. */
    public long pageRowsBytes() {
        return pageRows.footprint()[1];
    }

    /** The bytes of the default view's rows held in memory ({@link DefaultViewRows}; 0 while none is), for metrics. */
    public long defaultRowsBytes() {
        return defaultRows.bytes();
    }

    /** Pages of filtered views read from lists of the held rows (a deep prefix's URLs, a rare kind's rows), for metrics and tests. */
    public long defaultRowsListedPages() {
        return defaultRows.listedPages();
    }

    /** How long the last copy of the default view's rows took to make, in seconds (0 before the first), for metrics. */
    public double defaultRowsCopySeconds() {
        return defaultRows.lastCopyNanos() / 1e9;
    }

    /** The snapshot whose default view's rows are held in memory, or null while none is, for tests. */
    public Snapshot defaultRowsAt() {
        return defaultRows.heldAt();
    }

    /** The version of the sitemaps under which the held rows say which of them a sitemap lists, or null; for tests. */
    public String defaultRowsListedUnder() {
        return defaultRows.listedVersion();
    }

    /** The read model, for metrics. */
    public ViewIndex index() {
        return index;
    }

    /**
     * One hit by its number, whatever its status or verdict, with its verdict as of the request's
     * snapshot (the newest without one); empty when the snapshot does not hold it.
     *
     * @throws SnapshotGoneException when the snapshot can no longer be answered
     */
    public Optional<HitDetail> hit(long id, Snapshot requested) {
        Snapshot at = requested == null ? store.snapshot() : snapshot(new ReportRequest(HitFilter.ERRORS, 1, requested), null);
        boolean held = sitemapsHeld();
        return store.hit(id, at).map(hit -> new HitDetail(hit.id(), withSitemaps(List.of(row(hit)), held).get(0), hit.offsetMinutes(),
                ExploitProbes.of(hit.url(), hit.userAgent()).map(ExploitProbes::diagnosis).orElse(null)));
    }

    /** One hit by its number at the newest snapshot. */
    public Optional<HitDetail> hit(long id) {
        return hit(id, null);
    }

    /**
     * The overview of what a request's filter shows, for the overview page.
     *
     * @throws StillCountingException when its counts are made for the first time and take long
     */
    public Overview overview(ReportRequest request) {
        return overview(request, ANALYSIS_WAIT).orElseThrow(() -> new StillCountingException("The overview's figures"));
    }

    /**
     * The summary above a page of the report (an overview of its filter), if it is counted within
     * the report's wait, at the page's snapshot: its figures add up to the page's total (unless they
     * are kept from a later request, which their {@code at} then says).
     */
    public Optional<Overview> summary(ReportRequest request, ReportPage page) {
        Snapshot at = Snapshot.parse(page.at());
        Overview held = keptSummary(request, at);
        if (held != null) {
            return Optional.of(held);
        }
        return overview(new ReportRequest(request.filter(), request.page(), request.pattern(), request.interval(), at), summaryWait);
    }

    /** How many summaries made from the cubes and held rows are kept ({@link #keptSummary}): a few views' pages read at once. */
    static final int KEPT_SUMMARIES = 16;

    private record SummaryKey(HitFilter filter, String interval, Snapshot at, String sitemaps) {
    }

    /** The last {@value #KEPT_SUMMARIES} summaries {@link #heldSummary} made or is making, by view, snapshot and sitemaps' read. */
    private final KeptOnce<SummaryKey, Overview> keptSummaries = new KeptOnce<>(KEPT_SUMMARIES);

    /**
     * {@link #heldSummary}, kept for the view, snapshot and sitemaps' read it was made for: every page of a view shows the
     * same summary, whose count of the view's other hits by time is a store read (0.5-2 s of a core at 10M hits, more with
     * {@code in_sitemap=}, which the store tests per hit), so the pages after the first of a view are not made to read it
     * again, and readers of a fresh page asking while it is made wait for that one count. A snapshot's hits and verdicts
     * do not change, and a sitemap read again is another key.
     */
    private Overview keptSummary(ReportRequest request, Snapshot at) {
        if (request.pattern() != null) {
            return null;
        }
        SummaryKey key = new SummaryKey(request.filter(), request.interval(), at, request.filter().inSitemap() == null ? "" : sitemapsVersion());
        // not a held view (null): each reader counts it the other way, as before
        return keptSummaries.get(key, () -> heldSummary(request, at), made -> made != null);
    }

    /**
     * Most held rows a summary is counted from (some 20-40 ms of a core): a view of more (the default view, a status
     * over months) is counted once from the store and kept up to date ({@link KeptCounts}), as before. Also the most
     * count cube cells one is summed from ({@link ViewIndex#errorCounts}: a cell is a minute of a combination of
     * status, type, crawler, verdict and URL head, one or more hits).
     */
    static final long SUMMARY_ROWS = 1 << 20;
    /** Statuses other than errors: the rest of the error rate's denominator. */
    private static final dev.crawlerrors.store.StatusRange NOT_ERRORS = new dev.crawlerrors.store.StatusRange(0,
            dev.crawlerrors.store.StatusRange.ERRORS.low() - 1);

    /**
     * The summary of {@code request}'s view at {@code at} from the count cubes where they answer the view
     * ({@link ViewIndex#errorCounts}: statuses, bot types, crawlers, verdicts, whole minutes, a host and the URL prefixes
     * their heads decide; without durations, which the page does not show), else from the rows held in memory
     * ({@link DefaultViewRows}: the default view's and its spoofed error rows), and the store's count of its other hits by time (the error rate's
     * denominator: one count of hits no held row is, not asked when the count cubes say there are none), as
     * {@link ErrorCounts} counts the store; null when the held
     * rows are not of {@code at} or do not hold the view's error hits of every verdict (and no cube answers). A filtered view never asked
     * before is then not counted three times from the store (60-90 ms on 10M error hits) for the page above its rows.
     */
    private Overview heldSummary(ReportRequest request, Snapshot at) {
        if (request.pattern() != null) {
            return null;
        }
        HitFilter filter = request.filter();
        // summed from the count cube where it answers the view (its cells, not the 100,000s of rows of a day's view)
        ErrorCounts counts = index.errorCounts(filter, at, bucketMillis, SUMMARY_ROWS);
        if (counts == null && at.equals(defaultRows.heldAt())) {
            counts = defaultRows.errorCounts(filter, at, bucketMillis, SUMMARY_ROWS);
        }
        if (counts == null) {
            return null;
        }
        // the view's other hits: none when the count cubes have none of its types and crawlers over all time, else the store's
        HitFilter others = ErrorCounts.key(filter).withStatuses(List.of(NOT_ERRORS));
        HitFilter anyOthers = new HitFilter(others.statuses(), others.botTypes(), others.verifications(), null, null, null, null, others.crawlers());
        if (index.counts(anyOthers, at).total() != 0) { // summed from the cube (counted before the rows were copied)
            for (dev.crawlerrors.store.TimeCount row : store.countByTime(others, HitWindow.at(at), bucketMillis)) {
                counts.byTime.merge(new ErrorCounts.TimeKey(row.bucketStartMillis(), row.status(), row.verification()), row.hits(), Long::sum);
            }
        }
        return new OverviewReading(filter, zone).read(counts, request.interval()).counted(at.token(), false);
    }

    private Optional<Overview> overview(ReportRequest request, Duration wait) {
        Snapshot at = snapshot(request, store.snapshot());
        HitFilter filter = filter(request, at);
        forgetCountsOfOlderSitemaps(filter);
        OverviewReading reading = new OverviewReading(filter, zone);
        // read under the counts' lock (new hits are added to them in place), and kept until they change
        List<Object> view = List.of(filter.effectiveVerifications(), String.valueOf(request.interval()));
        return counts.read(ErrorCounts.key(filter), at, wait, view, kept -> reading.read(kept, request.interval()))
                .map(counted -> counted.value().counted(counted.at().token(), counted.recounting()));
    }

    /**
     * Drops the kept counts of views that ask whether a sitemap lists their hits when the sitemaps were read
     * again since they were counted ({@link #sitemapsVersion}): a read makes no new snapshot, so the kept counts
     * of those views would say what the sitemaps listed before.
     */
    private void forgetCountsOfOlderSitemaps(HitFilter filter) {
        if (filter.inSitemap() == null) {
            return;
        }
        String version = sitemapsVersion();
        String before = countedUnderSitemaps.getAndSet(version);
        if (before != null && !before.equals(version)) {
            counts.forget(kept -> kept.inSitemap() != null);
            shapes.forget(kept -> kept.inSitemap() != null);
        }
    }

    /**
     * The URL patterns of what a request's filter shows.
     *
     * @throws StillCountingException when they are found for the first time and take long
     */
    public PatternReport patterns(ReportRequest request) {
        return patternsAt(request).value();
    }

    /**
     * The URL patterns of what a request's filter shows, and the snapshot they were counted at (the
     * request's, or a newer one when the patterns are kept from a later request): their links carry it.
     *
     * @throws StillCountingException when they are found for the first time and take long
     */
    public CountedAt<PatternReport> patternsAt(ReportRequest request) {
        Snapshot at = snapshot(request, store.snapshot());
        KeptCounts.Counted<PatternReport> counted = patterns(filter(request, at), at);
        return new CountedAt<>(counted.value(), counted.at().token());
    }

    private KeptCounts.Counted<PatternReport> patterns(HitFilter filter, Snapshot at) {
        forgetCountsOfOlderSitemaps(filter);
        return shapes.read(filter, at, ANALYSIS_WAIT, "report", found -> found.report(zone, names))
                .orElseThrow(() -> new StillCountingException("The URL patterns"));
    }

    /**
     * Starts counting the count cube that filtered views are summed from, and what the default
     * view's patterns and overview are read from, in the background, so that their first request
     * finds them counted (on a large store the first count takes seconds; later ones add only the
     * hits stored since); then copies the default view's rows into memory for its pages
     * ({@link DefaultViewRows}), after the cubes, and again as the newest snapshot moves.
     */
    public void startCounting() {
        cube.start();
        HitFilter filter = HitFilter.ERRORS;
        Snapshot at = store.snapshot();
        defaultRows.start(at, index.counts(filter, at, Duration.ZERO).orElse(null)); // queued behind the cubes
        counts.read(ErrorCounts.key(filter), at, Duration.ZERO, "start", kept -> Boolean.TRUE);
        shapes.read(filter, at, Duration.ZERO, "start", found -> Boolean.TRUE);
        countSitemapPatterns(at);
    }

    /**
     * When a sitemap is held, counts the patterns of the {@code in_sitemap=yes} and {@code =no} views after the default
     * view's, on the same thread: their first Patterns page then walks the URLs' states only, as the default view's does.
     * Counted at their first ask instead, at 10,000,000 hits they took 1.6-2x the unfiltered page's first ask.
     */
    private void countSitemapPatterns(Snapshot at) {
        if (!sitemapsHeld()) {
            return;
        }
        for (String listed : List.of("yes", "no")) {
            HitFilter view = filter(request(Map.of("in_sitemap", List.of(listed)), ReportParameters.PATTERNS), at);
            forgetCountsOfOlderSitemaps(view);
            shapes.read(view, at, Duration.ZERO, "start", found -> Boolean.TRUE);
        }
    }

    /**
     * Says that sitemaps were read: the cube by sitemap is counted again now if the reads changed
     * since it was counted, so the next {@code in_sitemap} view finds it counted.
     */
    public void sitemapsRead() {
        cube.sitemapsRead();
    }

    /** Stops counting, after the count that is running, if any: call it before the store closes. */
    public void close() {
        defaultRows.close();
        index.close();
        cube.close();
        counts.close();
        shapes.close();
    }

    /** A request's filter with its {@code pattern} read into the paths it matches, as the patterns at its snapshot have it. */
    /**
     * Whether {@code request}'s page is one of the default view's rows held in memory (its snapshot's
     * rows copied, {@link DefaultViewRows}): such a page costs less to make again than to keep, so
     * the server keeps only its first page rendered. A guess made beside the page, not with it: a
     * copy that moves meanwhile only changes what is kept.
     */
    public boolean pageOfHeldRows(ReportRequest request) {
        Snapshot held = defaultRows.heldAt();
        return held != null && request.pattern() == null && HitFilter.ERRORS.equals(request.filter())
                && (request.at() == null ? held.equals(store.snapshot()) : held.equals(request.at()));
    }

    /**
     * Whether {@code request}'s page is one of a filtered view whose rows the held rows answer at the snapshot they hold
     * (statuses, verdicts, shown bot types, crawlers, a host, a URL prefix and times; not whether a sitemap lists them):
     * made again from memory in about a millisecond, its counts kept ({@link ViewIndex}) or summed from the cubes.
     */
    public boolean filteredPageOfHeldRows(ReportRequest request) {
        Snapshot held = defaultRows.heldAt();
        HitFilter filter = request.filter();
        return held != null && request.pattern() == null && !HitFilter.ERRORS.equals(filter) && filter.inSitemap() == null
                && DefaultViewRows.partOfHeld(filter) && (request.at() == null ? held.equals(store.snapshot()) : held.equals(request.at()));
    }

    public HitFilter filter(ReportRequest request) {
        return filter(request, snapshot(request, store.snapshot()));
    }

    private HitFilter filter(ReportRequest request, Snapshot at) {
        if (request.pattern() == null) {
            return request.filter();
        }
        return request.filter().withUrlPattern(matcher(request.filter(), at, request.pattern()));
    }

    /**
     * The snapshot a request is read at: the one its link carried, or the newest.
     *
     * @throws SnapshotGoneException when the store can no longer answer as of the one it carried
     */
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

    /**
     * What a pattern's text matches: as the patterns found for the same filter have it (a placeholder
     * leaves out the words that have patterns of their own), else as it is written.
     */
    private UrlPattern matcher(HitFilter filter, Snapshot at, String text) {
        Optional<UrlPattern> found = patterns(filter, at).value().matcher(text);
        if (found.isPresent()) {
            return found.get();
        }
        if (!text.startsWith("/")) {
            return new UrlPattern(false, List.of(UrlPattern.Segment.literal(text)), false);
        }
        return PatternText.structural(text);
    }

    /**
     * The time buckets counts are kept in: hours, or quarter hours where the zone is not a whole
     * number of hours from UTC (India, Nepal, parts of Australia), so that its local hours and days
     * are made of whole buckets.
     */
    static long bucketMillis(ZoneId zone) {
        Instant now = Instant.now();
        for (Instant at : List.of(now, now.plus(Duration.ofDays(182)))) {
            ZoneOffset offset = zone.getRules().getOffset(at);
            if (offset.getTotalSeconds() % 3600 != 0) {
                return 900_000L;
            }
        }
        return 3_600_000L;
    }

    private ReportRow row(StoredHit hit) {
        String timestamp = minutes.of(hit.epochMillis());
        return new ReportRow(hit.id(), timestamp, hit.ip(), hit.method(), hit.url(), hit.status(),
                ReportColumns.oneDecimal(hit.durationMs()), hit.botType(), hit.verification(), hit.crawler(),
                hit.reason(), hit.userAgent(), hit.host(), null);
    }

    /**
     * Which reads of the sitemaps are held, as a token that changes with each read (at most a second
     * late): a page whose rows or filter depend on the sitemaps is kept under it beside its snapshot.
     */
    public String sitemapsVersion() {
        return index.sitemapsVersion();
    }

    /**
     * Whether the store holds a sitemap: then rows say whether one lists their URL. Asked through
     * {@link #sitemapsVersion}, which asks the store at most once a second, not once a page.
     */
    public boolean sitemapsHeld() {
        return !SitemapVersion.NONE.equals(sitemapsVersion());
    }

    /** {@code rows}, each saying whether a sitemap lists its URL, when {@code held}; asked of the store at once. */
    private List<ReportRow> withSitemaps(List<ReportRow> rows, boolean held) {
        if (!held || rows.isEmpty()) {
            return rows;
        }
        java.util.Set<dev.crawlerrors.sitemap.SitemapUrl> listed = store.sitemaps().listed(rows.stream().map(ReportRow::sitemapKey).toList());
        return rows.stream().map(row -> row.inSitemap(listed.contains(row.sitemapKey()))).toList();
    }
}
