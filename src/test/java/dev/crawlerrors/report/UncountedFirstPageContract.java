package dev.crawlerrors.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StatusRange;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A first page of a large store is not kept waiting for its view's first count, on every engine:
 * with the store's count held back, the first page shows the view's newest rows (the same rows the
 * counted page shows, found in time windows reaching back from the last hit, whether the newest
 * hour holds a page of them or only all time does) and says it is still counting; once the count
 * is let go, the page is the counted one, total and pages exact. A later page, and the first page of
 * a store below the bound, wait for the count as before.
 */
public abstract class UncountedFirstPageContract {

    private static final long LAST = Instant.parse("2026-10-31T12:00:00Z").toEpochMilli();
    private static final Crawler GOOGLEBOT = new Crawler("Googlebot Smartphone", "Google", BotType.crawler_search,
            List.of("Googlebot"), null, null, null);
    private static final int[] STATUSES = {200, 301, 404, 404, 410, 500};
    private static final Duration BOUND = Duration.ofSeconds(60);

    /** A fresh, empty store of the engine under test. */
    protected abstract HitStore open();

    @Test
    void aFirstPageIsShownFromTheNewestRowsWhileTheCountIsHeldBackThenCounted() throws Exception {
        try (HitStore store = open()) {
            store.writer().append(hits());
            store.writer().flush();
            CountDownLatch letGo = new CountDownLatch(1);
            CrawlErrorReport held = new CrawlErrorReport(heldBack(store.reader(), letGo), ReportConfig.in(ZoneOffset.UTC).withUncountedFrom(0));
            CrawlErrorReport counted = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC));
            try {
                List<ReportRequest> firstPages = List.of(ReportRequest.FIRST_PAGE,
                        new ReportRequest(HitFilter.ERRORS.withStatuses(List.of(new StatusRange(500, 500))), 1),
                        new ReportRequest(HitFilter.ERRORS.withStatuses(List.of(new StatusRange(410, 410))), 1));
                for (ReportRequest request : firstPages) {
                    ReportPage quick = assertTimeoutPreemptively(BOUND, () -> held.page(request));
                    ReportPage exact = counted.page(request);
                    assertThat(quick.counting()).as("still counting").isTrue();
                    assertThat(exact.counting()).isFalse();
                    assertThat(quick.rows()).as("the newest rows, as the counted page has them").isEqualTo(exact.rows()).isNotEmpty();
                    assertThat(quick.pages()).as("a next page is known to follow").isEqualTo(exact.pages() > 1 ? 2 : 1);
                    assertThat(quick.total()).isLessThanOrEqualTo(exact.total()).isEqualTo(Math.min(exact.total(), 101));
                    assertThat(quick.at()).isEqualTo(exact.at());
                }
                letGo.countDown();
                for (ReportRequest request : firstPages) {
                    assertThat(awaitCounted(held, request)).as("counted once let go").isEqualTo(counted.page(request));
                }
            } finally {
                letGo.countDown();
                held.close();
                counted.close();
            }
        }
    }

    @Test
    void aLaterPageAndTheFirstPageOfASmallerStoreWaitForTheCount() throws Exception {
        try (HitStore store = open()) {
            store.writer().append(hits());
            store.writer().flush();
            CountDownLatch letGo = new CountDownLatch(1);
            HitReader reader = heldBack(store.reader(), letGo);
            CrawlErrorReport large = new CrawlErrorReport(reader, ReportConfig.in(ZoneOffset.UTC).withUncountedFrom(0));
            CrawlErrorReport small = new CrawlErrorReport(reader, ReportConfig.in(ZoneOffset.UTC));
            // threads of their own: the common pool has one on two cores, and an engine's reads may use it
            ExecutorService readers = Executors.newFixedThreadPool(2);
            try {
                CompletableFuture<ReportPage> second = CompletableFuture.supplyAsync(() -> large.page(new ReportRequest(HitFilter.ERRORS, 2)), readers);
                CompletableFuture<ReportPage> first = CompletableFuture.supplyAsync(() -> small.page(ReportRequest.FIRST_PAGE), readers);
                // ten times the first page's wait: neither may answer before the count is let go
                Thread.sleep(CrawlErrorReport.FIRST_PAGE_WAIT.toMillis() * 10);
                assertThat(second).isNotDone();
                assertThat(first).isNotDone();
                letGo.countDown();
                assertThat(second.get(BOUND.toSeconds(), TimeUnit.SECONDS).counting()).isFalse();
                assertThat(first.get(BOUND.toSeconds(), TimeUnit.SECONDS).counting()).isFalse();
            } finally {
                letGo.countDown();
                readers.shutdown();
                large.close();
                small.close();
            }
        }
    }

    @Test
    void serveBeginsTheFirstCountBeforeAnyPageIsAsked() throws Exception {
        try (HitStore store = open()) {
            store.writer().append(hits());
            store.writer().flush();
            CountDownLatch begun = new CountDownLatch(1);
            CountDownLatch letGo = new CountDownLatch(1);
            HitReader counted = heldBack(store.reader(), letGo);
            HitReader reader = (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(), new Class<?>[] {HitReader.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("minuteCounts")) {
                            begun.countDown();
                        }
                        try {
                            return method.invoke(counted, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            CrawlErrorReport report = new CrawlErrorReport(reader, ReportConfig.in(ZoneOffset.UTC).withUncountedFrom(0));
            try {
                report.startFirstCount();
                assertThat(begun.await(BOUND.toSeconds(), TimeUnit.SECONDS)).as("counting with no page asked").isTrue();
                assertThat(assertTimeoutPreemptively(BOUND, () -> report.page(ReportRequest.FIRST_PAGE)).counting()).isTrue();
                letGo.countDown();
                assertThat(awaitCounted(report, ReportRequest.FIRST_PAGE).counting()).as("the count begun is the page's").isFalse();
            } finally {
                letGo.countDown();
                report.close();
            }
        }
    }

    @Test
    void theWarmUpReadsTheInSitemapFirstPagesRowsWhenASitemapIsHeld() throws Exception {
        try (HitStore store = open()) {
            store.writer().append(hits());
            store.writer().flush();
            HeldBackSitemapCounts.listEveryThirdPage(store);
            // the counts by sitemap held back until let go, as the cube by sitemap of a large store is still counting
            HeldBackSitemapCounts held = new HeldBackSitemapCounts(store.reader(), BOUND);
            CountDownLatch letGo = held.letGo;
            AtomicBoolean warmed = held.warmed;
            AtomicInteger reads = held.reads;
            HitReader reader = held.reader;
            CrawlErrorReport report = new CrawlErrorReport(reader, ReportConfig.in(ZoneOffset.UTC).withUncountedFrom(0));
            CrawlErrorReport counted = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC));
            try {
                assertTimeoutPreemptively(BOUND, () -> report.warmUp(() -> { }));
                warmed.set(true);
                for (String inSitemap : List.of("yes", "no")) {
                    ReportRequest request = report.request(Map.of("in_sitemap", List.of(inSitemap)));
                    ReportPage quick = assertTimeoutPreemptively(BOUND, () -> report.page(request));
                    assertThat(quick.counting()).as("its count held back").isTrue();
                    assertThat(reads.get()).as("in_sitemap=" + inSitemap + ": no row read of the store, the warm-up's kept").isZero();
                    ReportPage exact = counted.page(counted.request(Map.of("in_sitemap", List.of(inSitemap))));
                    assertThat(quick.rows()).as("the newest rows, as the counted page has them").isEqualTo(exact.rows()).isNotEmpty();
                }
                letGo.countDown();
                ReportRequest yes = report.request(Map.of("in_sitemap", List.of("yes")));
                assertThat(awaitCounted(report, yes)).as("counted once let go").isEqualTo(counted.page(counted.request(Map.of("in_sitemap", List.of("yes")))));
            } finally {
                letGo.countDown();
                report.close();
                counted.close();
            }
        }
    }

    private static ReportPage awaitCounted(CrawlErrorReport report, ReportRequest request) throws InterruptedException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        ReportPage page = report.page(request);
        while (page.counting() && System.nanoTime() < deadline) {
            Thread.sleep(20);
            page = report.page(request);
        }
        return page;
    }

    /**
     * A store's error hits, most of them a year before the last, a few in its last hour and day: the
     * default view's newest page lies within the last 64 days, a 5xx page only in all time.
     */
    public static List<CrawlerHit> hits() {
        SplittableRandom random = new SplittableRandom(34);
        List<CrawlerHit> hits = new ArrayList<>();
        for (int i = 0; i < 1_200; i++) {
            long reach = i < 20 ? 3_600_000L : i < 60 ? 86_400_000L : i < 250 ? 40 * 86_400_000L : 400 * 86_400_000L;
            long at = i == 0 ? LAST - 1_000 : LAST - 1_000 - random.nextLong(reach);
            int status = i < 250 ? STATUSES[random.nextInt(4)] : STATUSES[random.nextInt(STATUSES.length)];
            hits.add(hit(at, status, i));
        }
        // the last hit stored is the newest: the windows reach back from it (the others are stored out of order)
        hits.add(hit(LAST, 404, 1_200));
        return hits;
    }

    private static CrawlerHit hit(long at, int status, int n) {
        Hit hit = new Hit(at, 0, "66.249.66." + (n % 7), "GET", "/p" + n, status, 0, null, GOOGLEBOT.name(), 12.5, null);
        return new CrawlerHit(hit, GOOGLEBOT, new Verdict(Verification.verified, "test"));
    }

    /** {@code reader}, whose minute counts wait until {@code letGo} (within the test's bound). */
    public static HitReader heldBack(HitReader reader, CountDownLatch letGo) {
        return (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(), new Class<?>[] {HitReader.class}, (proxy, method, args) -> {
            if (method.getName().equals("minuteCounts") && !letGo.await(BOUND.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("the count was held back past the test's bound");
            }
            try {
                return method.invoke(reader, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }
}
