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
