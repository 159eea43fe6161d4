package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.report.ReportRequest;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.Snapshot;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The default view's pages answered from its rows held in memory are the store's pages, byte for
 * byte through the real server, on every engine: every page of a store of some three hundred pages,
 * imported in time order or as four servers' logs one after another, against a server over the same
 * store that holds no rows; pages of an older snapshot (a link's {@code at}) while hits arrive and
 * after the snapshot moved; and with a bound too small for the rows, or for their texts, the copy is
 * not made and the pages are the same.
 */
public abstract class DefaultViewRowsContract {

    private static final long START = Instant.parse("2026-10-01T00:00:00Z").toEpochMilli();
    private static final long SPAN = 5 * 86_400_000L;
    private static final List<Crawler> CRAWLERS = List.of(
            new Crawler("Googlebot Smartphone", "Google", BotType.crawler_search, List.of("Googlebot"), null, null, null),
            new Crawler("Bingbot", "Microsoft", BotType.crawler_search, List.of("bingbot"), null, null, null),
            new Crawler("GPTBot", "OpenAI", BotType.crawler_ai, List.of("GPTBot"), null, null, null));
    private static final int[] STATUSES = {404, 404, 410, 500, 503, 301, 200};
    private static final int HITS = 40_000;
    private static final Duration COPY_WAIT = Duration.ofSeconds(120);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** A fresh, empty store of the engine under test, named for the test ({@code name} is a word). */
    protected abstract HitStore open(String name);

    @ParameterizedTest(name = "in order: {0}")
    @ValueSource(booleans = {true, false})
    void everyPageFromMemoryIsTheStoresPageAsSnapshotsMove(boolean inOrder) throws Exception {
        try (HitStore store = open(inOrder ? "rowsinorder" : "rowsoutoforder")) {
            List<CrawlerHit> hits = hits(new SplittableRandom(inOrder ? 34 : 43), HITS, 0);
            if (inOrder) {
                hits.sort(Comparator.comparingLong(hit -> hit.hit().epochMillis()));
            }
            for (List<CrawlerHit> batch : batches(hits, 4)) {
                store.writer().append(batch);
                store.writer().flush();
            }
            CrawlErrorReport memory = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("Europe/Brussels")));
            memory.startCounting(); // as serve does: the cubes, then the copy
            CrawlErrorReport plain = new CrawlErrorReport(store.reader(),
                    ReportConfig.in(ZoneId.of("Europe/Brussels")).withIndexBytes(0).withRowsBytes(0));
            try (ReportServer held = ReportServer.start(memory, store.health(), ServerConfig.on("127.0.0.1", 0));
                    ReportServer read = ReportServer.start(plain, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                Snapshot first = store.reader().snapshot();
                awaitCopy(held, memory, first);
                int pages = pages(read, "");
                assertThat(pages).as("pages of the default view").isGreaterThan(200);
                assertThat(memory.defaultRowsBytes()).as("bytes held").isPositive().isLessThanOrEqualTo(ReportConfig.DEFAULT_ROWS_BYTES);
                samePages(held, read, pages, "", new Random(1));

                // hits arrive while the first snapshot's pages are read (links carry at=); then the snapshot moves
                String at = "&at=" + first.token();
                CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
                    for (List<CrawlerHit> batch : batches(hits(new SplittableRandom(7), 3_000, HITS), 3)) {
                        store.writer().append(batch);
                        store.writer().flush();
                    }
                });
                samePages(held, read, pages, at, new Random(2), true);
                writing.join();
                Snapshot second = store.reader().snapshot();
                assertThat(second).isNotEqualTo(first);
                int morePages = pages(read, "");
                // the newest snapshot's pages while its copy is made, then from it; the older one's from the store
                samePages(held, read, morePages, "", new Random(3));
                awaitCopy(held, memory, second);
                samePages(held, read, morePages, "", new Random(4));
                samePages(held, read, pages, at, new Random(5));
            } finally {
                memory.close();
                plain.close();
            }
        }
    }

    /** Filtered views of the newest snapshot: each filter alone and combined, some of views the held rows cannot answer. */
    private static final List<String> HELD_VIEWS = List.of("status=404", "status=5xx", "status=301", "status=410&status=503",
            "bot=crawler_ai", "bot=crawler_search", "verification=verified", "verification=unverified", "crawler=Bingbot",
            "crawler=GPTBot&bot=crawler_ai", "crawler=Googlebot+Smartphone&crawler=GPTBot", "host=example.org", "host=nowhere.example",
            "url=/stad/straat-1", "url=/stad/straat-12", "url=/stad/", "url=/", "url=/nope", "url=/stad/straat-5%3Fq%3D%C3%A9",
            "from=2026-10-02&to=2026-10-03", "from=2026-10-02T10:15&to=2026-10-02T18:40", "from=2026-10-05T23:59",
            "status=404&bot=crawler_search&verification=verified&url=/stad/straat-1&from=2026-10-02T06:00&to=2026-10-04T12:30",
            "crawler=Googlebot+Smartphone&status=4xx&host=example.org&url=/stad/straat-2", "status=5xx&verification=unverified&from=2026-10-03",
            // the spoofed error rows, held beside the default view's
            "verification=spoofed", "verification=spoofed&status=404", "verification=spoofed&bot=crawler_ai", "verification=spoofed&crawler=Bingbot",
            "verification=spoofed&url=/stad/straat-1&from=2026-10-02T06:00&to=2026-10-04T12:30", "verification=spoofed&host=example.org&status=5xx",
            "verification=spoofed&crawler=GPTBot&bot=crawler_ai&url=/stad/");
    /** Views whose summary the held rows count (with the store's count of their other hits by time). */
    private static final List<String> SUMMARY_VIEWS = List.of("", "status=404", "status=5xx", "status=301", "bot=crawler_ai", "verification=verified",
            "verification=spoofed", "host=example.org", "url=/stad/straat-1", "url=/stad/", "url=/nope", "from=2026-10-02T10:15&to=2026-10-02T18:40",
            "status=404&bot=crawler_search&verification=verified&url=/stad/straat-1&from=2026-10-02T06:00&to=2026-10-04T12:30",
            "status=5xx&verification=unverified&from=2026-10-03", "verification=spoofed&url=/stad/straat-2&status=4xx",
            "crawler=GPTBot&bot=crawler_ai&from=2026-10-02");

    /** A query string's parameters. */
    private static Map<String, List<String>> query(String view) {
        Map<String, List<String>> query = new java.util.LinkedHashMap<>();
        for (String pair : view.split("&")) {
            if (!pair.isEmpty()) {
                String[] parts = pair.split("=", 2);
                query.computeIfAbsent(parts[0], k -> new ArrayList<>())
                        .add(java.net.URLDecoder.decode(parts[1], java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        return query;
    }

    /** Views with rows outside the default view's: read from the store, as before. */
    private static final List<String> STORE_VIEWS = List.of("bot=all", "bot=all&status=404&url=/stad/straat-1",
            "verification=spoofed&verification=verified&url=/stad/", "verification=spoofed&bot=all&status=404", "verification=spoofed&bot=all");

    @ParameterizedTest(name = "in order: {0}")
    @ValueSource(booleans = {true, false})
    void filteredViewsFromTheHeldRowsAreTheStoresViewsWithoutAStoreRead(boolean inOrder) throws Exception {
        try (HitStore store = open(inOrder ? "heldfilteredinorder" : "heldfilteredoutoforder")) {
            List<CrawlerHit> hits = hits(new SplittableRandom(inOrder ? 340 : 430), 20_000, 0);
            if (inOrder) {
                hits.sort(Comparator.comparingLong(hit -> hit.hit().epochMillis()));
            }
            for (List<CrawlerHit> batch : batches(hits, 4)) {
                store.writer().append(batch);
                store.writer().flush();
            }
            Map<String, AtomicLong> reads = new ConcurrentHashMap<>();
            HitReader counted = counting(store.reader(), reads);
            CrawlErrorReport memory = holding(counted);
            CrawlErrorReport plain = readingTheStore(store.reader());
            try (ReportServer held = ReportServer.start(memory, store.health(), ServerConfig.on("127.0.0.1", 0));
                    ReportServer read = ReportServer.start(plain, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                Snapshot at = store.reader().snapshot();
                awaitCopy(held, memory, at);
                samePages(held, read, 3, "", new Random(1)); // the default view's first pages, which start the cubes' use too
                long rowReads = reads.getOrDefault("rows", new AtomicLong()).get();
                long countReads = reads.getOrDefault("minuteCounts", new AtomicLong()).get();
                for (String view : HELD_VIEWS) {
                    sameFilteredPages(held, read, view);
                    assertThat(reads.getOrDefault("rows", new AtomicLong()).get()).as("pages of " + view + " read from the store").isEqualTo(rowReads);
                    assertThat(reads.getOrDefault("minuteCounts", new AtomicLong()).get()).as(view + " counted by the store").isEqualTo(countReads);
                }
                for (String view : STORE_VIEWS) {
                    sameFilteredPages(held, read, view);
                }
                // the summary above a page (every verdict's error hits, and the other hits by time) from the held rows:
                // the store's figures, and no count of the store's error hits
                long crawlerReads = reads.getOrDefault("countByCrawler", new AtomicLong()).get();
                long durationReads = reads.getOrDefault("countByDuration", new AtomicLong()).get();
                for (String view : SUMMARY_VIEWS) {
                    ReportRequest request = memory.request(query(view));
                    dev.crawlerrors.report.Overview fromMemory = memory.summary(request, memory.page(request)).orElseThrow();
                    dev.crawlerrors.report.Overview fromStore = plain.overview(plain.request(query(view)));
                    assertSameSummary(fromMemory, fromStore, view);
                }
                assertThat(reads.getOrDefault("countByCrawler", new AtomicLong()).get()).as("error hits by crawler counted by the store")
                        .isEqualTo(crawlerReads);
                assertThat(reads.getOrDefault("countByDuration", new AtomicLong()).get()).as("durations counted by the store")
                        .isEqualTo(durationReads);
                // counts the cubes cannot sum (times of part of a minute, URL prefixes past their heads) from the held rows
                long start = Instant.parse("2026-10-02T10:15:30.250Z").toEpochMilli();
                for (HitFilter filter : List.of(
                        new HitFilter(List.of(), Set.of(), Set.of(), Instant.ofEpochMilli(start), Instant.ofEpochMilli(start + 7_777_777), null, null),
                        new HitFilter(List.of(new StatusRange(404, 404)), Set.of(BotType.crawler_search), Set.of(), null,
                                Instant.ofEpochMilli(start + 1), "/stad/straat-1", "example.org"),
                        new HitFilter(List.of(), Set.of(), Set.of(Verification.unverified), null, null, "/stad/straat-", null, Set.of("GPTBot")),
                        new HitFilter(List.of(), Set.of(), Set.of(Verification.spoofed), Instant.ofEpochMilli(start), null, "/stad/straat-1", null),
                        new HitFilter(List.of(new StatusRange(400, 599)), Set.of(BotType.crawler_search), Set.of(Verification.spoofed), null,
                                Instant.ofEpochMilli(start + 86_400_000L), null, "example.org"))) {
                    MinuteCounts fromMemory = memory.index().counts(filter, at);
                    MinuteCounts fromStore = store.reader().minuteCounts(filter, at);
                    assertThat(fromMemory.total()).as(filter.toString()).isEqualTo(fromStore.total()).isPositive();
                    assertThat(fromMemory.size()).as(filter.toString()).isEqualTo(fromStore.size());
                    for (long skip = 0; skip < fromStore.total(); skip += 37) {
                        assertThat(fromMemory.locate(skip, 100)).as(filter + " at " + skip).isEqualTo(fromStore.locate(skip, 100));
                    }
                }
            } finally {
                memory.close();
                plain.close();
            }
        }
    }

    /** Cities of {@link #streetHits}' URLs: a one-folder prefix is one of them. */
    private static final List<String> CITIES = List.of("gent", "brugge", "leuven", "aalst", "genk", "namur", "liege", "hasselt");

    /**
     * {@code n} hits over five days shaped as a street-information site's (the benchmarks' store): few kinds of hit,
     * statuses 308 and 304 most, 404 of a few pages a city, 301, 410, 500 and 503 rare, some spoofed; several in a
     * minute and some in the same millisecond; given in no order.
     */
    private static List<CrawlerHit> streetHits(SplittableRandom random, int n) {
        List<CrawlerHit> hits = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Crawler crawler = CRAWLERS.get(random.nextInt(10) == 0 ? 1 + random.nextInt(2) : 0);
            Verification verdict = random.nextInt(50) == 0 ? Verification.spoofed : random.nextInt(20) == 0 ? Verification.unverified : Verification.verified;
            long millis = START + (i % 9 == 0 ? random.nextLong(SPAN / 1000) * 1000 : random.nextLong(SPAN));
            String city = CITIES.get(random.nextInt(CITIES.size()));
            int shape = random.nextInt(1000);
            String url;
            int status;
            if (shape < 550) {
                url = "/" + city + "/straat-" + random.nextInt(2_000);
                status = 308;
            } else if (shape < 750) {
                url = "/" + city + "/straat-" + random.nextInt(2_000) + "/";
                status = 304;
            } else if (shape < 765) {
                url = "/" + city + "/straat-" + random.nextInt(2_000) + "/kaart";
                status = 301;
            } else if (shape < 955) {
                url = "/" + city + "/straten/" + (char) ('a' + random.nextInt(26));
                status = 404;
            } else if (shape < 985) {
                url = "/zoeken?q=" + random.nextInt(1_000);
                status = 410;
            } else {
                url = "/" + city + "/kaart";
                status = random.nextBoolean() ? 500 : 503;
            }
            Hit hit = new Hit(millis, 120, "66.249." + random.nextInt(8) + "." + random.nextInt(250), "GET", url, status, 0, null,
                    crawler.name() + " agent", random.nextInt(1_000) / 10.0, "example.org");
            hits.add(new CrawlerHit(hit, crawler, new Verdict(verdict, "test " + verdict)));
        }
        return hits;
    }

    @org.junit.jupiter.api.Test
    void prefixWindowAndStatusViewsFromListsOfTheHeldRowsAreTheStores() throws Exception {
        try (HitStore store = open("heldlists")) {
            for (List<CrawlerHit> batch : batches(streetHits(new SplittableRandom(3434), 30_000), 3)) {
                store.writer().append(batch);
                store.writer().flush();
            }
            Map<String, AtomicLong> reads = new ConcurrentHashMap<>();
            CrawlErrorReport memory = holding(counting(store.reader(), reads));
            CrawlErrorReport plain = readingTheStore(store.reader());
            try (ReportServer held = ReportServer.start(memory, store.health(), ServerConfig.on("127.0.0.1", 0));
                    ReportServer read = ReportServer.start(plain, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                awaitCopy(held, memory, store.reader().snapshot());
                samePages(held, read, 2, "", new Random(1));
                long rowReads = reads.getOrDefault("rows", new AtomicLong()).get();
                // windows in Brussels' time (+02:00): none, the store's first hour and before it, its last two days and past its
                // end, one past both ends, an hour inside, and the minute of its first hit alone
                List<String> windows = List.of("", "&from=2026-10-01T00:00&to=2026-10-01T03:01", "&to=2026-10-01T02:01",
                        "&from=2026-10-04T02:00&to=2026-10-07T00:00", "&from=2026-09-30T00:00&to=2026-10-08T00:00",
                        "&from=2026-10-03T11:07&to=2026-10-03T12:07", "&from=2026-10-01T02:00&to=2026-10-01T02:01", "&from=2026-10-06T01:59");
                // prefixes of one folder, and deeper than the count cubes' heads: a page, a page and its longer names, a city's one page
                List<String> prefixes = List.of("/gent/", "/brugge/straten/k", "/leuven/straat-1", "/aalst/kaart", "/zoeken", "/");
                List<String> statuses = List.of("status=301", "status=500", "status=5xx", "status=410", "status=404", "status=308");
                long listedBefore = memory.defaultRowsListedPages();
                int j = 0;
                for (String prefix : prefixes) {
                    for (String status : statuses) {
                        // the whole store and two windows a view, every window in turn
                        for (int w : new int[] {0, 1 + j % (windows.size() - 1), 1 + (j + 3) % (windows.size() - 1)}) {
                            sameFilteredPages(held, read, status + "&url=" + prefix + windows.get(w));
                        }
                        j++;
                    }
                }
                sameFilteredPages(held, read, "status=301&verification=spoofed&url=/gent/");
                sameFilteredPages(held, read, "status=500&crawler=Bingbot&url=/gent/kaart" + windows.get(3));
                assertThat(reads.getOrDefault("rows", new AtomicLong()).get()).as("pages read from the store").isEqualTo(rowReads);
                assertThat(memory.defaultRowsListedPages() - listedBefore).as("pages read from lists of the held rows").isGreaterThan(30);
                // the summaries of deep prefixes' windows, counted from the rows of their URLs' lists in the window, are the store's
                for (String prefix : List.of("/brugge/straten/k", "/aalst/kaart", "/gent/straat-12")) {
                    for (String window : windows) {
                        for (String status : List.of("", "status=404&", "status=5xx&")) {
                            String view = status + "url=" + prefix + window;
                            ReportRequest request = memory.request(query(view));
                            assertSameSummary(memory.summary(request, memory.page(request)).orElseThrow(() -> new AssertionError("no summary of " + view)),
                                    plain.overview(plain.request(query(view))), view);
                        }
                    }
                }
            } finally {
                memory.close();
                plain.close();
            }
        }
    }

    @org.junit.jupiter.api.Test
    void aSummaryOfAStoreOfErrorHitsOnlyIsCountedWithoutTheStore() throws Exception {
        try (HitStore store = open("heldsummaryerrors")) {
            store.writer().append(hits(new SplittableRandom(77), 12_000, 0).stream().filter(hit -> hit.hit().status() >= 300).toList());
            store.writer().flush();
            Map<String, AtomicLong> reads = new ConcurrentHashMap<>();
            CrawlErrorReport memory = holding(counting(store.reader(), reads));
            CrawlErrorReport plain = readingTheStore(store.reader());
            try (ReportServer held = ReportServer.start(memory, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                awaitCopy(held, memory, store.reader().snapshot());
                long timeReads = reads.getOrDefault("countByTime", new AtomicLong()).get();
                for (String view : SUMMARY_VIEWS) {
                    ReportRequest request = memory.request(query(view));
                    dev.crawlerrors.report.Overview fromMemory = memory.summary(request, memory.page(request)).orElseThrow();
                    assertSameSummary(fromMemory, plain.overview(plain.request(query(view))), view);
                }
                assertThat(reads.getOrDefault("countByTime", new AtomicLong()).get()).as("hits by time counted by the store").isEqualTo(timeReads);
            } finally {
                memory.close();
                plain.close();
            }
        }
    }

    /** Views that ask whether a sitemap lists their rows, alone and with the held views' other conditions. */
    private static final List<String> SITEMAP_VIEWS = List.of("in_sitemap=yes", "in_sitemap=no", "in_sitemap=yes&status=404",
            "in_sitemap=no&status=5xx&bot=crawler_ai", "in_sitemap=yes&url=/stad/straat-1", "in_sitemap=yes&verification=spoofed",
            "in_sitemap=no&verification=unverified&crawler=GPTBot&url=/stad/");

    @org.junit.jupiter.api.Test
    void inSitemapViewsFromTheHeldRowsAreTheStoresViewsAsTheSitemapIsReadAgain() throws Exception {
        try (HitStore store = open("heldsitemap")) {
            store.writer().append(hits(new SplittableRandom(515), 12_000, 0));
            store.writer().flush();
            Map<String, AtomicLong> reads = new ConcurrentHashMap<>();
            CrawlErrorReport memory = holding(counting(store.reader(), reads));
            CrawlErrorReport plain = readingTheStore(store.reader());
            try (ReportServer held = ReportServer.start(memory, store.health(), ServerConfig.on("127.0.0.1", 0));
                    ReportServer read = ReportServer.start(plain, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                awaitCopy(held, memory, store.reader().snapshot());
                for (int every : new int[] {3, 7}) {
                    // every third (then seventh) street of example.org, whose hits without a host match by target alone;
                    // one of another host only, which no hit of example.org matches
                    List<dev.crawlerrors.sitemap.SitemapUrl> urls = new ArrayList<>();
                    for (int n = 0; n < 12_000; n += every) {
                        urls.add(new dev.crawlerrors.sitemap.SitemapUrl("example.org", "/stad/straat-" + n));
                    }
                    urls.add(new dev.crawlerrors.sitemap.SitemapUrl("other.example", "/stad/straat-1"));
                    String before = memory.sitemapsVersion();
                    store.sitemaps().replace("https://example.org/sitemap.xml", Instant.parse("2026-10-06T00:00:00Z").plusSeconds(every), urls);
                    awaitListed(held, memory, before);
                    long rowReads = reads.getOrDefault("rows", new AtomicLong()).get();
                    for (String view : SITEMAP_VIEWS) {
                        sameFilteredPages(held, read, view);
                        assertThat(reads.getOrDefault("rows", new AtomicLong()).get()).as("pages of " + view + " read from the store")
                                .isEqualTo(rowReads);
                        ReportRequest request = memory.request(query(view));
                        // a view the held rows cannot say (a named crawler's) is counted from the store: waited for here, so that
                        // a loaded machine does not outlast the page's short wait for it (the held rows' summaries wait for nothing)
                        assertThat(memory.summaryCounted(request, COPY_WAIT)).as("summary of " + view + " counted").isTrue();
                        assertSameSummary(memory.summary(request, memory.page(request)).orElseThrow(() -> new AssertionError("no summary of " + view)),
                                plain.overview(plain.request(query(view))), view);
                    }
                    // the patterns kept of the views by sitemap say the sitemap read now, as a report that kept none finds them
                    CrawlErrorReport fresh = readingTheStore(store.reader());
                    try {
                        for (String view : List.of("in_sitemap=yes", "in_sitemap=no&status=404")) {
                            assertThat(patterns(memory, view)).as("patterns of " + view + " after a read of every " + every)
                                    .isEqualTo(patterns(fresh, view));
                        }
                    } finally {
                        fresh.close();
                    }
                }
            } finally {
                memory.close();
                plain.close();
            }
        }
    }

    /** {@code view}'s URL patterns as {@code report} gives them, asked again while they are being counted. */
    private static dev.crawlerrors.report.pattern.PatternReport patterns(CrawlErrorReport report, String view) throws Exception {
        long until = System.nanoTime() + COPY_WAIT.toNanos();
        while (true) {
            try {
                return report.patterns(report.request(query(view)));
            } catch (dev.crawlerrors.report.StillCountingException e) {
                assertThat(System.nanoTime() - until).as("the patterns of " + view + " counted within " + COPY_WAIT).isNegative();
                Thread.sleep(50);
            }
        }
    }

    /** Asks an in_sitemap= page until the held rows are listed under a version of the sitemaps other than {@code before}. */
    private static void awaitListed(ReportServer server, CrawlErrorReport report, String before) throws Exception {
        long until = System.nanoTime() + COPY_WAIT.toNanos();
        for (int asked = 0; report.defaultRowsListedUnder() == null || report.defaultRowsListedUnder().equals(before)
                || !report.defaultRowsListedUnder().equals(report.sitemapsVersion()); asked++) {
            assertThat(System.nanoTime() - until).as("the held rows listed within " + COPY_WAIT).isNegative();
            assertThat(get(server, "/api/crawl-errors?in_sitemap=yes&page=" + (1 + asked % 5)).statusCode()).isEqualTo(200);
            Thread.sleep(50);
        }
    }

    /** URLs whose bytes sort apart from their chars, long ones, and prefixes of them cut anywhere. */
    private static final List<String> TRICKY_URLS = List.of("/", "/a", "/a/", "/a/b", "/ab", "/a\u00e9", "/a\u00e9/x", "/a\uffff", "/a\ud83d\ude00",
            "/a\ud83d\ude00/b", "/a\u20ac", "/" + "x".repeat(3_000), "/" + "x".repeat(3_000) + "/y", "/" + "\u00e9".repeat(700) + "?q=1", "/a?b=c",
            "/A", "/a b", "/a%20b");

    @org.junit.jupiter.api.Test
    void urlPrefixesOfUrlsPastAsciiAndLongOnesAreTheStores() throws Exception {
        try (HitStore store = open("heldurls")) {
            SplittableRandom random = new SplittableRandom(99);
            List<CrawlerHit> hits = new ArrayList<>();
            for (CrawlerHit hit : hits(random, 6_000, 0)) {
                Hit h = hit.hit();
                String url = TRICKY_URLS.get(random.nextInt(TRICKY_URLS.size())) + (random.nextInt(3) == 0 ? "/" + random.nextInt(50) : "");
                hits.add(new CrawlerHit(new Hit(h.epochMillis(), h.offsetMinutes(), h.ip(), h.method(), url, h.status(), h.bytes(), h.referer(),
                        h.userAgent(), h.durationMs(), h.host()), hit.crawler(), hit.verdict()));
            }
            store.writer().append(hits);
            store.writer().flush();
            CrawlErrorReport memory = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC")));
            memory.startCounting();
            CrawlErrorReport plain = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC")).withIndexBytes(0).withRowsBytes(0));
            try (ReportServer held = ReportServer.start(memory, store.health(), ServerConfig.on("127.0.0.1", 0));
                    ReportServer read = ReportServer.start(plain, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                awaitCopy(held, memory, store.reader().snapshot());
                samePages(held, read, pages(read, ""), "", new Random(3));
                java.util.Set<String> prefixes = new java.util.TreeSet<>();
                for (String url : TRICKY_URLS) {
                    for (int cut = 1; cut <= url.length(); cut += Math.max(1, url.length() / 7)) {
                        prefixes.add(url.substring(0, cut));
                    }
                    prefixes.add(url);
                }
                for (String prefix : prefixes) {
                    if (Character.isHighSurrogate(prefix.charAt(prefix.length() - 1))) {
                        continue; // half a character: no URL a reader can send
                    }
                    sameFilteredPages(held, read, "url=" + java.net.URLEncoder.encode(prefix, java.nio.charset.StandardCharsets.UTF_8)
                            + "&status=4xx&status=5xx");
                    sameFilteredPages(held, read, "url=" + java.net.URLEncoder.encode(prefix, java.nio.charset.StandardCharsets.UTF_8));
                }
            } finally {
                memory.close();
                plain.close();
            }
        }
    }

    /** The first pages, some random ones and the last of a filtered view, the same bytes from both servers. */
    private static void sameFilteredPages(ReportServer held, ReportServer read, String view) throws Exception {
        String first = "/api/crawl-errors?" + view + "&page=1";
        com.fasterxml.jackson.databind.JsonNode answer = new ObjectMapper().readTree(get(read, first).body()).get("pages");
        assertThat(answer).as(first + " of the store").isNotNull();
        int pages = answer.asInt();
        Random random = new Random(view.hashCode());
        java.util.TreeSet<Integer> asked = new java.util.TreeSet<>(List.of(1, 2, 3, pages));
        for (int k = 0; k < 6; k++) {
            asked.add(1 + random.nextInt(Math.max(1, pages)));
        }
        for (int page : asked) {
            String path = "/api/crawl-errors?" + view + "&page=" + page;
            HttpResponse<String> fromMemory = get(held, path);
            HttpResponse<String> fromStore = get(read, path);
            assertThat(fromMemory.statusCode()).as(path).isEqualTo(fromStore.statusCode());
            assertThat(fromMemory.body()).as(path).isEqualTo(fromStore.body());
        }
    }

    /** A report over {@code reader} in Brussels' time that holds the default view's rows, counting started. */
    private static CrawlErrorReport holding(HitReader reader) {
        CrawlErrorReport report = new CrawlErrorReport(reader, ReportConfig.in(ZoneId.of("Europe/Brussels")));
        report.startCounting();
        return report;
    }

    /** A report over {@code reader} in Brussels' time that keeps nothing: every page and count read from the store. */
    private static CrawlErrorReport readingTheStore(HitReader reader) {
        return new CrawlErrorReport(reader, ReportConfig.in(ZoneId.of("Europe/Brussels")).withIndexBytes(0).withRowsBytes(0));
    }

    /** {@code reader}, counting its calls by method name into {@code calls}. */
    private static HitReader counting(HitReader reader, Map<String, AtomicLong> calls) {
        return (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(), new Class<?>[] {HitReader.class}, (proxy, method, args) -> {
            calls.computeIfAbsent(method.getName(), name -> new AtomicLong()).incrementAndGet();
            try {
                return method.invoke(reader, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    @org.junit.jupiter.api.Test
    void laterPagesOfTheHeldRowsAreMadeAgainNotKeptTheFirstIsKept() throws Exception {
        try (HitStore store = open("rowskept")) {
            store.writer().append(hits(new SplittableRandom(11), 12_000, 0));
            store.writer().flush();
            CrawlErrorReport memory = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC")));
            memory.startCounting();
            CrawlErrorReport plain = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC")).withRowsBytes(0));
            plain.startCounting();
            try (ReportServer held = ReportServer.start(memory, store.health(), ServerConfig.on("127.0.0.1", 0));
                    ReportServer read = ReportServer.start(plain, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                // a verdict settled in the background moves the newest snapshot, and the rows held with it:
                // measured again (a few times at most) until no snapshot moved while the pages were asked
                for (int attempt = 1; ; attempt++) {
                    Snapshot at = store.reader().snapshot();
                    awaitCopy(held, memory, at);
                    assertThat(get(read, "/api/crawl-errors?page=1").statusCode()).isEqualTo(200);
                    long heldBefore = cacheBytes(held);
                    long readBefore = cacheBytes(read);
                    assertThat(heldBefore).as("the first page, kept").isPositive();
                    for (int page = 2; page <= 20; page++) {
                        String path = "/api/crawl-errors?page=" + page + "&at=" + at.token();
                        assertThat(get(held, path).body()).isEqualTo(get(read, path).body());
                    }
                    if (!at.equals(store.reader().snapshot()) || !at.equals(memory.defaultRowsAt())) {
                        assertThat(attempt).as("a snapshot that stays while 19 pages are asked").isLessThan(5);
                        continue;
                    }
                    assertThat(memory.pageOfHeldRows(ReportRequest.FIRST_PAGE)).isTrue();
                    assertThat(cacheBytes(held)).as("pages 2-20 of the rows held: made again when asked, not kept").isEqualTo(heldBefore);
                    assertThat(cacheBytes(read)).as("pages 2-20 read from the store: kept").isGreaterThan(readBefore);
                    break;
                }
            } finally {
                memory.close();
                plain.close();
            }
        }
    }

    /** The bytes of the pages the server keeps rendered, from its /metrics. */
    private static long cacheBytes(ReportServer server) throws Exception {
        for (String line : get(server, "/metrics").body().split("\n")) {
            if (line.startsWith("crawl_errors_page_cache_bytes")) {
                return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no crawl_errors_page_cache_bytes in /metrics");
    }

    @ParameterizedTest(name = "bound of {0} bytes a row")
    @ValueSource(ints = {0, 36})
    void aBoundTooSmallHoldsNoRowsAndTheSamePagesAreRead(int bytesPerRow) throws Exception {
        try (HitStore store = open("rowsbound")) {
            store.writer().append(hits(new SplittableRandom(5), 12_000, 0));
            store.writer().flush();
            CrawlErrorReport plain = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC")).withIndexBytes(0).withRowsBytes(0));
            long errors = plain.page(ReportRequest.FIRST_PAGE).total();
            // 0: not even 1 byte a row; 36: room for the rows' columns, not for their texts (most URLs are new)
            long bound = Math.max(1, errors * bytesPerRow);
            CrawlErrorReport small = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC")).withRowsBytes(bound));
            small.startCounting();
            try (ReportServer held = ReportServer.start(small, store.health(), ServerConfig.on("127.0.0.1", 0));
                    ReportServer read = ReportServer.start(plain, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                int pages = pages(read, "");
                for (int round = 0; round < 2; round++) { // the second round after any copy tried has ended
                    samePages(held, read, pages, "", new Random(round));
                    Thread.sleep(200);
                }
                assertThat(small.defaultRowsAt()).as("rows held").isNull();
                assertThat(small.defaultRowsBytes()).as("bytes held").isZero();
            } finally {
                small.close();
                plain.close();
            }
        }
    }

    /** Asks the first page until the report holds the rows of {@code at} (the copy is made in the background). */
    private static void awaitCopy(ReportServer server, CrawlErrorReport report, Snapshot at) throws Exception {
        long until = System.nanoTime() + COPY_WAIT.toNanos();
        while (!at.equals(report.defaultRowsAt())) {
            assertThat(System.nanoTime() - until).as("the copy of " + at.token() + " made within " + COPY_WAIT).isNegative();
            assertThat(get(server, "/api/crawl-errors?page=1").statusCode()).isEqualTo(200);
            Thread.sleep(50);
        }
    }

    /** Every page of the default view, in a random order, the same bytes from both servers. */
    private static void samePages(ReportServer held, ReportServer read, int pages, String at, Random random) throws Exception {
        samePages(held, read, pages, at, random, false);
    }

    private static void samePages(ReportServer held, ReportServer read, int pages, String at, Random random, boolean whileWriting)
            throws Exception {
        List<Integer> order = new ArrayList<>();
        for (int p = 1; p <= pages; p++) {
            order.add(p);
        }
        Collections.shuffle(order, random);
        for (int p : order) {
            String path = "/api/crawl-errors?page=" + p + at;
            HttpResponse<String> fromMemory = get(held, path);
            HttpResponse<String> fromStore = get(read, path);
            assertThat(fromMemory.statusCode()).as(path).isEqualTo(200);
            // while hits arrive, whether a newer snapshot exists may change between the two requests; nothing else may
            String newer = "\"newer\":(true|false),";
            assertThat(fromMemory.body().replaceFirst(newer, "")).as(path).isEqualTo(fromStore.body().replaceFirst(newer, ""));
            if (!whileWriting) {
                assertThat(fromMemory.body()).as(path).isEqualTo(fromStore.body());
            }
        }
    }

    private static int pages(ReportServer server, String at) throws Exception {
        return new ObjectMapper().readTree(get(server, "/api/crawl-errors?page=1" + at).body()).get("pages").asInt();
    }

    private static HttpResponse<String> get(ReportServer server, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static List<List<CrawlerHit>> batches(List<CrawlerHit> hits, int n) {
        List<List<CrawlerHit>> batches = new ArrayList<>();
        int size = (hits.size() + n - 1) / n;
        for (int from = 0; from < hits.size(); from += size) {
            batches.add(hits.subList(from, Math.min(hits.size(), from + size)));
        }
        return batches;
    }

    /**
     * {@code n} hits over five days, several in a minute and some in the same millisecond, of three
     * crawlers and every verdict; durations whole, in tenths, odd (pi), negative zero or none;
     * URLs and agents with texts past Latin-1, some hosts missing.
     */
    private static List<CrawlerHit> hits(SplittableRandom random, int n, int first) {
        List<CrawlerHit> hits = new ArrayList<>();
        for (int i = first; i < first + n; i++) {
            Crawler crawler = CRAWLERS.get(random.nextInt(CRAWLERS.size()));
            Verification verdict = Verification.values()[random.nextInt(3)];
            long millis = START + (i % 9 == 0 ? random.nextLong(SPAN / 1000) * 1000 : random.nextLong(SPAN));
            double duration = switch (i % 6) {
                case 0 -> Double.NaN;
                case 1 -> Math.PI * i;
                case 2 -> -0.0;
                default -> random.nextInt(40_000) / 10.0;
            };
            Hit hit = new Hit(millis, i % 4 == 0 ? 120 : 60, "66.249." + random.nextInt(8) + "." + random.nextInt(250), i % 11 == 0 ? "HEAD" : "GET",
                    "/stad/straat-" + random.nextInt(n) + (i % 5 == 0 ? "?q=é€" : ""), STATUSES[random.nextInt(STATUSES.length)], 0, null,
                    crawler.name() + (i % 13 == 0 ? " agent ✓" : " agent"), duration, i % 3 == 0 ? null : "example.org");
            hits.add(new CrawlerHit(hit, crawler, new Verdict(verdict, "test " + verdict)));
        }
        return hits;
    }

    /**
     * The summary above a page is the store's overview of its view: hits by status, type, crawler and verdict, the spoofed
     * ones left out, the timeline. Its durations, which the page does not show, are the store's or none: a summary summed
     * from the count cubes has none (they hold no durations).
     */
    private static void assertSameSummary(dev.crawlerrors.report.Overview summary, dev.crawlerrors.report.Overview overview, String view) {
        assertThat(summary).as("summary of " + view).usingRecursiveComparison().ignoringFields("durations").isEqualTo(overview);
        if (!summary.durations().isEmpty()) {
            assertThat(summary.durations()).as("durations of the summary of " + view).isEqualTo(overview.durations());
        }
    }
}
