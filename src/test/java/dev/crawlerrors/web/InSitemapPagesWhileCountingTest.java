package dev.crawlerrors.web;

import static dev.crawlerrors.web.FirstPageRenderedTest.get;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.HeldBackSitemapCounts;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * While an in_sitemap= view is not counted (its cube by sitemap not queued yet or still counting, seconds after serve
 * starts on a large store; its count from the store, tens of seconds on a loaded machine), the first pages of an
 * {@code in_sitemap=} view after the first are shown from its newest rows, as the first is, instead of waiting for the
 * count: the rows a counted page shows, said to be counting; a page past the view's rows is not found. Once counted,
 * the counted pages. The counts by sitemap are held back until the test lets them go: a page that waited for them would
 * fail at the hold's bound, not pass late.
 */
class InSitemapPagesWhileCountingTest {

    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theFirstPagesOfAnInSitemapViewAreItsNewestRowsWhileItsCubeCounts() throws Exception {
        try (DuckDbHitStore store = HeldBackSitemapCounts.storeWithSitemap()) {
            HeldBackSitemapCounts held = new HeldBackSitemapCounts(store.reader(), BOUND);
            CrawlErrorReport report = new CrawlErrorReport(held.reader, ReportConfig.in(ZoneOffset.UTC).withUncountedFrom(0));
            CrawlErrorReport plain = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC));
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0));
                 ReportServer counted = ReportServer.start(plain, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                // no count started yet (the cube by sitemap not even queued, as right after serve starts): the pages wait for none
                for (String inSitemap : List.of("yes", "no")) {
                    assertThat(plain.summaryCounted(plain.request(Map.of("in_sitemap", List.of(inSitemap))), BOUND)).isTrue();
                }
                for (String inSitemap : List.of("yes", "no")) {
                    JsonNode whole = JSON.readTree(get(counted, "/api/crawl-errors?in_sitemap=" + inSitemap + "&page=1"));
                    int pages = whole.get("pages").asInt();
                    assertThat(pages).as("in_sitemap=" + inSitemap + ": a view of more than a page").isGreaterThan(2);
                    for (int page = 2; page <= Math.min(pages, 4); page++) {
                        String path = "/api/crawl-errors?in_sitemap=" + inSitemap + "&page=" + page;
                        JsonNode shown = JSON.readTree(get(server, path));
                        JsonNode countedPage = JSON.readTree(get(counted, path));
                        assertThat(shown.get("counting").asBoolean()).as(path + ": its count held back").isTrue();
                        assertThat(shown.get("page").asInt()).isEqualTo(page);
                        assertThat(shown.get("rows")).as(path + ": the counted page's rows").isEqualTo(countedPage.get("rows")).isNotEmpty();
                        assertThat(get(server, "/crawl-errors?in_sitemap=" + inSitemap + "&page=" + page)).contains("id=\"counting-total\"");
                    }
                    if (inSitemap.equals("yes")) {
                        assertThat(status(server, "/api/crawl-errors?in_sitemap=yes&page=" + (pages + 1))).as("past the view's rows").isEqualTo(404);
                    }
                }

                // once counted, the counted pages
                held.letGo.countDown();
                assertThat(report.summaryCounted(report.request(Map.of("in_sitemap", List.of("yes"))), BOUND)).isTrue();
                dev.crawlerrors.Waits.await("the in_sitemap=yes view counted")
                        .until(() -> report.counted(report.request(Map.of("in_sitemap", List.of("yes")))));
                assertThat(get(server, "/api/crawl-errors?in_sitemap=yes&page=2")).isEqualTo(get(counted, "/api/crawl-errors?in_sitemap=yes&page=2"));
            } finally {
                held.letGo.countDown();
                report.close();
                plain.close();
            }
        }
    }

    @Test
    void afterServesWarmUpThoseFirstPagesReadNothingOfTheStore() throws Exception {
        try (DuckDbHitStore store = HeldBackSitemapCounts.storeWithSitemap()) {
            HeldBackSitemapCounts held = new HeldBackSitemapCounts(store.reader(), BOUND);
            // the in_sitemap= views' rows read of the store (not the default view's, which the warm-up copies in the background)
            java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
            dev.crawlerrors.store.HitReader reader = (dev.crawlerrors.store.HitReader) java.lang.reflect.Proxy.newProxyInstance(
                    dev.crawlerrors.store.HitReader.class.getClassLoader(), new Class<?>[] {dev.crawlerrors.store.HitReader.class},
                    (proxy, method, args) -> {
                        if (held.warmed.get() && method.getName().equals("rows") && ((dev.crawlerrors.store.HitFilter) args[0]).inSitemap() != null) {
                            reads.incrementAndGet();
                        }
                        try {
                            return method.invoke(held.reader, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            CrawlErrorReport report = new CrawlErrorReport(reader, ReportConfig.in(ZoneOffset.UTC).withUncountedFrom(0));
            CrawlErrorReport plain = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC));
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0));
                 ReportServer counted = ReportServer.start(plain, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                // serve's warm-up: the in_sitemap= views' newest rows read once, then the counts of the start (held back)
                org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(BOUND, () -> report.warmUp(() -> { }));
                held.warmed.set(true);
                for (String inSitemap : List.of("yes", "no")) {
                    assertThat(plain.summaryCounted(plain.request(Map.of("in_sitemap", List.of(inSitemap))), BOUND)).isTrue();
                    for (int page = 1; page <= 3; page++) {
                        String path = "/api/crawl-errors?in_sitemap=" + inSitemap + "&page=" + page;
                        JsonNode shown = JSON.readTree(get(server, path));
                        assertThat(shown.get("counting").asBoolean()).as(path).isTrue();
                        assertThat(shown.get("rows")).as(path).isEqualTo(JSON.readTree(get(counted, path)).get("rows"));
                    }
                }
                assertThat(reads).as("no row of theirs read of the store after the warm-up").hasValue(0);
            } finally {
                held.letGo.countDown();
                report.close();
                plain.close();
            }
        }
    }

    private static int status(ReportServer server, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).timeout(BOUND).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
