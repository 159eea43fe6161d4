package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An exploit probe (by its path or its user agent) is said to be one wherever the report shows it:
 * its rows, its hit's page, its URL pattern; a missing robots.txt is its own pattern.
 */
class ProbesShownTest {

    private static final String SHELLSHOCK = "() { :;};/usr/bin/perl -e 'print \"Content-Type: text/plain\\r\\n\\r\\nXSUCCESS!\";'";
    private static final Crawler GOOGLEBOT = new Crawler("Googlebot Desktop", "Google", BotType.crawler_search, List.of("Googlebot"),
            null, null, null);
    private static final Crawler SCANNER = new Crawler("Generic Bot", "", BotType.security_scanner, List.of("bot"), null, null, null);

    static DuckDbHitStore store;
    static ReportServer server;
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void serve() {
        long t = Instant.parse("2025-05-14T10:00:00Z").toEpochMilli();
        store = DuckDbHitStore.inMemory();
        store.writer().append(List.of(
                hit(t, "66.249.66.1", "/about-us", "Googlebot", GOOGLEBOT),
                hit(t + 1_000, "66.249.66.1", "/robots.txt", "Googlebot", GOOGLEBOT),
                hit(t + 2_000, "203.0.113.7", "/cgi-bin/test.cgi", SHELLSHOCK, SCANNER),
                hit(t + 3_000, "203.0.113.7", "/cgi-bin/status", SHELLSHOCK, SCANNER),
                hit(t + 3_500, "203.0.113.7", "/cgi-bin/bash", SHELLSHOCK, SCANNER),
                hit(t + 4_000, "203.0.113.8", "/index.php", SHELLSHOCK, SCANNER)));
        server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC"))), store.health(), ServerConfig.on("127.0.0.1", 0));
    }

    private static CrawlerHit hit(long millis, String ip, String url, String agent, Crawler crawler) {
        Hit hit = new Hit(millis, 0, ip, "GET", url, 404, 0, null, agent, 1.0, null);
        return new CrawlerHit(hit, crawler, new Verdict(Verification.unverified, "test"));
    }

    @AfterAll
    static void stop() {
        server.close();
        store.close();
    }

    private static String get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void theReportsRowsMarkProbesByPathOrAgent() throws Exception {
        Document html = Jsoup.parse(get("/crawl-errors?bot=all"));

        Map<String, String> probes = new LinkedHashMap<>();
        html.select("#hits tbody td.url").forEach(td -> probes.put(td.ownText(), td.select(".probe").attr("title")));
        assertThat(probes).containsExactly(
                Map.entry("/index.php", "An exploit probe (Shellshock): a scanner trying a known hole, not a link of the site; ignore, or"
                        + " block the address."),
                Map.entry("/cgi-bin/bash", "An exploit probe (CGI scripts): a scanner trying a known hole, not a link of the site;"
                        + " ignore, or block the address."),
                Map.entry("/cgi-bin/status", "An exploit probe (CGI scripts): a scanner trying a known hole, not a link of the site;"
                        + " ignore, or block the address."),
                Map.entry("/cgi-bin/test.cgi", "An exploit probe (CGI scripts): a scanner trying a known hole, not a link of the site;"
                        + " ignore, or block the address."),
                Map.entry("/robots.txt", ""),
                Map.entry("/about-us", ""));
    }

    @Test
    void aProbesOwnPageSaysWhatItIs() throws Exception {
        JsonNode page = new ObjectMapper().readTree(get("/api/crawl-errors?bot=all"));
        long id = page.get("rows").get(0).get("id").asLong();

        assertThat(Jsoup.parse(get("/crawl-errors/hits/" + id)).selectFirst("#probe").text())
                .isEqualTo("probe An exploit probe (Shellshock): a scanner trying a known hole, not a link of the site; ignore, or block"
                        + " the address.");
        assertThat(new ObjectMapper().readTree(get("/api/crawl-errors/hits/" + id)).get("probe").asText()).startsWith("An exploit probe");
    }

    @Test
    void thePatternsOfProbesAndOfRobotsTxtSayWhatTheyAre() throws Exception {
        JsonNode patterns = new ObjectMapper().readTree(get("/api/crawl-errors/patterns?bot=all")).get("patterns");

        Map<String, String> kinds = new LinkedHashMap<>();
        patterns.forEach(p -> kinds.put(p.get("pattern").asText(), p.get("diagnosis").get("kind").asText()));
        assertThat(kinds).containsOnly(Map.entry("/cgi-bin/{1}", "probe"), Map.entry("/robots.txt", "robots_missing"),
                Map.entry("/about-us", "not_found"), Map.entry("/index.php", "probe"));
    }
}
