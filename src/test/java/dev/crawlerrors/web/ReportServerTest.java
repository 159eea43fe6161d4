package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.DemoFixture;
import dev.crawlerrors.demo.DemoLog;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportColumns;
import dev.crawlerrors.report.ReportConfig;
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
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
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
        // waits for the summary as long as a test may take: a loaded machine must not leave it out
        server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC")).withUrlNames(List.of(DemoLog.URL_NAMES)).withSummaryWait(Duration.ofSeconds(30))), store.health(), ServerConfig.on("127.0.0.1", 0).withEvidence(() -> List.of("common-crawlers.json: 1 prefix, created 2025-05-14T00:00:00, fetched 2026-11-21T10:00Z from http://lists.example/common-crawlers.json")));
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
        assertThat(html.select("#previous").attr("href")).isEqualTo("/crawl-errors?page=2&at=" + store.reader().snapshot().token());
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
        for (String path : List.of("/", "/crawl-errors", "/api/crawl-errors", "/crawl-errors.csv", "/crawl-errors/patterns",
                "/api/crawl-errors/patterns", "/crawl-errors/overview", "/api/crawl-errors/overview", "/crawl-errors/hits/1",
                "/api/crawl-errors/hits/1")) {
            HttpResponse<String> response = send(method, path);

            assertThat(response.statusCode()).as(method + " " + path).isEqualTo(405);
            assertThat(response.headers().firstValue("Allow")).contains("GET, HEAD");
        }
        assertThat(store.health().size()).isEqualTo(720);
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
    void sendsAReportPageWithItsLengthPlainOrGzippedAndItsRowsWithoutALabelInEachCell() throws Exception {
        for (String path : List.of("/crawl-errors?page=1", "/api/crawl-errors?page=1", "/crawl-errors?page=2")) {
            for (boolean gzip : new boolean[] {false, true, false}) {
                HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
                if (gzip) {
                    request.header("Accept-Encoding", "gzip");
                }
                HttpResponse<byte[]> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());

                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.headers().firstValue("Content-Encoding")).isEqualTo(gzip ? Optional.of("gzip") : Optional.empty());
                assertThat(response.headers().firstValueAsLong("Content-Length")).as(path + (gzip ? " gzipped" : ""))
                        .hasValue(response.body().length);
                assertThat(send("HEAD", path).headers().firstValueAsLong("Content-Length")).as("HEAD " + path)
                        .hasValue(gzip ? get(path).body().getBytes(StandardCharsets.UTF_8).length : response.body().length);
            }
        }
        Document html = Jsoup.parse(get("/crawl-errors?page=1").body());
        assertThat(html.select("#hits tbody tr")).hasSize(100);
        assertThat(html.select("#hits tbody td[data-label]")).isEmpty();
        assertThat(html.select("style").html()).contains("#hits td:nth-child(5)::before { content: \"Status\"; }");
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
        try (ReportServer other = ReportServer.start(new CrawlErrorReport(counted.reader(), ReportConfig.in(ZoneId.of("UTC"))), counted.health(), ServerConfig.on("127.0.0.1", 0))) {
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
        assertThat(html.select("#next").attr("href")).isEqualTo("/crawl-errors?page=2&status=3xx&at=" + store.reader().snapshot().token());
        JsonNode json = JSON.readTree(get("/api/crawl-errors?status=404&page=1").body());
        assertThat(json.get("total").asLong()).isEqualTo(24);
    }

    @Test
    void reportsHealthAndMetrics() throws Exception {
        assertThat(JSON.readTree(get("/health").body()).get("status").asText()).isEqualTo("ok");
        HttpResponse<String> metrics = get("/metrics");
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("crawl_errors_hits_stored 720.0").contains("crawl_errors_count_cube_bytes ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/crawl-errors", "/api/crawl-errors", "/crawl-errors.csv", "/crawl-errors/patterns",
            "/api/crawl-errors/patterns", "/crawl-errors/overview", "/api/crawl-errors/overview"})
    void answersAMisspeltParameterWith400NamingItAndWhatThePageTakes(String path) throws Exception {
        HttpResponse<String> response = get(path + "?stauts=404");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(message(path, response)).startsWith("unknown parameter 'stauts' (did you mean status?); this page takes ")
                .contains("status, bot, crawler, verification, from, to, url, host, pattern");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/crawl-errors", "/crawl-errors.csv", "/api/crawl-errors/patterns", "/api/crawl-errors/overview"})
    void takesAnEmptyPieceBetweenAmpersandsForNoParameter(String path) throws Exception {
        HttpResponse<String> trailing = get(path + "?status=404&");
        HttpResponse<String> doubled = get(path + "?&status=404&&");
        HttpResponse<String> nameless = get(path + "?=404");

        assertThat(trailing.statusCode()).as(trailing.body()).isEqualTo(200);
        assertThat(doubled.statusCode()).as(doubled.body()).isEqualTo(200);
        assertThat(nameless.statusCode()).as("a value with no name is still a mistake").isEqualTo(400);
    }

    @Test
    void answersAnOverLongAddressUnderTheApiWith414InJson() throws Exception {
        HttpResponse<String> response = get("/api/crawl-errors?url=/" + "a".repeat(20_000));

        assertThat(response.statusCode()).isEqualTo(414);
        assertThat(response.headers().firstValue("Content-Type")).contains("application/json; charset=utf-8");
        assertThat(JSON.readTree(response.body()).get("error").asText()).isEqualTo("the request's address is longer than this server"
                + " takes (8 KiB with its headers); ask with fewer or shorter filters");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/crawl-errors", "/api/crawl-errors", "/crawl-errors.csv", "/crawl-errors/patterns",
            "/api/crawl-errors/patterns", "/crawl-errors/overview", "/api/crawl-errors/overview"})
    void answersAStatusBelowTheErrorThresholdWith400(String path) throws Exception {
        for (String status : List.of("200", "2xx")) {
            HttpResponse<String> response = get(path + "?status=" + status);

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(message(path, response)).isEqualTo("status must be an error status, 300 or above (such as 404, 3xx or 5xx): the"
                    + " report lists error hits only; got '" + status + "'");
        }
    }

    /** The message of an error answer, in the form its path speaks. */
    private static String message(String path, HttpResponse<String> response) throws Exception {
        if (path.startsWith("/api/")) {
            JsonNode json = JSON.readTree(response.body());
            assertThat(json.get("status").asInt()).isEqualTo(400);
            return json.get("error").asText();
        }
        if (path.endsWith(".csv")) {
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
            return response.body().strip();
        }
        return Jsoup.parse(response.body()).selectFirst("#error").text();
    }

    @Test
    void showsTheTotalByStatusAndTheSpoofedHitsLeftOutEachALinkToItsHits() throws Exception {
        Document html = Jsoup.parse(get("/crawl-errors").body());
        // every link is read at the page's snapshot, as its page links are
        String at = JSON.readTree(get("/api/crawl-errors").body()).get("at").asText();

        assertThat(html.selectFirst("#by-status").text()).isEqualTo("142 × 308 · 60 × 304 · 24 × 404");
        assertThat(html.select("#by-status a").eachAttr("href")).containsExactly(
                "/crawl-errors?status=308&at=" + at, "/crawl-errors?status=304&at=" + at, "/crawl-errors?status=404&at=" + at);
        assertThat(html.selectFirst("#spoofed").text())
                .isEqualTo("14 spoofed hits left out: they claimed to be a crawler but did not come from it. Show them");
        assertThat(html.selectFirst("#spoofed a").attr("href")).isEqualTo("/crawl-errors?verification=spoofed&at=" + at);
        assertThat(html.select("#timeline a")).hasSize(24);
        assertThat(html.select("#timeline a").first().attr("href"))
                .isEqualTo("/crawl-errors?from=2025-05-13T22%3A00&to=2025-05-13T22%3A59&at=" + at);

        Document spoofed = Jsoup.parse(get("/crawl-errors?verification=spoofed").body());
        assertThat(spoofed.selectFirst("#summary").text()).isEqualTo("14 error hits · page 1 of 1");
        assertThat(spoofed.select("#spoofed")).isEmpty();
    }

    @Test
    void keepsEveryFilterInEveryLinkAndShowsEachAsAChipThatTakesItOff() throws Exception {
        Document html = Jsoup.parse(get("/crawl-errors?status=3xx&bot=crawler_search&url=%2Fantwerp%2F").body());
        String at = "&at=" + JSON.readTree(get("/api/crawl-errors").body()).get("at").asText();

        assertThat(html.select("#chips a").eachText()).containsExactly("status: 3xx ×", "bot: crawler_search ×",
                "url: /antwerp/ ×");
        assertThat(html.select("#chips a").eachAttr("href")).containsExactly(
                "/crawl-errors?bot=crawler_search&url=%2Fantwerp%2F" + at, "/crawl-errors?status=3xx&url=%2Fantwerp%2F" + at,
                "/crawl-errors?status=3xx&bot=crawler_search" + at);
        assertThat(html.selectFirst("#nav-patterns").attr("href"))
                .isEqualTo("/crawl-errors/patterns?status=3xx&bot=crawler_search&url=%2Fantwerp%2F" + at);
        assertThat(html.selectFirst("#nav-overview").attr("href"))
                .isEqualTo("/crawl-errors/overview?status=3xx&bot=crawler_search&url=%2Fantwerp%2F" + at);
        assertThat(html.select("#by-status a").eachAttr("href")).allMatch(href -> href.endsWith("&bot=crawler_search&url=%2Fantwerp%2F" + at));
        assertThat(html.select("#filters input[name=status]").attr("value")).isEqualTo("3xx");
        assertThat(html.select("#filters input[name=bot][checked]").eachAttr("value")).containsExactly("crawler_search");
        assertThat(html.select("#filters input[name=url]").attr("value")).isEqualTo("/antwerp/");
    }

    @Test
    void sendsAFormWithBlankFieldsToTheAddressOfTheFiltersInUse() throws Exception {
        HttpResponse<String> response = get("/crawl-errors?status=&bot=crawler_inspection_tool&from=&to=&url=&host=&crawler=");

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(response.headers().firstValue("Location")).contains("/crawl-errors?bot=crawler_inspection_tool");
    }

    @Test
    void servesThePatternsEachLinkingToTheReportFilteredToIt() throws Exception {
        Document html = Jsoup.parse(get("/crawl-errors/patterns").body());
        JsonNode json = JSON.readTree(get("/api/crawl-errors/patterns").body());

        assertThat(html.selectFirst("#summary").text()).isEqualTo("226 error hits in 6 patterns");
        assertThat(html.select("#patterns a.pattern").eachText()).containsExactly("/{city}/{street}", "/{city}/{street}/",
                "/{city}/{street}/{section}", "/{city}/straten/{letter}", "/{city}/{street}/{section}/", "/{city}/parkeren");
        assertThat(json.get("total").asLong()).isEqualTo(226);
        assertThat(json.get("patterns")).hasSize(6);
        for (JsonNode pattern : json.get("patterns")) {
            String report = pattern.get("report").asText();
            JsonNode page = JSON.readTree(get(report.replace("/crawl-errors?", "/api/crawl-errors?")).body());
            assertThat(page.get("total").asLong()).as(report).isEqualTo(pattern.get("hits").asLong());
            assertThat(get(report.replace("/crawl-errors?", "/crawl-errors.csv?")).body().split("\r\n")).hasSize(pattern.get("hits").asInt() + 1);
        }
        Document parking = Jsoup.parse(get("/crawl-errors?pattern=%2F%7Bcity%7D%2Fparkeren").body());
        assertThat(parking.selectFirst("#summary").text()).isEqualTo("2 error hits · page 1 of 1");
        assertThat(parking.select("#chips a").eachText()).containsExactly("pattern: /{city}/parkeren ×");
        assertThat(parking.select("#filters input[type=hidden][name=pattern]").attr("value")).isEqualTo("/{city}/parkeren");
    }

    @Test
    void servesTheOverviewEachChartLinkingIntoTheReport() throws Exception {
        Document html = Jsoup.parse(get("/crawl-errors/overview").body());
        JsonNode json = JSON.readTree(get("/api/crawl-errors/overview").body());

        assertThat(html.selectFirst("#summary").text()).isEqualTo("226 error hits");
        assertThat(html.select("#timeline text").eachText()).contains("error hits", "hour (UTC)", "0", "10", "20");
        assertThat(html.select("#rate text").eachText()).contains("error rate", "0%", "30%", "60%");
        // the links carry the snapshot the figures were counted at, so each shows the hits it counted
        String at = "&at=" + json.get("at").asText();
        assertThat(html.select("#by-status a").eachAttr("href")).containsExactly(
                "/crawl-errors?status=308" + at, "/crawl-errors?status=304" + at, "/crawl-errors?status=404" + at);
        assertThat(html.select("#by-crawler a").eachAttr("href")).contains("/crawl-errors?crawler=Google-InspectionTool" + at);
        assertThat(html.select("#by-bot-type a").eachAttr("href")).contains("/crawl-errors?bot=crawler_inspection_tool" + at);
        assertThat(html.select("#durations tbody td:first-child").eachText()).containsExactly("all", "304", "308", "404");
        assertThat(json.get("total").asLong()).isEqualTo(226);
        assertThat(json.get("interval").asText()).isEqualTo("hour");
        assertThat(json.get("spoofedLeftOut").asLong()).isEqualTo(14);
        long timeline = 0;
        long crawlerHits = 0;
        for (JsonNode bucket : json.get("timeline")) {
            timeline += bucket.get("errorHits").asLong();
            crawlerHits += bucket.get("crawlerHits").asLong();
        }
        assertThat(timeline).isEqualTo(226);
        assertThat(crawlerHits).as("every crawler hit not spoofed: 706 verified").isEqualTo(706);
        JsonNode days = JSON.readTree(get("/api/crawl-errors/overview?interval=day").body());
        assertThat(days.get("timeline")).extracting(b -> b.get("start").asText()).containsExactly("2025-05-13", "2025-05-14");
        JsonNode durations = json.get("durations").get(0);
        assertThat(durations.get("status").asText()).isEqualTo("all");
        assertThat(durations.get("hits").asLong()).isEqualTo(226);
        // read from buckets 1% wide: three significant digits, not a tenth of a millisecond it cannot tell
        assertThat(durations.get("p50").asDouble()).isEqualTo(0.206);
    }

    @Test
    void showsOneHitWithItsCrawlerAgentAndEvidence() throws Exception {
        JsonNode json = JSON.readTree(get("/api/crawl-errors?page=1").body());
        JsonNode row = json.get("rows").get(0);
        Document page = Jsoup.parse(get("/crawl-errors").body());
        String link = page.selectFirst("#hits tbody tr td.verified a").attr("href");

        assertThat(link).isEqualTo("/crawl-errors/hits/" + row.get("id").asLong() + "?at=" + json.get("at").asText());
        Document hit = Jsoup.parse(get(link).body());
        assertThat(hit.selectFirst("#url").text()).isEqualTo(row.get("url").asText());
        assertThat(hit.selectFirst("#crawler").text()).isEqualTo(row.get("crawler").asText());
        assertThat(hit.selectFirst("#user-agent").text()).isEqualTo(row.get("userAgent").asText());
        assertThat(hit.selectFirst("#reason").text()).isEqualTo("in common-crawlers.json 66.249.66.0/24 (created 2025-05-14)");
        assertThat(JSON.readTree(get("/api/crawl-errors/hits/" + row.get("id").asLong()).body()).get("row").get("url").asText())
                .isEqualTo(row.get("url").asText());
        assertThat(get("/crawl-errors/hits/999999").statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(get("/api/crawl-errors/hits/abc").body()).get("parameter").asText()).isEqualTo("id");
        assertThat(get("/crawl-errors/hits/1?x=1").statusCode()).isEqualTo(400);
    }
}
