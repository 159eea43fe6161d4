package dev.crawlerrors.web;

import static dev.crawlerrors.web.FirstPageRenderedTest.get;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.Waits;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.HeldBackSitemapCounts;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.UrlStates;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The Patterns page's states and sitemap counts by pattern (each a walk of the view's URL states) are made once for
 * the view, its snapshot, the sitemaps' read and its patterns: the page asked again walks nothing, and says what a
 * server of its own says, after a new snapshot and a new sitemap read too; readers asking while it is made wait for that
 * one walk. Told by the walks and the waiting threads, not by time.
 */
class PatternsPageKeptTest {

    private static final List<String> PAGES = List.of("/api/crawl-errors/patterns", "/api/crawl-errors/patterns?in_sitemap=yes",
            "/api/crawl-errors/patterns?in_sitemap=no", "/crawl-errors/patterns?in_sitemap=yes");

    @Test
    void thePatternsPageAskedAgainWalksNoUrlStateAndSaysWhatAServerOfItsOwnSays() throws Exception {
        try (DuckDbHitStore store = HeldBackSitemapCounts.storeWithSitemap()) {
            AtomicInteger walks = new AtomicInteger();
            UrlStates states = store.reader().urlStates();
            UrlStates counted = (UrlStates) Proxy.newProxyInstance(UrlStates.class.getClassLoader(), new Class<?>[] {UrlStates.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("forEach")) {
                            walks.incrementAndGet();
                        }
                        return invoke(method, states, args);
                    });
            HitReader reader = (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(), new Class<?>[] {HitReader.class},
                    (proxy, method, args) -> method.getName().equals("urlStates") ? counted : invoke(method, store.reader(), args));
            CrawlErrorReport report = new CrawlErrorReport(reader, ReportConfig.in(ZoneOffset.UTC));
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                sameAsAServerOfItsOwn(store, server);
                int walked = walks.get();
                assertThat(walked).as("the first asks walked the URL states").isPositive();
                for (String page : PAGES) {
                    get(server, page);
                }
                assertThat(walks).as("asked again: nothing walked").hasValue(walked);

                // a new snapshot
                HeldBackSitemapCounts.storeSomeAgain(store);
                sameAsAServerOfItsOwn(store, server);

                // the sitemap read again, listing other pages
                HeldBackSitemapCounts.listEveryFifthPage(store, report);
                sameAsAServerOfItsOwn(store, server);
            } finally {
                report.close();
            }
        }
    }

    @Test
    void readersAskingAPatternsPageWhileItsWalkIsMadeWaitForThatOneWalk() throws Exception {
        try (DuckDbHitStore store = HeldBackSitemapCounts.storeWithSitemap()) {
            AtomicInteger walks = new AtomicInteger();
            java.util.concurrent.CountDownLatch letGo = new java.util.concurrent.CountDownLatch(1);
            UrlStates states = store.reader().urlStates();
            UrlStates held = (UrlStates) Proxy.newProxyInstance(UrlStates.class.getClassLoader(), new Class<?>[] {UrlStates.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("forEach")) {
                            walks.incrementAndGet();
                            assertThat(letGo.await(60, java.util.concurrent.TimeUnit.SECONDS)).as("the walk let go").isTrue();
                        }
                        return invoke(method, states, args);
                    });
            HitReader reader = (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(), new Class<?>[] {HitReader.class},
                    (proxy, method, args) -> method.getName().equals("urlStates") ? held : invoke(method, store.reader(), args));
            CrawlErrorReport report = new CrawlErrorReport(reader, ReportConfig.in(ZoneOffset.UTC));
            java.util.concurrent.ExecutorService readers = java.util.concurrent.Executors.newFixedThreadPool(4);
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                List<java.util.concurrent.Future<String>> asked = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    asked.add(readers.submit(() -> get(server, "/api/crawl-errors/patterns")));
                }
                // one reader walks; the three others wait for its map, not walking the states themselves
                Waits.await("three readers waiting for the one walk").until(() -> waitingForAWalk() == 3);
                assertThat(walks).as("walks begun while the first is held").hasValue(1);
                letGo.countDown();
                List<String> bodies = new ArrayList<>();
                for (java.util.concurrent.Future<String> one : asked) {
                    bodies.add(one.get(60, java.util.concurrent.TimeUnit.SECONDS));
                }
                assertThat(bodies).allMatch(body -> body.equals(bodies.get(0)));
                assertThat(walks).as("one walk of the states now, one of the sitemap counts, for four readers").hasValue(2);
            } finally {
                letGo.countDown();
                readers.shutdownNow();
                report.close();
            }
        }
    }

    @Test
    void thePatternsPagesWalkedByServesWarmUpAreAnsweredWithoutAWalkAtTheirFirstAsk() throws Exception {
        try (DuckDbHitStore store = HeldBackSitemapCounts.storeWithSitemap()) {
            AtomicInteger walks = new AtomicInteger();
            CrawlErrorReport report = new CrawlErrorReport(walksCounted(store, walks, null), ReportConfig.in(ZoneOffset.UTC));
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                report.startCounting();
                server.walkPatterns(java.time.Duration.ofMinutes(1));
                int walked = walks.get();
                assertThat(walked).as("the warm-up walked the states once for the three views (states now, sitemap counts)").isEqualTo(1);
                for (String page : PAGES) {
                    get(server, page);
                }
                assertThat(walks).as("the first asks after the warm-up: nothing walked").hasValue(walked);
                sameAsAServerOfItsOwn(store, server);
                assertThat(walks).as("nothing walked").hasValue(walked);
            } finally {
                report.close();
            }
        }
    }

    @Test
    void withoutASitemapTheWarmUpWalksTheDefaultViewOnly() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(dev.crawlerrors.report.UncountedFirstPageContract.hits());
            store.writer().flush();
            AtomicInteger walks = new AtomicInteger();
            CrawlErrorReport report = new CrawlErrorReport(walksCounted(store, walks, null), ReportConfig.in(ZoneOffset.UTC));
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                report.startCounting();
                server.walkPatterns(java.time.Duration.ofMinutes(1));
                assertThat(walks).as("the states now of the default view (no sitemap: no sitemap counts)").hasValue(1);
                assertThat(get(server, "/api/crawl-errors/patterns")).contains("\"now\":{");
                assertThat(walks).as("its first ask after the warm-up: nothing walked").hasValue(1);
            } finally {
                report.close();
            }
        }
    }

    @Test
    void aReaderAskingWhileTheWarmUpWalksWaitsForThatWalk() throws Exception {
        withTheFirstWalkHeld((store, server, walks, letGo, threads) -> {
            java.util.concurrent.Future<?> warmUp = threads.submit(() -> {
                server.walkPatterns(java.time.Duration.ofMinutes(1));
                return null;
            });
            Waits.await("the warm-up's first walk begun").until(() -> walks.get() == 1);
            java.util.concurrent.Future<String> asked = threads.submit(() -> get(server, "/api/crawl-errors/patterns"));
            // the reader waits for the warm-up's walk, not walking the states itself
            Waits.await("the reader waiting for the warm-up's walk").until(() -> waitingForAWalk() == 1);
            assertThat(walks).as("walks begun while the warm-up's is held").hasValue(1);
            letGo.countDown();
            String body = asked.get(60, java.util.concurrent.TimeUnit.SECONDS);
            warmUp.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(walks).as("the warm-up's one walk only, for three views").hasValue(1);
            assertThat(walked(body)).isEqualTo(walked(get(server, "/api/crawl-errors/patterns"))).isNotEmpty();
            assertThat(walks).hasValue(1);
        });
    }

    @Test
    void theWarmUpWaitsForAViewAReaderIsWalkingThenWalksTheOthersInOnePass() throws Exception {
        withTheFirstWalkHeld((store, server, walks, letGo, threads) -> {
            java.util.concurrent.Future<String> asked = threads.submit(() -> get(server, "/api/crawl-errors/patterns?in_sitemap=no"));
            Waits.await("the reader's walk begun").until(() -> walks.get() == 1);
            java.util.concurrent.Future<?> warmUp = threads.submit(() -> {
                server.walkPatterns(java.time.Duration.ofMinutes(1));
                return null;
            });
            // the warm-up waits for the reader's walk before walking anything: the two do not share the cores
            Waits.await("the warm-up waiting for the reader's walk").until(() -> waitingForAWalk() == 1);
            assertThat(walks).as("walks begun while the reader's is held").hasValue(1);
            letGo.countDown();
            String body = asked.get(60, java.util.concurrent.TimeUnit.SECONDS);
            warmUp.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(walks).as("the reader's two walks, then one for the two other views").hasValue(3);
            for (String page : PAGES) {
                get(server, page);
            }
            assertThat(walks).as("the first asks of the other views: nothing walked").hasValue(3);
            assertThat(walked(body)).isEqualTo(walked(get(server, "/api/crawl-errors/patterns?in_sitemap=no"))).isNotEmpty();
            sameAsAServerOfItsOwn(store, server);
        });
    }

    /** What a test does with a server whose first walk of the URL states waits for {@code letGo}, on two threads of its own. */
    private interface HeldWalk {
        void run(DuckDbHitStore store, ReportServer server, AtomicInteger walks, java.util.concurrent.CountDownLatch letGo,
                java.util.concurrent.ExecutorService threads) throws Exception;
    }

    /** {@code test} on a store with hits and a sitemap, served, its patterns being counted, its first walk held. */
    private static void withTheFirstWalkHeld(HeldWalk test) throws Exception {
        try (DuckDbHitStore store = HeldBackSitemapCounts.storeWithSitemap()) {
            AtomicInteger walks = new AtomicInteger();
            java.util.concurrent.CountDownLatch letGo = new java.util.concurrent.CountDownLatch(1);
            CrawlErrorReport report = new CrawlErrorReport(walksCounted(store, walks, letGo), ReportConfig.in(ZoneOffset.UTC));
            java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(2);
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                report.startCounting();
                test.run(store, server, walks, letGo, threads);
            } finally {
                letGo.countDown();
                threads.shutdownNow();
                report.close();
            }
        }
    }

    /** {@code store}'s reader, its URL states' walks counted in {@code walks}, the first held until {@code letGo} when given. */
    private static HitReader walksCounted(DuckDbHitStore store, AtomicInteger walks, java.util.concurrent.CountDownLatch letGo) {
        UrlStates states = store.reader().urlStates();
        UrlStates counted = (UrlStates) Proxy.newProxyInstance(UrlStates.class.getClassLoader(), new Class<?>[] {UrlStates.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("forEach") && walks.incrementAndGet() == 1 && letGo != null) {
                        assertThat(letGo.await(60, java.util.concurrent.TimeUnit.SECONDS)).as("the walk let go").isTrue();
                    }
                    return invoke(method, states, args);
                });
        return (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(), new Class<?>[] {HitReader.class},
                (proxy, method, args) -> method.getName().equals("urlStates") ? counted : invoke(method, store.reader(), args));
    }

    /** Threads waiting in the Patterns page's map for a walk another thread makes. */
    private static long waitingForAWalk() {
        return Thread.getAllStackTraces().values().stream().filter(stack -> {
            boolean inMap = false;
            boolean joining = false;
            for (StackTraceElement frame : stack) {
                inMap |= frame.getClassName().equals(ReportRoutes.class.getName()) && frame.getMethodName().equals("patternMap");
                joining |= frame.getClassName().equals(java.util.concurrent.CompletableFuture.class.getName())
                        && frame.getMethodName().equals("join");
            }
            return inMap && joining;
        }).count();
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * What the walks of the URL states say of each pattern: its states now, its URLs in the sitemap, the diagnosis they make
     * (a kept pattern's top URLs are brought up to date by the hits since, which a server of its own counts otherwise).
     */
    private static List<String> walked(String json) throws Exception {
        List<String> said = new ArrayList<>();
        for (com.fasterxml.jackson.databind.JsonNode pattern : new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).get("patterns")) {
            said.add(pattern.get("pattern") + " " + pattern.get("now") + " " + pattern.get("inSitemap") + " " + pattern.get("sitemap") + " "
                    + pattern.get("diagnosis"));
        }
        return said;
    }

    /** Each page as a server of its own, on the store as it is now, says it (its states brought up to date first). */
    private static void sameAsAServerOfItsOwn(DuckDbHitStore store, ReportServer server) throws Exception {
        CrawlErrorReport plain = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC));
        try (ReportServer own = ReportServer.start(plain, store.health(), ServerConfig.on("127.0.0.1", 0))) {
            for (String page : PAGES) {
                if (!page.startsWith("/api/")) {
                    assertThat(get(server, page)).contains("in the sitemap");
                    continue;
                }
                String expected = Waits.await("the states of " + page).until(() -> get(own, page), body -> !body.contains("\"now\":null"));
                assertThat(walked(get(server, page))).as(page).isEqualTo(walked(expected)).isNotEmpty();
            }
        } finally {
            plain.close();
        }
    }
}
