package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.crawlerrors.ProcessTest;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A list host that starts answering an empty list while a store's verdicts rest on the good one:
 * {@code serve} refuses it loudly (a WARN line in its log, the list's line on the report page) and
 * keeps the copy it had, so the verified hits stay verified and in the report.
 */
@ProcessTest
class ServeListRefusalTest {

    private static final String GOOD = "{\"creationTime\":\"2026-11-20T00:00:00\",\"prefixes\":[{\"ipv4Prefix\":\"66.249.64.0/19\"},"
            + "{\"ipv4Prefix\":\"66.249.96.0/20\"},{\"ipv6Prefix\":\"2001:4860:4801:10::/64\"},{\"ipv6Prefix\":\"2001:4860:4801:12::/64\"}]}";
    private static final String EMPTY = "{\"creationTime\":\"2026-11-21T00:00:00\",\"prefixes\":[]}";

    @TempDir
    Path dir;

    private volatile String published = GOOD;
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aRefusedRefreshIsAWarningInServesLogAndOnThePageAndTheVerdictsStand() throws Exception {
        HttpServer host = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        host.createContext("/common-crawlers.json", exchange -> {
            byte[] body = published.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        host.start();
        String base = "http://127.0.0.1:" + host.getAddress().getPort() + "/";
        String url = base + "common-crawlers.json";
        Path db = dir.resolve("hits.duckdb");
        Path log = dir.resolve("access.log");
        Files.writeString(log, "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /antwerpen/meir HTTP/1.1\" 404 153 \"-\" "
                + "\"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)\"\n");
        try {
            CommandRun imported = CommandRun.of("import", "--db", db.toString(), "--ip-ranges", base, "--dns-server", "none", log.toString());
            assertThat(imported.exit()).isZero();
            assertThat(dir.resolve("hits.duckdb.ip-ranges/common-crawlers.json")).hasContent(GOOD);
            published = EMPTY;

            try (ServeProcess serve = ServeProcess.start(dir.resolve("serve.out"), "--db", db.toString(), "--port", "0",
                    "--dns-server", "none", "--ip-ranges", base, "--timezone", "UTC")) {
                List<String> sources = awaitSources(serve, "refresh refused");

                assertThat(sources).filteredOn(line -> line.startsWith("common-crawlers.json")).singleElement().asString()
                        .startsWith("common-crawlers.json: 4 prefixes, created 2026-11-20T00:00:00, fetched ")
                        .contains("; stale: refresh refused at ")
                        .contains(": common-crawlers.json from " + url + " lists no address prefixes (it is empty); using the copy fetched ");
                assertThat(serve.printed()).contains(" WARN dev.crawlerrors.crawler.verify.IpRangeSource - IP list common-crawlers.json:"
                        + " refresh refused at ");
                // verified by the import, or by serve's first re-check when the import handed it over
                JsonNode row = awaitVerified(serve);
                assertThat(row.get("ip").asText()).isEqualTo("66.249.66.1");
                assertThat(row.get("verification").asText()).isEqualTo("verified");
            }
        } finally {
            host.stop(0);
        }
    }

    /** The report page's list of what the verdicts rest on, once a line contains {@code text} (at most 30 s). */
    private List<String> awaitSources(ServeProcess serve, String text) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            List<String> sources = Jsoup.parse(get(serve, "/crawl-errors")).select("#sources li").eachText();
            if (sources.stream().anyMatch(line -> line.contains(text)) || System.nanoTime() - deadline > 0) {
                return sources;
            }
            Thread.sleep(50);
        }
    }

    /** The report's one row, once it is verified (at most 30 s). */
    private JsonNode awaitVerified(ServeProcess serve) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            JsonNode page = new ObjectMapper().readTree(get(serve, "/api/crawl-errors"));
            JsonNode row = page.get("rows").get(0);
            if ("verified".equals(row.get("verification").asText()) || System.nanoTime() - deadline > 0) {
                assertThat(page.get("total").asLong()).isEqualTo(1);
                return row;
            }
            Thread.sleep(100);
        }
    }

    private String get(ServeProcess serve, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(serve.base() + path)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
