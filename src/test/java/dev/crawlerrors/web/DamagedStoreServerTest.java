package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.StoreFixture;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.ZoneId;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server over a store whose file is damaged while it serves (800 KB zeroed, as a failing disk
 * leaves it): /health said ok, because it only counted the hits, which DuckDB knows from its
 * metadata, while every page answered 500 with DuckDB's "Data Corruption Error".
 */
class DamagedStoreServerTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(ReportServer server, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void healthAndEveryPageAnswer503WithTheDamageAndWhatToDo() throws Exception {
        Path file = StoreFixture.copyOfStoreOf(dir.resolve("store.duckdb"), 50_000);
        String damaged = "the store " + file + " is damaged: part of it fails its checksum";
        String whatToDo = "; restore it from a backup, or move it aside and import the logs again (they are the source of truth)";
        DuckDbHitStore store = DuckDbHitStore.open(file);
        try (ReportServer server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC"))), store.health(), ServerConfig.on("127.0.0.1", 0))) {
            StoreFixture.zero(file, 1 << 20, 800 * 1024);

            HttpResponse<String> health = get(server, "/health");
            HttpResponse<String> json = get(server, "/api/crawl-errors");
            HttpResponse<String> html = get(server, "/crawl-errors");
            HttpResponse<String> csv = get(server, "/crawl-errors.csv");
            HttpResponse<String> healthAgain = get(server, "/health");

            assertThat(health.statusCode()).isEqualTo(503);
            JsonNode body = JSON.readTree(health.body());
            assertThat(body.get("status").asInt()).isEqualTo(503);
            assertThat(body.get("error").asText()).startsWith(damaged).endsWith(whatToDo);
            assertThat(json.statusCode()).isEqualTo(503);
            assertThat(JSON.readTree(json.body()).get("error").asText()).startsWith(damaged).endsWith(whatToDo);
            assertThat(html.statusCode()).isEqualTo(503);
            assertThat(Jsoup.parse(html.body()).selectFirst("#error").text()).startsWith(damaged);
            assertThat(csv.statusCode()).isEqualTo(503);
            assertThat(csv.body()).startsWith(damaged);
            assertThat(healthAgain.statusCode()).isEqualTo(503);
        } finally {
            try {
                store.close();
            } catch (RuntimeException closing) {
                // closing a damaged store may fail too
            }
        }
    }
}
