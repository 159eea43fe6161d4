package dev.crawlerrors.report;

import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.SitemapStore;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoredSitemap;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.store.UrlSort;
import dev.crawlerrors.store.UrlState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The sitemaps page (HTML, JSON, CSV): the site's sitemaps beside what the crawlers did. Per
 * sitemap, its URLs by what the view's crawlers last got in the range asked (the URLs' states);
 * the sitemap URLs a verified crawler of the chosen kind (the request's {@code crawler}, Googlebot
 * by default) did not fetch in the {@value #RECENT_DAYS} days to the view's end (its {@code to},
 * else its newest hit: an old log is judged by its own days); and the URLs the view's crawlers
 * fetch most that no sitemap lists.
 */
public final class SitemapReport {

    /** What the sitemaps page takes: the filters of the crawlers and URLs looked at, and the snapshot. */
    public static final Set<String> PARAMETERS = ReportParameters.names(List.of(), List.of("bot", "crawler", "verification", "from", "to",
            "url", "host"), List.of("at"));
    /** The crawler whose recent fetches are looked at when the request names none. */
    static final String DEFAULT_CRAWLER = "Googlebot";
    static final int RECENT_DAYS = 30;
    /** Sitemap URLs not fetched lately that the page lists (the CSV has them all). */
    static final int NEVER_FETCHED_SHOWN = 100;
    static final int OFF_MAP_SHOWN = 50;

    private final UrlReport urls;
    private final SitemapStore sitemaps;

    /** The sitemaps page of {@code report}'s store, the URLs' states read as {@code urls} reads them. */
    public SitemapReport(CrawlErrorReport report, UrlReport urls) {
        this.urls = urls;
        this.sitemaps = report.reader().sitemaps();
    }

    /**
     * A request's parameters, as the sitemaps page reads them.
     *
     * @throws BadParameterException naming the first parameter that is not accepted or has a bad value
     */
    public ReportRequest request(Map<String, List<String>> query) {
        return ReportParameters.parse(query, urls.zone(), PARAMETERS, urls.catalog());
    }

    /**
     * The sitemaps page of a request.
     *
     * @throws SnapshotGoneException   when its snapshot can no longer be answered
     * @throws StillCountingException  when the URLs' states are being brought up to a large import
     */
    public SitemapsPage page(ReportRequest request) {
        Snapshot at = urls.snapshot(request, urls.newest());
        Joined joined = join(request, at);
        SitemapCoverage coverage = joined.coverage();
        List<SitemapsPage.Sitemap> rows = new ArrayList<>();
        for (int i = 0; i < coverage.sitemaps().size(); i++) {
            StoredSitemap held = coverage.sitemaps().get(i);
            long[] byState = new long[4];
            for (SitemapCoverage.Listed listed : coverage.urls(i)) {
                byState[listed.last == null ? 3 : listed.last.state().ordinal()]++;
            }
            rows.add(new SitemapsPage.Sitemap(held.sitemap(), urls.minute(held.readAt().toEpochMilli()), held.urls(),
                    byState[UrlState.State.ok.ordinal()], byState[UrlState.State.redirected.ordinal()],
                    byState[UrlState.State.broken.ordinal()], byState[3]));
        }
        List<SitemapCoverage.Listed> notRecent = coverage.listed().stream().filter(listed -> !listed.recent)
                .sorted(Comparator.comparing((SitemapCoverage.Listed listed) -> listed.url.host()).thenComparing(listed -> listed.url.target()))
                .toList();
        List<SitemapsPage.ListedUrl> shown = notRecent.stream().limit(NEVER_FETCHED_SHOWN).map(this::listedUrl).toList();
        List<SitemapsPage.OffMapUrl> offMap = coverage.offMap().stream().map(state -> new SitemapsPage.OffMapUrl(state.url(),
                state.host().isEmpty() ? null : state.host(), state.hits(), state.errorHits(), state.state().name(), state.lastStatus())).toList();
        return new SitemapsPage(SitemapsPage.TITLE, urls.zone().getId(), at.token(), rows, joined.crawler(), RECENT_DAYS,
                joined.recentTo() == null ? null : urls.minute(joined.recentTo().minus(Duration.ofDays(RECENT_DAYS)).toEpochMilli()),
                joined.recentTo() == null ? null : urls.minute(joined.recentTo().toEpochMilli() - 1), notRecent.size(), shown, offMap);
    }

    /** The CSV's header: one row a URL of a sitemap. */
    public static List<String> csvLabels(String crawler) {
        return List.of("Sitemap", "URL", "Host", "State", "Last status", "Last crawled", "Fetched by " + crawler + " in " + RECENT_DAYS + " days");
    }

    /** The crawler the CSV's last column is about, as {@link #forEachRow} names it. */
    public String crawler(ReportRequest request) {
        return crawlerName(request);
    }

    /** Every URL of every sitemap, a CSV row each (cells in {@link #csvLabels}' order), by sitemap as held. */
    public void forEachRow(ReportRequest request, Consumer<List<String>> rows) {
        Snapshot at = urls.snapshot(request, urls.newest());
        SitemapCoverage coverage = join(request, at).coverage();
        for (int i = 0; i < coverage.sitemaps().size(); i++) {
            String sitemap = coverage.sitemaps().get(i).sitemap();
            for (SitemapCoverage.Listed listed : coverage.urls(i)) {
                SitemapsPage.ListedUrl url = listedUrl(listed);
                rows.accept(List.of(sitemap, url.url(), url.host(), url.state() == null ? "never fetched" : url.state(),
                        url.lastStatus() == null ? "" : url.lastStatus().toString(), url.lastCrawled() == null ? "" : url.lastCrawled(),
                        listed.recent ? "yes" : "no"));
            }
        }
    }

    private SitemapsPage.ListedUrl listedUrl(SitemapCoverage.Listed listed) {
        UrlState last = listed.last;
        return new SitemapsPage.ListedUrl(listed.url.target(), listed.url.host(), last == null ? null : last.state().name(),
                last == null ? null : last.lastStatus(), last == null ? null : urls.minute(last.lastCrawled()));
    }

    /** The coverage of a request at {@code at}, and the crawler and end of the days its recent fetches were looked at in. */
    private record Joined(SitemapCoverage coverage, String crawler, Instant recentTo) {
    }

    private Joined join(ReportRequest request, Snapshot at) {
        SitemapCoverage coverage = new SitemapCoverage(sitemaps, OFF_MAP_SHOWN);
        UrlRequest everyState = new UrlRequest(request, Set.of(), false, false, UrlSort.last_crawled);
        UrlQuery view = urls.query(everyState, at);
        UrlReport.read(() -> {
            urls.urls().forEach(view, at, coverage::viewed);
            return null;
        });
        String crawler = crawlerName(request);
        Instant end = request.filter().to() != null ? request.filter().to()
                : coverage.newestCrawl() == Long.MIN_VALUE ? null : Instant.ofEpochMilli(coverage.newestCrawl() + 1);
        if (end != null && !coverage.listed().isEmpty()) {
            HitFilter chosen = request.filter().crawlers().isEmpty()
                    ? ReportParameters.parse(Map.of("crawler", List.of(DEFAULT_CRAWLER)), urls.zone(), PARAMETERS, urls.catalog()).filter()
                    : request.filter();
            HitFilter recent = new HitFilter(List.of(), Set.of(), EnumSet.of(Verification.verified), end.minus(Duration.ofDays(RECENT_DAYS)),
                    end, null, null, chosen.crawlers());
            UrlQuery recentQuery = new UrlQuery(recent, Set.of(), false, false, UrlSort.last_crawled);
            UrlReport.read(() -> {
                urls.urls().forEach(recentQuery, at, coverage::fetchedRecently);
                return null;
            });
        }
        return new Joined(coverage, crawler, end);
    }

    private static String crawlerName(ReportRequest request) {
        Set<String> asked = request.filter().crawlers();
        return asked.isEmpty() ? DEFAULT_CRAWLER : String.join(", ", asked);
    }
}
