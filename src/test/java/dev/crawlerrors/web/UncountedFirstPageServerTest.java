package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.report.UncountedFirstPageContract;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.concurrent.CountDownLatch;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/**
 * The first page served while its count is held back says so in JSON and HTML, and is not kept:
 * once the count is let go, the same address answers the counted page.
 */
class UncountedFirstPageServerTest {

    private static final Duration BOUND = Duration.ofSeconds(60);

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

    private static JsonNode json(String base) throws Exception {
        return new ObjectMapper().readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/api/crawl-errors")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    private static Document html(String base) throws Exception {
        return Jsoup.parse(HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/crawl-errors")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }
}
