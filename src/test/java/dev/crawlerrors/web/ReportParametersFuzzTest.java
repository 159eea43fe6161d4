package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.DemoFixture;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import dev.crawlerrors.text.ShownText;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;

/**
 * The report's query parameters, fuzzed against the real server over the demo in the real store:
 * whatever a request asks, in HTML, JSON or CSV, the answer is the report (200), a 400 whose message
 * names a parameter the request sent, or a 404 for a page past the last; never a 500.
 */
class ReportParametersFuzzTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final List<String> NAMES = List.of("page", "status", "bot", "crawler", "verification", "from", "to", "url", "host",
            "pattern", "at");

    private static Path dir;
    private static DuckDbHitStore store;
    private static ReportServer server;

    @BeforeContainer
    static void start() throws Exception {
        dir = Files.createTempDirectory("report-parameters-fuzz");
        store = DemoFixture.demoStore(dir);
        server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("Europe/Brussels"))), store.health(), ServerConfig.on("127.0.0.1", 0));
    }

    @AfterContainer
    static void stop() throws IOException {
        server.close();
        store.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    /** A parameter's name and value, as a request sends them. */
    record Parameter(String name, String value) {
        String encoded() {
            return URLEncoder.encode(name, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8);
        }
    }

    @Property(tries = 400)
    void everyQueryIsTheReportA400NamingOneOfItsParametersOrA404ForAPage(@ForAll("paths") String path,
            @ForAll("queries") List<Parameter> query) throws Exception {
        String uri = path + (query.isEmpty() ? "" : "?" + query.stream().map(Parameter::encoded).collect(Collectors.joining("&")));
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + uri)).build(),
                HttpResponse.BodyHandlers.ofString());
        List<String> names = query.stream().map(Parameter::name).distinct().toList();

        assertThat(response.statusCode()).as(uri + " answered " + response.body()).isIn(200, 302, 400, 404);
        if (response.statusCode() == 302) {
            // a field left blank, as a form sends it, is redirected away
            assertThat(query).as(uri).anyMatch(parameter -> parameter.value().isBlank());
            return;
        }
        String message = message(path, response);
        if (response.statusCode() == 400) {
            // as sent, or escaped as every page shows what a client typed (a NUL as \x00)
            assertThat(names).as(uri + ": '" + message + "' names a parameter it sent")
                    .anyMatch(name -> message.contains(name) || message.contains(ShownText.of(name)));
            if (path.startsWith("/api/")) {
                assertThat(names).as(uri).contains(JSON.readTree(response.body()).get("parameter").asText());
            }
        } else if (response.statusCode() == 404) {
            assertThat(names).as(uri).contains("page");
            assertThat(message).as(uri).matches("page \\d+ does not exist: the report has \\d+ pages?");
        }
    }

    /** What the answer says: the report's title on a 200, the error's message otherwise, in the form of the path. */
    private static String message(String path, HttpResponse<String> response) throws IOException {
        if (path.startsWith("/api/")) {
            JsonNode body = JSON.readTree(response.body());
            return response.statusCode() == 200 ? body.get("title").asText() : body.get("error").asText();
        }
        if (path.endsWith(".csv")) {
            return response.body().lines().findFirst().orElse("");
        }
        Element error = Jsoup.parse(response.body()).selectFirst("#error");
        return response.statusCode() == 200 ? Jsoup.parse(response.body()).title() : error == null ? "" : error.text();
    }

    @Provide
    Arbitrary<String> paths() {
        return Arbitraries.of(ReportLinks.HTML_PATH, ReportLinks.JSON_PATH, ReportLinks.CSV_PATH);
    }

    @Provide
    Arbitrary<List<Parameter>> queries() {
        Arbitrary<String> name = Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.of(NAMES)),
                Tuple.of(1, Arbitraries.strings().ofMinLength(1).ofMaxLength(12)));
        return name.flatMap(n -> values(n).map(v -> new Parameter(n, v))).list().ofMaxSize(5);
    }

    /** Values for {@code name}: good ones, near misses, edges of ranges, and arbitrary text. */
    private static Arbitrary<String> values(String name) {
        Arbitrary<String> typical = switch (name) {
            case "page" -> Arbitraries.of("1", "2", "3", "4", "0", "-1", "01", "2147483647", "2147483648", "99999999999", "1e3", " 1", "");
            case "status" -> Arbitraries.of("404", "4xx", "3xx", "5xx", "200", "2xx", "100", "599", "600", "99", "4XX", "404,301",
                    "40x", "", ",", "1xx");
            case "bot" -> Arbitraries.of("crawler_search", "crawler_ai", "all", "ALL", "fetcher_user", "crawler_search,crawler_ads", "nope");
            case "verification" -> Arbitraries.of("verified", "unverified", "spoofed", "Verified", "verified,spoofed", "");
            case "from", "to" -> Arbitraries.of("2025-05-14", "2025-05-14T09:31", "2025-05-14T09:31:02", "9999-12-31", "9999-12-31T23:59",
                    "0000-01-01", "0001-01-01", "2025-02-30", "2025-13-01", "+99999-01-01", "-0001-01-01", "2025-05-14T24:00",
                    "2025-03-30T02:30", "2025-10-26T02:30", "20250514", "");
            case "url" -> Arbitraries.of("/", "/antwerp", "/antwerp/meir", "antwerp", "/%", "/\u202Eexe", "//", "");
            default -> Arbitraries.of("", "x");
        };
        return Arbitraries.frequencyOf(Tuple.of(6, typical), Tuple.of(2, Arbitraries.strings().ofMaxLength(40)),
                Tuple.of(1, Arbitraries.strings().withCharRange('\u0000', '\u001F').ofMaxLength(8)),
                Tuple.of(1, Arbitraries.strings().numeric().ofMaxLength(25)));
    }

    /**
     * A query written by hand, not by an encoder: stray percents, halves of UTF-8, empty names. Sent
     * on a socket of its own, as a scanner sends it: Java's URI refuses to make such a request.
     */
    @Property(tries = 150)
    void aQueryThatIsNotWellEncodedIsNeverA500(@ForAll("paths") String path, @ForAll("rawQueries") String raw) throws Exception {
        String target = path + "?" + raw;
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String status = answer.isEmpty() ? "" : answer.substring(0, answer.indexOf('\r'));

            // 302: the page's form left a field blank (an empty piece between '&'s too), sent to the address without it
            assertThat(status).as(target + " answered " + answer).isIn("HTTP/1.1 200 OK", "HTTP/1.1 302 Found", "HTTP/1.1 400 Bad Request",
                    "HTTP/1.1 404 Not Found");
        }
    }

    @Provide
    Arbitrary<String> rawQueries() {
        Arbitrary<String> piece = Arbitraries.of("page=1", "page=%", "page=%2", "page=%zz", "status=%34%30%34", "url=%2F%E2%80",
                "url=%C0%AF", "=x", "&", "&&", "page", "page=", "status=4xx%00", "from=2025-05-14%20", "url=/a%2Fb", "%ZZ=1",
                "bot=crawler_search%2Ccrawler_ai", "page=1&page=2", "to=%2B99999-01-01");
        return piece.list().ofMinSize(1).ofMaxSize(4).map(pieces -> String.join("&", pieces));
    }
}
