package dev.crawlerrors.report;

import dev.crawlerrors.report.pattern.PatternReport;
import dev.crawlerrors.report.pattern.PatternText;
import dev.crawlerrors.report.pattern.PlaceholderNames;
import dev.crawlerrors.report.pattern.UrlShapes;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.UrlPattern;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The Crawler Crawl Errors report over a store: pages of error hits, shown in one time zone, and the
 * analysis around them (URL patterns, the overview, the summary above the table), whose counts are
 * kept per filter and brought up to date as hits arrive ({@link KeptCounts}).
 */
public final class CrawlErrorReport {

    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm");
    /** How long the report page waits for its summary before it is shown without (the count goes on). */
    public static final Duration SUMMARY_WAIT = Duration.ofMillis(200);
    /** How long the patterns and overview pages wait for figures counted for the first time. */
    static final Duration ANALYSIS_WAIT = Duration.ofSeconds(30);
    /** Filters whose counts are kept; their memory is bounded each (see UrlShapes, ErrorCounts). */
    private static final int KEPT_FILTERS = 16;
    private static final int KEPT_SHAPES = 8;

    private final HitStore store;
    private final ZoneId zone;
    private final PlaceholderNames names;
    private final Duration summaryWait;
    private final KeptCounts<ErrorCounts> counts;
    private final KeptCounts<UrlShapes> shapes;

    public CrawlErrorReport(HitStore store, ZoneId zone) {
        this(store, zone, List.of(), SUMMARY_WAIT);
    }

    /**
     * @param urlNames    the site's URL templates, such as {@code /{city}/{street}}, naming the patterns' placeholders
     * @param summaryWait how long the report page waits for its summary
     * @throws IllegalArgumentException saying which template is not one
     */
    public CrawlErrorReport(HitStore store, ZoneId zone, List<String> urlNames, Duration summaryWait) {
        this.store = store;
        this.zone = zone;
        this.names = PlaceholderNames.of(urlNames);
        this.summaryWait = summaryWait;
        this.counts = new KeptCounts<>(store, ErrorCounts.counting(store, bucketMillis(zone)), KEPT_FILTERS, "report-counts");
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

    /**
     * One page of the report.
     *
     * @throws PageNotFoundException when the page is past the last
     */
    public ReportPage page(ReportRequest request) {
        HitFilter filter = filter(request);
        long total = store.count(filter);
        int pages = Paging.pages(total);
        if (request.page() > pages) {
            throw new PageNotFoundException(request.page(), pages);
        }
        List<ReportRow> rows = store.page(filter, Paging.offset(request.page()), Paging.PAGE_SIZE)
                .stream().map(this::row).toList();
        return new ReportPage(ReportPage.TITLE, total, request.page(), pages, Paging.PAGE_SIZE, zone.getId(), rows);
    }

    /** Every matching row, newest first, streamed. */
    public void forEachRow(HitFilter filter, Consumer<ReportRow> rows) {
        store.forEach(filter, hit -> rows.accept(row(hit)));
    }

    /** Every row a request matches, newest first, streamed. */
    public void forEachRow(ReportRequest request, Consumer<ReportRow> rows) {
        forEachRow(filter(request), rows);
    }

    /** Whether anything at all has been recorded (an empty report says so). */
    public boolean hasRecords() {
        return store.size() > 0;
    }

    /** One hit by its id, whatever its status or verdict. */
    public Optional<HitDetail> hit(long id) {
        return store.hit(id).map(hit -> new HitDetail(hit.id(), row(hit), hit.offsetMinutes()));
    }

    /**
     * The overview of what a request's filter shows, for the overview page.
     *
     * @throws StillCountingException when its counts are made for the first time and take long
     */
    public Overview overview(ReportRequest request) {
        return overview(request, ANALYSIS_WAIT).orElseThrow(() -> new StillCountingException("The overview's figures"));
    }

    /** The summary above the report's table (an overview of its filter), if it is counted within the report's wait. */
    public Optional<Overview> summary(ReportRequest request) {
        return overview(request, summaryWait);
    }

    private Optional<Overview> overview(ReportRequest request, Duration wait) {
        HitFilter filter = filter(request);
        OverviewReading reading = new OverviewReading(filter, zone);
        // read under the counts' lock (new hits are added to them in place), and kept until they change
        List<Object> view = List.of(filter.effectiveVerifications(), String.valueOf(request.interval()));
        return counts.read(ErrorCounts.key(filter), wait, view, kept -> reading.read(kept, request.interval()))
                .map(counted -> counted.recounting() ? counted.value().beingRecounted() : counted.value());
    }

    /**
     * The URL patterns of what a request's filter shows.
     *
     * @throws StillCountingException when they are found for the first time and take long
     */
    public PatternReport patterns(ReportRequest request) {
        return patterns(filter(request));
    }

    private PatternReport patterns(HitFilter filter) {
        return shapes.read(filter, ANALYSIS_WAIT, "report", found -> found.report(zone, names))
                .map(KeptCounts.Counted::value)
                .orElseThrow(() -> new StillCountingException("The URL patterns"));
    }

    /**
     * Starts counting what the default view's patterns and overview are read from, in the
     * background, so that their first request finds them counted (on a large store the first count
     * takes seconds; later ones add only the hits stored since).
     */
    public void startCounting() {
        HitFilter filter = HitFilter.ERRORS;
        counts.read(ErrorCounts.key(filter), Duration.ZERO, "start", kept -> Boolean.TRUE);
        shapes.read(filter, Duration.ZERO, "start", found -> Boolean.TRUE);
    }

    /** Stops counting, after the count that is running, if any: call it before the store closes. */
    public void close() {
        counts.close();
        shapes.close();
    }

    /** A request's filter with its {@code pattern} read into the paths it matches. */
    public HitFilter filter(ReportRequest request) {
        if (request.pattern() == null) {
            return request.filter();
        }
        return request.filter().withUrlPattern(matcher(request.filter(), request.pattern()));
    }

    /**
     * What a pattern's text matches: as the patterns found for the same filter have it (a placeholder
     * leaves out the words that have patterns of their own), else as it is written.
     */
    private UrlPattern matcher(HitFilter filter, String text) {
        Optional<UrlPattern> found = patterns(filter).matcher(text);
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
        String timestamp = MINUTE.format(Instant.ofEpochMilli(hit.epochMillis()).atZone(zone));
        return new ReportRow(hit.id(), timestamp, hit.ip(), hit.method(), hit.url(), hit.status(),
                ReportColumns.oneDecimal(hit.durationMs()), hit.botType(), hit.verification(), hit.crawler(),
                hit.reason(), hit.userAgent(), hit.host());
    }
}
