package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.report.UncountedFirstPageContract;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.UrlStates;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/**
 * The first page served while its count is held back says so in JSON and HTML, and is not kept:
 * once the count is let go, the same address answers the counted page.
 */
class UncountedFirstPageServerTest {

    private static final Duration BOUND = Duration.ofSeconds(60);
    /** How long a page may take to answer: a page that waited for what is held back would take the test's bound. */
    private static final Duration ANSWER_WAIT = Duration.ofSeconds(20);

    @Test
    void theFirstPageSaysItIsStillCountingAndIsAnsweredCountedOnceItIs() throws Exception {
        CountDownLatch letGo = new CountDownLatch(1);
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(UncountedFirstPageContract.hits());
            store.writer().flush();
            CrawlErrorReport report = new CrawlErrorReport(UncountedFirstPageContract.heldBack(store.reader(), letGo),
                    ReportConfig.in(ZoneOffset.UTC).withUncountedFrom(0));
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                String base = "http://127.0.0.1:" + server.port();
                JsonNode counting = json(base);
                Document html = html(base);

                assertThat(counting.get("counting").asBoolean()).isTrue();
                assertThat(counting.get("rows")).hasSize(100);
                assertThat(counting.get("pages").asInt()).isEqualTo(2);
                assertThat(html.selectFirst("#summary").text()).isEqualTo("Error hits still being counted · page 1");
                assertThat(html.selectFirst("#counting-total")).isNotNull();
                assertThat(html.select("#hits tbody tr")).hasSize(100);

                letGo.countDown();
                long deadline = System.nanoTime() + BOUND.toNanos();
                JsonNode counted = json(base);
                while (counted.get("counting").asBoolean() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                    counted = json(base);
                }
                assertThat(counted.get("counting").asBoolean()).as("the page still counting was not kept").isFalse();
                long total = counted.get("total").asLong();
                assertThat(total).isGreaterThan(100);
                assertThat(counted.get("rows")).isEqualTo(counting.get("rows"));
                assertThat(html(base).selectFirst("#total").text()).isEqualTo(Long.toString(total));
            } finally {
                letGo.countDown();
                report.close();
            }
        }
    }

    @Test
    void theFirstPageStillCountingDoesNotWaitForRobotsTxtsAlerts() throws Exception {
        CountDownLatch letGo = new CountDownLatch(1);
        CountDownLatch robotsLetGo = new CountDownLatch(1);
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            List<CrawlerHit> hits = new ArrayList<>(UncountedFirstPageContract.hits());
            CrawlerHit newest = hits.get(hits.size() - 1);
            Hit robots = new Hit(newest.hit().epochMillis() + 60_000, 0, "66.249.66.1", "GET", "/robots.txt", 503, 0, null,
                    newest.crawler().name(), 12.5, null);
            hits.add(new CrawlerHit(robots, newest.crawler(), newest.verdict()));
            store.writer().append(hits);
            store.writer().flush();
            CrawlErrorReport report = new CrawlErrorReport(robotsHeldBack(UncountedFirstPageContract.heldBack(store.reader(), letGo), robotsLetGo),
                    ReportConfig.in(ZoneOffset.UTC).withUncountedFrom(0));
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                String base = "http://127.0.0.1:" + server.port();
                // answered while robots.txt's fetches are still held back (the old page waited for them past this bound)
                Document counting = html(base);
                assertThat(counting.selectFirst("#summary").text()).isEqualTo("Error hits still being counted · page 1");
                assertThat(counting.select("#hits tbody tr")).hasSize(100);
                assertThat(counting.text()).doesNotContain("got 503 for /robots.txt");

                robotsLetGo.countDown();
                letGo.countDown();
                long deadline = System.nanoTime() + BOUND.toNanos();
                Document counted = html(base);
                while ((counted.selectFirst("#total") == null || !counted.text().contains("got 503 for /robots.txt"))
                        && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                    counted = html(base);
                }
                assertThat(counted.selectFirst("#total")).as("counted once let go").isNotNull();
                assertThat(counted.text()).as("the banner, once the alerts are read").contains("got 503 for /robots.txt");
            } finally {
                letGo.countDown();
                robotsLetGo.countDown();
                report.close();
            }
        }
    }

    /** {@code reader}, whose URL histories (robots.txt's fetches) wait until {@code letGo} (within the test's bound). */
    private static HitReader robotsHeldBack(HitReader reader, CountDownLatch letGo) {
        UrlStates states = reader.urlStates();
        UrlStates held = (UrlStates) Proxy.newProxyInstance(UrlStates.class.getClassLoader(), new Class<?>[] {UrlStates.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("histories") && !letGo.await(BOUND.toSeconds(), TimeUnit.SECONDS)) {
                        throw new IllegalStateException("robots.txt's fetches were held back past the test's bound");
                    }
                    return invoke(method, states, args);
                });
        return (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(), new Class<?>[] {HitReader.class},
                (proxy, method, args) -> method.getName().equals("urlStates") ? held : invoke(method, reader, args));
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static JsonNode json(String base) throws Exception {
        return new ObjectMapper().readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/api/crawl-errors")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    private static Document html(String base) throws Exception {
        return Jsoup.parse(HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/crawl-errors")).timeout(ANSWER_WAIT).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }
}
