package dev.crawlerrors.web;

import static dev.crawlerrors.crawler.SampleHits.VERIFIED;
import static dev.crawlerrors.crawler.SampleHits.googlebot;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.Waits;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many readers, bounded work: report requests beyond the server's readers wait for a moment, then
 * are told to come back (503 with Retry-After), and the server answers again once a place is free.
 */
class ReadGateTest {

    @TempDir
    Path dir;

    @Test
    void aRequestBeyondTheReadersGets503WithRetryAfterAndTheNextOneIsAnswered() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"))) {
            List<CrawlerHit> hits = new ArrayList<>();
            String longPath = "/" + "x".repeat(400) + "/";
            for (int i = 0; i < 20_000; i++) {
                hits.add(googlebot(1_790_000_000_000L + i * 1_000L, "66.249.66." + (1 + i % 50), longPath + i, 404, VERIFIED));
            }
            store.writer().append(hits);
            store.writer().flush();
            ReportServer server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC)), store.health(), ServerConfig.on("127.0.0.1", 0).withReaders(1));
            HttpClient http = HttpClient.newHttpClient();
            URI page = URI.create("http://127.0.0.1:" + server.port() + "/api/crawl-errors?page=1");
            try (Socket slow = new Socket("127.0.0.1", server.port())) {
                // a CSV of 10 MB read by nobody: its request holds the only reader's place while the
                // server waits for the socket to drain
                slow.setReceiveBufferSize(4096);
                OutputStream out = slow.getOutputStream();
                out.write(("GET /crawl-errors.csv HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = slow.getInputStream();
                assertThat(new String(in.readNBytes(12), StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 200");

                long started = System.nanoTime();
                HttpResponse<String> busy = http.send(HttpRequest.newBuilder(page).timeout(Duration.ofSeconds(30)).build(),
                        HttpResponse.BodyHandlers.ofString());
                long waited = (System.nanoTime() - started) / 1_000_000;

                assertThat(busy.statusCode()).isEqualTo(503);
                assertThat(busy.headers().firstValue("Retry-After")).hasValue("1");
                assertThat(busy.body()).contains("the report is busy");
                assertThat(waited).as("it waited its turn before being told").isGreaterThanOrEqualTo(ReportServer.READ_WAIT.toMillis() - 100);
            }
            // the slow reader is gone: its place is free again
            Waits.await("the page answered again").untilAsserted(() -> assertThat(http.send(HttpRequest.newBuilder(page)
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200));
            server.close();
        }
    }
}
