package dev.crawlerrors.web;

import static dev.crawlerrors.web.FirstPageRenderedTest.get;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.HeldBackSitemapCounts;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Every HTML page of a view shows the same summary: made once for the view, its snapshot and the sitemaps' read
 * (its count of the view's other hits by time is a store read, slower with {@code in_sitemap=}), the pages after the
 * first do not read it again, and they are the pages a server of its own renders; a new snapshot or a sitemap read
 * again makes it again; readers of a fresh page asking at once wait for its one summary. Told by the store's reads and
 * the waiting threads, not by time.
 */
class KeptSummaryPagesTest {

    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final List<String> VIEWS = List.of("", "in_sitemap=yes&", "in_sitemap=no&");

    @Test
    void thePagesOfAViewShowItsSummaryReadOnceAsAServerOfItsOwnShowsIt() throws Exception {
        try (DuckDbHitStore store = HeldBackSitemapCounts.storeWithSitemap()) {
            AtomicInteger byTime = new AtomicInteger();
            HitReader reader = (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(), new Class<?>[] {HitReader.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("countByTime")) {
                            byTime.incrementAndGet();
                        }
                        try {
                            return method.invoke(store.reader(), args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            CrawlErrorReport report = new CrawlErrorReport(reader, ReportConfig.in(ZoneOffset.UTC).withSummaryWait(BOUND));
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                counted(report);
                for (String view : VIEWS) {
                    get(server, "/crawl-errors?" + view + "page=1");
                }
                int read = byTime.get();
                assertThat(read).as("the summaries' other hits read of the store").isPositive();
                for (String view : VIEWS) {
                    for (int page = 2; page <= 3; page++) {
                        assertThat(get(server, "/crawl-errors?" + view + "page=" + page)).contains("<table");
                    }
                }
                assertThat(byTime).as("the pages after the first read no summary again").hasValue(read);
                sameAsAServerOfItsOwn(store, server);

                // a new snapshot: its pages' summary made again, with the new hits
                HeldBackSitemapCounts.storeSomeAgain(store);
                counted(report);
                sameAsAServerOfItsOwn(store, server);

                // the sitemap read again, listing other pages: the in_sitemap= pages' summaries made again
                HeldBackSitemapCounts.listEveryFifthPage(store, report);
                sameAsAServerOfItsOwn(store, server);
            } finally {
                report.close();
            }
        }
    }

    @Test
    void readersOfAFreshPageAskingAtOnceWaitForItsOneSummary() throws Exception {
        try (DuckDbHitStore store = HeldBackSitemapCounts.storeWithSitemap()) {
            AtomicInteger heldReads = new AtomicInteger();
            java.util.concurrent.atomic.AtomicBoolean holding = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.CountDownLatch letGo = new java.util.concurrent.CountDownLatch(1);
            HitReader reader = (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(), new Class<?>[] {HitReader.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("countByTime") && holding.get() && inFrame("keptSummary")) {
                            heldReads.incrementAndGet();
                            assertThat(letGo.await(60, java.util.concurrent.TimeUnit.SECONDS)).as("the summary's read let go").isTrue();
                        }
                        try {
                            return method.invoke(store.reader(), args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            CrawlErrorReport report = new CrawlErrorReport(reader, ReportConfig.in(ZoneOffset.UTC).withSummaryWait(BOUND));
            java.util.concurrent.ExecutorService readers = java.util.concurrent.Executors.newFixedThreadPool(4);
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                counted(report);
                holding.set(true);
                List<java.util.concurrent.Future<String>> asked = new java.util.ArrayList<>();
                for (int page = 1; page <= 3; page++) {
                    String path = "/crawl-errors?in_sitemap=yes&page=" + page; // a page's own readers wait for its one render
                    asked.add(readers.submit(() -> get(server, path)));
                }
                // one reader reads the view's other hits for the summary; the readers of the other pages wait for it
                // (they may join it before its reader has come to the read that is held: both are waited for)
                dev.crawlerrors.Waits.await("two readers waiting for the one summary, its read held")
                        .until(() -> waitingForASummary() == 2 && heldReads.get() >= 1);
                assertThat(heldReads).as("summaries begun while the first is held").hasValue(1);
                letGo.countDown();
                List<String> bodies = new java.util.ArrayList<>();
                for (java.util.concurrent.Future<String> one : asked) {
                    bodies.add(one.get(60, java.util.concurrent.TimeUnit.SECONDS));
                }
                assertThat(bodies).allMatch(body -> body.contains("<table"));
                assertThat(heldReads).as("one read of the other hits for three pages").hasValue(1);
                sameAsAServerOfItsOwn(store, server);
            } finally {
                letGo.countDown();
                readers.shutdownNow();
                report.close();
            }
        }
    }

    /** Whether the calling thread is in a method of CrawlErrorReport named {@code method}. */
    private static boolean inFrame(String method) {
        return java.util.Arrays.stream(Thread.currentThread().getStackTrace())
                .anyMatch(frame -> frame.getClassName().equals(CrawlErrorReport.class.getName()) && frame.getMethodName().equals(method));
    }

    /** Threads waiting in the kept summaries for a summary another thread makes: joining it there, not making one. */
    private static long waitingForASummary() {
        return Thread.getAllStackTraces().values().stream().filter(stack -> {
            for (int i = 0; i < stack.length; i++) {
                StackTraceElement frame = stack[i];
                if (frame.getClassName().equals(CrawlErrorReport.class.getName()) && frame.getMethodName().equals("keptSummary")) {
                    List<StackTraceElement> above = List.of(stack).subList(0, i);
                    return above.stream().anyMatch(f -> f.getMethodName().equals("join")
                            && f.getClassName().equals(java.util.concurrent.CompletableFuture.class.getName()))
                            && above.stream().noneMatch(f -> f.getMethodName().equals("heldSummary"));
                }
            }
            return false;
        }).count();
    }

    private static void counted(CrawlErrorReport report) {
        for (String listed : List.of("yes", "no")) {
            assertThat(report.summaryCounted(report.request(Map.of("in_sitemap", List.of(listed))), BOUND)).isTrue();
        }
        assertThat(report.summaryCounted(report.request(Map.of()), BOUND)).isTrue();
    }

    /** Each view's pages 2 and 3 as a server of its own, on the store as it is now, renders them. */
    private static void sameAsAServerOfItsOwn(DuckDbHitStore store, ReportServer server) throws Exception {
        CrawlErrorReport plain = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC).withSummaryWait(BOUND));
        try (ReportServer own = ReportServer.start(plain, store.health(), ServerConfig.on("127.0.0.1", 0))) {
            counted(plain);
            for (String view : VIEWS) {
                for (int page = 2; page <= 3; page++) {
                    String path = "/crawl-errors?" + view + "page=" + page;
                    assertThat(get(server, path)).as(path).isEqualTo(get(own, path));
                }
            }
        } finally {
            plain.close();
        }
    }
}
