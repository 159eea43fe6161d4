package dev.crawlerrors.store.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.web.ReportServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A ClickHouse server that stops answering while the report is served: a 503 that says so, never a 500. */
class ClickHouseStoppedTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static HttpResponse<String> get(ReportServer server, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void pagesAnswer503WithRetryAfterNamingTheServerWhenClickHouseStops() throws Exception {
        ClickHouseTestCluster own = ClickHouseTestCluster.ownServer();
        Verdict verified = new Verdict(Verification.verified, "test");
        try (ClickHouseHitStore store = ClickHouseHitStore.open(own.location("stops"), ClickHouseSettings.SERVE)) {
            store.writer().append(List.of(
                    ClickHouseHitStoreTest.hit("2025-05-14T10:00:05Z", "66.249.66.1", "/a", 404, verified),
                    ClickHouseHitStoreTest.hit("2025-05-14T10:03:00Z", "66.249.66.2", "/b", 410, verified)));
            try (ReportServer server = ReportServer.start(new CrawlErrorReport(store.reader(), ZoneOffset.UTC, List.of(), Duration.ofSeconds(30)),
                    store.health(), "127.0.0.1", 0)) {
                assertThat(get(server, "/api/crawl-errors?page=1").statusCode()).isEqualTo(200);

                own.stop();

                for (String path : List.of("/api/crawl-errors?page=1&status=404", "/crawl-errors?status=410")) {
                    HttpResponse<String> page = get(server, path);
                    assertThat(page.statusCode()).as(path).isEqualTo(503);
                    assertThat(page.headers().firstValue("Retry-After")).as(path).hasValue("10");
                    assertThat(page.body()).as(path).contains("cannot reach ClickHouse at http://127.0.0.1:" + own.shard(1).getPort());
                }
                assertThat(get(server, "/health").statusCode()).isEqualTo(503);
            }
        } finally {
            own.stop();
        }
    }
}
