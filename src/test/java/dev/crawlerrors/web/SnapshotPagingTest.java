package dev.crawlerrors.web;

import static dev.crawlerrors.crawler.SampleHits.SPOOFED;
import static dev.crawlerrors.crawler.SampleHits.UNVERIFIED;
import static dev.crawlerrors.crawler.SampleHits.VERIFIED;
import static dev.crawlerrors.crawler.SampleHits.googlebot;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pages that stay put: every page of one snapshot shows the hits the store held at that snapshot,
 * with their verdicts as of it, however many hits arrive or verdicts change meanwhile; the real
 * store, the real server on loopback.
 */
class SnapshotPagingTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long START = Instant.parse("2026-10-14T08:00:00Z").toEpochMilli();

    @TempDir
    Path dir;

    private DuckDbHitStore store;
    private ReportServer server;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() {
        store = DuckDbHitStore.open(dir.resolve("hits.duckdb"));
        server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC)), store.health(), ServerConfig.on("127.0.0.1", 0));
    }

    @AfterEach
    void stop() {
        server.close();
        store.close();
    }

    @Test
    void everyPageOfASnapshotShowsItsHitsWhileHitsArriveAndVerdictsChange() throws Exception {
        List<CrawlerHit> first = new ArrayList<>();
        for (int i = 0; i < 550; i++) {
            first.add(googlebot(START + i * 10_000L, "66.249.66." + (1 + i % 10), "/p/" + i, 404, VERIFIED));
        }
        store.writer().append(first);
        store.writer().flush();
        JsonNode page1 = get("/api/crawl-errors?page=1");
        String at = page1.get("at").asText();
        assertThat(page1.get("total").asLong()).isEqualTo(550);
        assertThat(page1.get("newer").asBoolean()).isFalse();

        // hits newer and older than every hit there, a claim turned spoofed, another turned verified
        List<CrawlerHit> more = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            more.add(googlebot(START + 10_000_000L + i, "66.249.66.1", "/newer/" + i, 404, VERIFIED));
            more.add(googlebot(START - 10_000L - i, "66.249.66.2", "/older/" + i, 404, VERIFIED));
            more.add(googlebot(START + 2_000_000L + i, "66.249.66.30", "/middle/" + i, 404, UNVERIFIED));
        }
        store.writer().append(more);
        store.verdicts().update("66.249.66.3", "Googlebot Desktop", SPOOFED);
        store.verdicts().update("66.249.66.30", "Googlebot Desktop", new Verdict(VERIFIED.verification(), "PTR confirmed"));
        store.writer().flush();

        Set<String> seen = new HashSet<>();
        List<String> inOrder = new ArrayList<>();
        for (int page = 1; page <= 6; page++) {
            JsonNode json = get("/api/crawl-errors?page=" + page + "&at=" + at);
            assertThat(json.get("total").asLong()).isEqualTo(550);
            assertThat(json.get("pages").asInt()).isEqualTo(6);
            assertThat(json.get("at").asText()).isEqualTo(at);
            assertThat(json.get("newer").asBoolean()).isTrue();
            for (JsonNode row : json.get("rows")) {
                assertThat(seen.add(row.get("url").asText())).as("shown once: %s", row.get("url")).isTrue();
                inOrder.add(row.get("url").asText());
                // as of the snapshot, the claim later called spoofed was verified
                assertThat(row.get("verification").asText()).isEqualTo("verified");
            }
        }
        List<String> expected = new ArrayList<>();
        for (int i = 549; i >= 0; i--) {
            expected.add("/p/" + i);
        }
        assertThat(inOrder).containsExactlyElementsOf(expected);
        assertThat(get("/api/crawl-errors?page=1&at=" + at).get("rows")).isEqualTo(page1.get("rows"));

        // the fresh report: the new hits, less the 55 of the claim now spoofed
        JsonNode fresh = get("/api/crawl-errors?page=1");
        assertThat(fresh.get("total").asLong()).isEqualTo(550 + 180 - 55);
        assertThat(fresh.get("newer").asBoolean()).isFalse();
        assertThat(fresh.get("rows").get(0).get("url").asText()).isEqualTo("/newer/59");
        JsonNode middle = get("/api/crawl-errors?verification=verified&url=/middle/&page=1");
        assertThat(middle.get("total").asLong()).isEqualTo(60);
        assertThat(middle.get("rows").get(0).get("verificationReason").asText()).isEqualTo("PTR confirmed");
    }

    @Test
    void aReaderPagingThroughASnapshotWhileAWriterAppendsSeesEachOfItsHitsOnce() throws Exception {
        List<CrawlerHit> first = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            first.add(googlebot(START + i * 1_000L, "66.249.66." + (1 + i % 7), "/p/" + i, 308, VERIFIED));
        }
        store.writer().append(first);
        store.writer().flush();
        JsonNode page1 = get("/api/crawl-errors?page=1");
        String at = page1.get("at").asText();
        int pages = page1.get("pages").asInt();

        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger written = new AtomicInteger();
        Thread writer = Thread.ofPlatform().start(() -> {
            int n = 0;
            while (!stop.get() && n < 20_000) {
                List<CrawlerHit> batch = new ArrayList<>();
                for (int i = 0; i < 50; i++, n++) {
                    // spread over the same hours: they land between the snapshot's hits
                    batch.add(googlebot(START + (n * 7919L) % 2_000_000L, "66.249.66." + (1 + n % 9), "/new/" + n, 404,
                            n % 3 == 0 ? SPOOFED : VERIFIED));
                }
                store.writer().append(batch);
                store.verdicts().update("66.249.66." + (1 + n % 7), "Googlebot Desktop", n % 2 == 0 ? SPOOFED : VERIFIED);
                store.writer().flush();
                written.addAndGet(50);
            }
        });
        Set<String> seen = new HashSet<>();
        try {
            for (int page = 1; page <= pages; page++) {
                JsonNode json = get("/api/crawl-errors?page=" + page + "&at=" + at);
                assertThat(json.get("total").asLong()).isEqualTo(2_000);
                for (JsonNode row : json.get("rows")) {
                    assertThat(seen.add(row.get("url").asText())).isTrue();
                }
            }
        } finally {
            stop.set(true);
            writer.join();
        }
        assertThat(written.get()).as("the writer wrote while the pages were read").isPositive();
        assertThat(seen).hasSize(2_000).allMatch(url -> url.startsWith("/p/"));
    }

    @Test
    void aSnapshotThatIsNotOneOfTheStoresIsGoneWithALinkToTheFreshReport() throws Exception {
        store.writer().append(List.of(googlebot(START, "66.249.66.1", "/a", 404, VERIFIED)));
        store.writer().flush();

        HttpResponse<String> json = send("/api/crawl-errors?status=404&at=999999.1");
        assertThat(json.statusCode()).isEqualTo(410);
        assertThat(JSON.readTree(json.body()).get("fresh").asText()).isEqualTo("/crawl-errors?status=404");
        HttpResponse<String> html = send("/crawl-errors?status=404&at=999999.1&page=2");
        assertThat(html.statusCode()).isEqualTo(410);
        assertThat(html.body()).contains("can no longer be shown").contains("href=\"/crawl-errors?status=404\"");

        HttpResponse<String> bad = send("/api/crawl-errors?at=yesterday");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(bad.body()).get("parameter").asText()).isEqualTo("at");
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> response = send(path);
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private HttpResponse<String> send(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
