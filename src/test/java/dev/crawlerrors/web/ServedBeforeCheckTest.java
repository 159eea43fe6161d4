package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.report.UncountedFirstPageContract;
import dev.crawlerrors.store.DamagedStoreException;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * serve listens while it still checks its store's newest hits: a report request that comes in that
 * window waits for the check and is answered once it passed, is told to come back when it takes
 * longer than a request waits, and reads nothing when it failed (serve then stops).
 */
class ServedBeforeCheckTest {

    private static final Duration BOUND = Duration.ofSeconds(60);

    @Test
    void aRequestBeforeTheStoresCheckWaitsForItAndReadsNothingIfItFails() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(UncountedFirstPageContract.hits());
            store.writer().flush();
            CompletableFuture<Void> checked = new CompletableFuture<>();
            CompletableFuture<Void> failed = new CompletableFuture<>();
            CrawlErrorReport report = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC));
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0).withChecked(checked));
                 ReportServer refused = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0).withChecked(failed))) {
                // a check that outlasts a request's wait: come back later
                HttpResponse<String> early = get(server, "/api/crawl-errors");
                assertThat(early.statusCode()).isEqualTo(503);
                assertThat(early.body()).contains("still checking its store");
                assertThat(early.headers().firstValue("Retry-After")).isPresent();

                // one asked while the check runs is answered once it passed
                CompletableFuture<HttpResponse<String>> waiting = HttpClient.newHttpClient().sendAsync(request(server, "/crawl-errors"),
                        HttpResponse.BodyHandlers.ofString());
                checked.complete(null);
                assertThat(waiting.get(BOUND.toSeconds(), TimeUnit.SECONDS).statusCode()).isEqualTo(200);
                assertThat(get(server, "/api/crawl-errors").statusCode()).isEqualTo(200);

                failed.completeExceptionally(new DamagedStoreException("test.duckdb", "a row group cannot be read", null));
                HttpResponse<String> stopping = get(refused, "/api/crawl-errors");
                assertThat(stopping.statusCode()).isEqualTo(503);
                assertThat(stopping.body()).contains("its store could not be read").doesNotContain("\"rows\"");
            } finally {
                report.close();
            }
        }
    }

    private static HttpRequest request(ReportServer server, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).timeout(BOUND).build();
    }

    private static HttpResponse<String> get(ReportServer server, String path) throws Exception {
        return HttpClient.newHttpClient().send(request(server, path), HttpResponse.BodyHandlers.ofString());
    }
}
