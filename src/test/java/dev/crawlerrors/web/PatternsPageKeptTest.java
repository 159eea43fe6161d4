package dev.crawlerrors.web;

import static dev.crawlerrors.web.FirstPageRenderedTest.get;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.Waits;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.HeldBackSitemapCounts;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.report.UncountedFirstPageContract;
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
 * server of its own says, after a new snapshot and a new sitemap read too. Told by the walks, not by time.
 */
class PatternsPageKeptTest {

    private static final List<String> PAGES = List.of("/api/crawl-errors/patterns", "/api/crawl-errors/patterns?in_sitemap=yes",
            "/api/crawl-errors/patterns?in_sitemap=no", "/crawl-errors/patterns?in_sitemap=yes");

    @Test
    void thePatternsPageAskedAgainWalksNoUrlStateAndSaysWhatAServerOfItsOwnSays() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(UncountedFirstPageContract.hits());
            store.writer().flush();
            HeldBackSitemapCounts.listEveryThirdPage(store);
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
