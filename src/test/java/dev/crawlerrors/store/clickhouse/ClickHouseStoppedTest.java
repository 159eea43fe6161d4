package dev.crawlerrors.store.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.web.ReportServer;
import dev.crawlerrors.web.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A ClickHouse server that stops answering while the report is served: a 503 that says so, never a
 * 500, and within seconds when the server hangs rather than goes.
 */
@ClickHouseTest
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
            try (ReportServer server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC).withSummaryWait(Duration.ofSeconds(30))), store.health(), ServerConfig.on("127.0.0.1", 0))) {
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

    @Test
    void healthAndPagesAnswer503WithRetryAfterWithinFiveSecondsWhileClickHouseHangsAndAnswerAgainOnceItGoesOn() throws Exception {
        ClickHouseTestCluster own = ClickHouseTestCluster.ownServer();
        Verdict verified = new Verdict(Verification.verified, "test");
        try (ClickHouseHitStore store = ClickHouseHitStore.open(own.location("hangs"), ClickHouseSettings.SERVE)) {
            store.writer().append(List.of(ClickHouseHitStoreTest.hit("2025-05-14T10:00:05Z", "66.249.66.1", "/a", 404, verified)));
            try (ReportServer server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC).withSummaryWait(Duration.ofSeconds(30))), store.health(), ServerConfig.on("127.0.0.1", 0))) {
                assertThat(get(server, "/health").statusCode()).isEqualTo(200);

                own.pause(1);
                try {
                    for (String path : List.of("/health", "/api/crawl-errors?page=1&status=404", "/crawl-errors?status=4xx", "/health")) {
                        long started = System.nanoTime();
                        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
                        long millis = (System.nanoTime() - started) / 1_000_000;
                        assertThat(answer.statusCode()).as(path).isEqualTo(503);
                        assertThat(answer.headers().firstValue("Retry-After")).as(path).hasValue("10");
                        assertThat(answer.body()).as(path).contains("ClickHouse at http://127.0.0.1:" + own.shard(1).getPort() + " does not answer");
                        assertThat(millis).as(path + " answered after (ms)").isLessThan(5_000);
                    }
                } finally {
                    own.resume(1);
                }
                int status = 0;
                for (int attempt = 0; attempt < 100 && status != 200; attempt++) {
                    status = get(server, "/health").statusCode();
                    if (status != 200) {
                        Thread.sleep(100);
                    }
                }
                assertThat(status).as("once it goes on").isEqualTo(200);
                assertThat(get(server, "/api/crawl-errors?page=1").body()).contains("\"total\":1");
            }
        } finally {
            own.resume(1);
            own.stop();
        }
    }
}
