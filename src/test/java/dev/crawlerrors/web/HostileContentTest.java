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
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What a crawler (or an impostor) sent is shown as text everywhere, never run. */
class HostileContentTest {

    static final String URL = "/<script>alert('x')</script>?a=\"b\"&c=<img src=x onerror=alert(1)>";
    static final String METHOD = "=HYPERLINK(\"http://evil.example\",\"x\")";
    static final String AGENT = "Googlebot\" onmouseover=\"alert(1)";

    private DuckDbHitStore store;
    private ReportServer server;
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        store.close();
    }

    private String get(String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
    }

    private void serve() {
        server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC"))), store.health(), ServerConfig.on("127.0.0.1", 0));
    }

    @Test
    void showsHostileUrlsMethodsAndAgentsAsText() throws Exception {
        store = DuckDbHitStore.inMemory();
        Crawler crawler = new Crawler("Googlebot Desktop", "Google", BotType.crawler_search, List.of("Googlebot"), null, null, null);
        Hit hit = new Hit(Instant.parse("2025-05-14T10:00:00Z").toEpochMilli(), 0, "66.249.66.1", METHOD, URL, 404, 0,
                null, AGENT, 1.25, null);
        store.writer().append(List.of(new CrawlerHit(hit, crawler, new Verdict(Verification.unverified, "reason with <b>markup</b>"))));
        serve();

        String body = get("/crawl-errors");
        Document html = Jsoup.parse(body);
        assertThat(body).doesNotContain("<script>alert").doesNotContain("<img src=x").doesNotContain("<b>markup</b>");
        assertThat(html.select("#hits tbody td").eachText()).containsExactly(
                "2025-05-14T10:00", "66.249.66.1", METHOD, URL, "404", "1.3", "crawler_search", "unverified");
        assertThat(html.select("#hits tbody td.unverified").attr("title")).isEqualTo("reason with <b>markup</b>");

        String csv = get("/crawl-errors.csv");
        assertThat(csv.split("\r\n")[1]).isEqualTo("2025-05-14T10:00,66.249.66.1,\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\","
                + "\"/<script>alert('x')</script>?a=\"\"b\"\"&c=<img src=x onerror=alert(1)>\",404,1.3,crawler_search,unverified,Googlebot Desktop");

        JsonNode json = new ObjectMapper().readTree(get("/api/crawl-errors"));
        JsonNode row = json.get("rows").get(0);
        assertThat(row.get("url").asText()).isEqualTo(URL);
        assertThat(row.get("method").asText()).isEqualTo(METHOD);
        assertThat(row.get("userAgent").asText()).isEqualTo(AGENT);
    }

    private void storeHit(String url, String reason) {
        Crawler crawler = new Crawler("Googlebot Desktop", "Google", BotType.crawler_search, List.of("Googlebot"), null, null, null);
        Hit hit = new Hit(Instant.parse("2025-05-14T10:00:00Z").toEpochMilli(), 0, "66.249.66.1", "GET", url, 404, 0,
                null, "Googlebot/2.1", 1.25, null);
        store.writer().append(List.of(new CrawlerHit(hit, crawler, new Verdict(Verification.unverified, reason))));
    }

    @Test
    void showsARightToLeftOverrideAndInvisibleCharactersEscapedInTheHtmlAndTheCsv() throws Exception {
        store = DuckDbHitStore.inMemory();
        // shown raw, a U+202E before 'txt.exe' makes it read 'exe.txt', and a zero width space hides between two letters
        storeHit("/\u202Etxt.exe?a=b\u200Bc", "crawl-1.googlebot.com\u202E.evil.example");
        serve();

        Document html = Jsoup.parse(get("/crawl-errors"));
        String csv = get("/crawl-errors.csv");
        JsonNode json = new ObjectMapper().readTree(get("/api/crawl-errors"));

        assertThat(html.selectFirst("#hits tbody td.url").text()).isEqualTo("/\\u202Etxt.exe?a=b\\u200Bc");
        assertThat(html.selectFirst("#hits tbody td.unverified").attr("title")).isEqualTo("crawl-1.googlebot.com\\u202E.evil.example");
        assertThat(csv.split("\r\n")[1]).isEqualTo("2025-05-14T10:00,66.249.66.1,GET,/\\u202Etxt.exe?a=b\\u200Bc,404,1.3,crawler_search,unverified,Googlebot Desktop");
        // the API gives programs the value as it was requested
        assertThat(json.get("rows").get(0).get("url").asText()).isEqualTo("/\u202Etxt.exe?a=b\u200Bc");
    }

    @Test
    void patternsAndChartLabelsBuiltFromHostilePathsAreText() throws Exception {
        store = DuckDbHitStore.inMemory();
        for (int i = 0; i < 30; i++) {
            // paths whose segments become a pattern's text, and hosts that label the charts
            storeHit("/<script>alert(" + i + ")</script>/x\"><svg onload=alert(1)>/" + i, "not checked");
        }
        serve();

        for (String path : List.of("/crawl-errors/patterns", "/crawl-errors/overview")) {
            String body = get(path);
            assertThat(body).as(path).doesNotContain("<script>alert").doesNotContain("<svg onload").doesNotContain("\"><svg");
        }
        String patterns = get("/crawl-errors/patterns");
        assertThat(Jsoup.parse(patterns).text()).contains("<script>alert(");
    }

    @Test
    void quotesACsvCellHoldingASemicolonSoNoSpreadsheetSplitsItIntoAFormula() throws Exception {
        store = DuckDbHitStore.inMemory();
        storeHit("/a;=1+2", "not checked");
        serve();

        String csv = get("/crawl-errors.csv");

        assertThat(csv.split("\r\n")[1]).isEqualTo("2025-05-14T10:00,66.249.66.1,GET,\"/a;=1+2\",404,1.3,crawler_search,unverified,Googlebot Desktop");
    }

    @Test
    void aBadParameterIsEchoedWithItsControlsEscapedInEveryForm() throws Exception {
        store = DuckDbHitStore.inMemory();
        serve();
        String query = "?url=%1B%5D0%3BPWNED%07%E2%80%AE";
        String shown = "url must be a path prefix starting with '/'; got '\\x1B]0;PWNED\\x07\\u202E'";

        assertThat(get("/crawl-errors.csv" + query)).isEqualTo(shown + "\n");
        assertThat(new ObjectMapper().readTree(get("/api/crawl-errors" + query)).get("error").asText()).isEqualTo(shown);
        assertThat(Jsoup.parse(get("/crawl-errors" + query)).text()).contains(shown);
    }

    @Test
    void anEmptyStoreShowsPageOneWithZeroErrorHitsAndSaysNothingIsRecorded() throws Exception {
        store = DuckDbHitStore.inMemory();
        serve();

        Document html = Jsoup.parse(get("/crawl-errors"));
        JsonNode json = new ObjectMapper().readTree(get("/api/crawl-errors"));

        assertThat(html.selectFirst("#summary").text()).isEqualTo("0 error hits · page 1 of 1");
        assertThat(html.selectFirst("#empty").text()).startsWith("Nothing has been recorded yet");
        assertThat(html.select("#hits thead th")).hasSize(8);
        assertThat(json.get("total").asLong()).isZero();
        assertThat(json.get("pages").asInt()).isEqualTo(1);
        assertThat(json.get("rows")).isEmpty();
        assertThat(get("/crawl-errors.csv")).isEqualTo("Timestamp,IP,Method,URL,Status,Duration ms,Bot type,Verification,Crawler\r\n");
    }
}
