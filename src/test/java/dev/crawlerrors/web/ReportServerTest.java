package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.DemoFixture;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportColumns;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The real server on a free loopback port, over the demo imported into the real store. */
class ReportServerTest {

    @TempDir
    static Path dir;

    static DuckDbHitStore store;
    static ReportServer server;
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void start() throws Exception {
        store = DemoFixture.demoStore(dir);
        server = ReportServer.start(new CrawlErrorReport(store, ZoneId.of("UTC")), store, "127.0.0.1", 0,
                () -> List.of("common-crawlers.json: 1 prefix, created 2025-05-14T00:00:00, fetched 2026-11-21T10:00Z from http://lists.example/common-crawlers.json"));
    }

    @AfterAll
    static void stop() {
        server.close();
        store.close();
    }

    static HttpResponse<String> send(String method, String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> get(String path) throws Exception {
        return send("GET", path);
    }

    @Test
    void redirectsTheRootToTheReport() throws Exception {
        HttpResponse<String> response = get("/");

        assertThat(response.statusCode()).isBetween(301, 308);
        assertThat(response.headers().firstValue("Location")).contains("/crawl-errors");
    }

    @Test
    void servesTheReportPageWithItsHeaderLineAndColumns() throws Exception {
        HttpResponse<String> response = get("/crawl-errors?page=3");
        Document html = Jsoup.parse(response.body());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(html.title()).isEqualTo("Crawler Crawl Errors");
        assertThat(html.selectFirst("#summary").text()).isEqualTo("226 error hits · page 3 of 3");
        assertThat(html.select("#hits thead th").eachText()).isEqualTo(ReportColumns.LABELS);
        assertThat(html.select("#hits tbody tr")).hasSize(26);
        assertThat(html.text()).contains("Timestamps are local times in UTC");
        // the links carry the snapshot the page was read at
        assertThat(html.select("#previous").attr("href")).isEqualTo("/crawl-errors?page=2&at=" + store.snapshot().token());
        assertThat(html.select("#next")).isEmpty();
        assertThat(html.select("#sources li").eachText()).containsExactly(
                "common-crawlers.json: 1 prefix, created 2025-05-14T00:00:00, fetched 2026-11-21T10:00Z from http://lists.example/common-crawlers.json");
    }

    @Test
    void jsonHtmlAndCsvShowTheSameRows() throws Exception {
        List<List<String>> fromJson = new ArrayList<>();
        List<List<String>> fromHtml = new ArrayList<>();
        for (int page = 1; page <= 3; page++) {
            JsonNode json = JSON.readTree(get("/api/crawl-errors?page=" + page).body());
            assertThat(json.get("title").asText()).isEqualTo("Crawler Crawl Errors");
            assertThat(json.get("total").asLong()).isEqualTo(226);
            assertThat(json.get("page").asInt()).isEqualTo(page);
            assertThat(json.get("pages").asInt()).isEqualTo(3);
            assertThat(json.get("pageSize").asInt()).isEqualTo(100);
            for (JsonNode row : json.get("rows")) {
                fromJson.add(List.of(row.get("timestamp").asText(), row.get("ip").asText(), row.get("method").asText(),
                        row.get("url").asText(), row.get("status").asText(),
                        row.get("durationMs").isNull() ? "" : String.format(java.util.Locale.ROOT, "%.1f", row.get("durationMs").asDouble()),
                        row.get("botType").asText(), row.get("verification").asText()));
            }
            Document html = Jsoup.parse(get("/crawl-errors?page=" + page).body());
            for (Element tr : html.select("#hits tbody tr")) {
                fromHtml.add(tr.select("td").eachText());
            }
        }
        HttpResponse<String> csv = get("/crawl-errors.csv");
        List<String> lines = Arrays.asList(csv.body().split("\r\n"));
        List<List<String>> fromCsv = lines.subList(1, lines.size()).stream().map(l -> List.of(l.split(",", -1))).toList();

        assertThat(csv.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/csv"));
        assertThat(lines.get(0)).isEqualTo(String.join(",", ReportColumns.LABELS) + ",Crawler");
        assertThat(fromJson).hasSize(226);
        assertThat(fromHtml).isEqualTo(fromJson);
        // the spec's eight columns, then the crawler's name
        assertThat(fromCsv.stream().map(r -> r.subList(0, 8)).toList()).isEqualTo(fromJson);
        assertThat(fromCsv.stream().map(r -> r.get(8)).distinct().sorted().toList())
                .containsExactly("Google-InspectionTool", "Googlebot Desktop", "Googlebot Smartphone");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "abc", "1.5", "123456789012345678901234567890"})
    void answersABadPageWith400NamingPageInEveryFormat(String page) throws Exception {
        HttpResponse<String> html = get("/crawl-errors?page=" + page);
        HttpResponse<String> json = get("/api/crawl-errors?page=" + page);
        HttpResponse<String> csv = get("/crawl-errors.csv?page=" + page);

        assertThat(List.of(html.statusCode(), json.statusCode(), csv.statusCode())).containsOnly(400);
        assertThat(Jsoup.parse(html.body()).selectFirst("#error").text()).startsWith("page must be a whole number");
        assertThat(JSON.readTree(json.body()).get("parameter").asText()).isEqualTo("page");
        assertThat(csv.body()).startsWith("page must be a whole number");
    }

    @Test
    void answersAPagePastTheLastWith404SayingHowManyPagesExist() throws Exception {
        HttpResponse<String> html = get("/crawl-errors?page=4");
        HttpResponse<String> json = get("/api/crawl-errors?page=4");

        assertThat(html.statusCode()).isEqualTo(404);
        assertThat(Jsoup.parse(html.body()).selectFirst("#error").text()).isEqualTo("page 4 does not exist: the report has 3 pages");
        assertThat(json.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(json.body()).get("pages").asInt()).isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"POST", "PUT", "PATCH", "DELETE"})
    void refusesEveryMethodThatCouldChangeRecords(String method) throws Exception {
        for (String path : List.of("/", "/crawl-errors", "/api/crawl-errors", "/crawl-errors.csv")) {
            HttpResponse<String> response = send(method, path);

            assertThat(response.statusCode()).as(method + " " + path).isEqualTo(405);
            assertThat(response.headers().firstValue("Allow")).contains("GET, HEAD");
        }
        assertThat(store.size()).isEqualTo(720);
    }

    /**
     * The methods no client library sends for a read (OPTIONS, TRACE, WebDAV's, made-up ones) are
     * sent on a socket of their own, as a scanner sends them: each got 404 where 405 is promised.
     */
    @ParameterizedTest
    @ValueSource(strings = {"OPTIONS", "TRACE", "PROPFIND", "FOO"})
    void answersEveryOtherMethod405WithWhatIsAllowed(String method) throws Exception {
        for (String path : List.of("/", "/crawl-errors", "/api/crawl-errors", "/crawl-errors.csv", "/health", "/metrics")) {
            List<String> head = rawRequest(method, path);

            assertThat(head.get(0)).as(method + " " + path).isEqualTo("HTTP/1.1 405 Method Not Allowed");
            assertThat(head).as(method + " " + path).contains("Allow: GET, HEAD");
        }
        assertThat(rawRequest(method, "/no-such-page").get(0)).isEqualTo("HTTP/1.1 404 Not Found");
    }

    /** The status line and headers of {@code method path} sent over a plain socket. */
    private static List<String> rawRequest(String method, String path) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write((method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
            List<String> head = new ArrayList<>();
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                head.add(line);
            }
            return head;
        }
    }

    @Test
    void answersHeadLikeGetWithoutABody() throws Exception {
        HttpResponse<String> response = send("HEAD", "/api/crawl-errors?page=2");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
        assertThat(response.body()).isEmpty();
        assertThat(send("HEAD", "/crawl-errors?page=0").statusCode()).isEqualTo(400);
    }

    @Test
    void answersHeadOfTheRootWithTheRedirectGetGives() throws Exception {
        HttpResponse<String> head = send("HEAD", "/");
        HttpResponse<String> get = get("/");

        assertThat(head.statusCode()).isEqualTo(get.statusCode()).isEqualTo(302);
        assertThat(head.headers().firstValue("Location")).isEqualTo(get.headers().firstValue("Location")).contains("/crawl-errors");
    }

    @Test
    void answersHeadOfTheCsvWithItsHeadersWithoutReadingARow() throws Exception {
        List<String> reads = new ArrayList<>();
        HitStore counted = (HitStore) Proxy.newProxyInstance(HitStore.class.getClassLoader(), new Class<?>[] {HitStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("forEach") || method.getName().equals("page")) {
                        reads.add(method.getName());
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        try (ReportServer other = ReportServer.start(new CrawlErrorReport(counted, ZoneId.of("UTC")), counted, "127.0.0.1", 0)) {
            HttpRequest head = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + other.port() + "/crawl-errors.csv?status=4xx"))
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).build();
            HttpResponse<String> response = HTTP.send(head, HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/csv"));
            assertThat(response.headers().firstValue("Content-Disposition")).contains("attachment; filename=\"crawl-errors.csv\"");
            assertThat(response.body()).isEmpty();
            assertThat(reads).isEmpty();
        }
    }

    @Test
    void escapesWhatAUserTypedInTheErrorPage() throws Exception {
        HttpResponse<String> response = get("/crawl-errors?page=%3Cscript%3Ealert(1)%3C/script%3E");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).doesNotContain("<script>alert(1)</script>").contains("&lt;script&gt;");
    }

    @Test
    void keepsFiltersInPageLinksAndFiltersTheRows() throws Exception {
        Document html = Jsoup.parse(get("/crawl-errors?status=3xx").body());

        assertThat(html.selectFirst("#summary").text()).isEqualTo("202 error hits · page 1 of 3");
        assertThat(html.select("#next").attr("href")).isEqualTo("/crawl-errors?page=2&status=3xx&at=" + store.snapshot().token());
        JsonNode json = JSON.readTree(get("/api/crawl-errors?status=404&page=1").body());
        assertThat(json.get("total").asLong()).isEqualTo(24);
    }

    @Test
    void reportsHealthAndMetrics() throws Exception {
        assertThat(JSON.readTree(get("/health").body()).get("status").asText()).isEqualTo("ok");
        HttpResponse<String> metrics = get("/metrics");
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("crawl_errors_hits_stored 720.0");
    }
}
