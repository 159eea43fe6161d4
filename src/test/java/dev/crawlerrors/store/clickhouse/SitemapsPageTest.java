package dev.crawlerrors.store.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.cli.DemoCommand;
import dev.crawlerrors.demo.DemoLog;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import dev.crawlerrors.web.ReportServer;
import dev.crawlerrors.web.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's site with its sitemap (the street and section pages listed without their final slash,
 * which the site redirects) served over HTTP from DuckDB and from a two-shard ClickHouse cluster:
 * the sitemaps page, the patterns' sitemap counts and diagnosis, and each error hit's
 * {@code inSitemap} say the same, exactly, from both.
 */
@ClickHouseTest
class SitemapsPageTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static DuckDbHitStore embedded;
    static ClickHouseHitStore clickHouse;
    static ReportServer embeddedServer;
    static ReportServer clickHouseServer;

    @BeforeAll
    static void importTheDemoWithItsSitemapIntoBoth() throws Exception {
        DemoCommand.Demo demo = DemoCommand.Demo.prepare(dir);
        embedded = DuckDbHitStore.open(demo.db());
        demo.importInto(embedded);
        demo.readSitemap(embedded, notice -> { });
        clickHouse = ClickHouseHitStore.open(ClickHouseTestCluster.twoShards().location(ClickHouseTestCluster.database("sitemaps_page")),
                ClickHouseSettings.SERVE);
        demo.importInto(clickHouse);
        demo.readSitemap(clickHouse, notice -> { });
        embeddedServer = serve(embedded);
        clickHouseServer = serve(clickHouse);
    }

    private static ReportServer serve(HitStore store) {
        return ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC")).withUrlNames(List.of(DemoLog.URL_NAMES)).withSummaryWait(Duration.ofSeconds(30))), store.health(), ServerConfig.on("127.0.0.1", 0));
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable closing : new AutoCloseable[] {embeddedServer, clickHouseServer, embedded, clickHouse}) {
            try {
                if (closing != null) {
                    closing.close();
                }
            } catch (Exception e) {
                // the others still close
            }
        }
    }

    private static HttpResponse<String> get(ReportServer server, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(ReportServer server, String path) throws Exception {
        HttpResponse<String> response = get(server, path);
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    @Test
    void countsEachSitemapsUrlsByWhatTheCrawlersLastGotTheSameFromBothStores() throws Exception {
        JsonNode page = json(embeddedServer, "/api/crawl-errors/sitemaps");
        JsonNode sitemap = page.get("sitemaps").get(0);

        assertThat(sitemap.get("url").asText()).endsWith("sitemap.xml");
        assertThat(sitemap.get("readAt").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d");
        // 5 city pages, 30 streets and their 4 sections each, all without the final slash
        assertThat(sitemap.get("urls").asLong()).isEqualTo(155);
        assertThat(sitemap.get("ok").asLong()).isZero();
        assertThat(sitemap.get("broken").asLong()).isZero();
        assertThat(sitemap.get("redirected").asLong()).isEqualTo(53);
        assertThat(sitemap.get("neverFetched").asLong()).isEqualTo(102);
        assertThat(page.get("crawler").asText()).isEqualTo("Googlebot");
        assertThat(page.get("recentTo").asText()).startsWith("2025-05-14T");
        assertThat(page.get("neverFetchedRecent").asLong()).isEqualTo(102);
        assertThat(page.get("neverFetchedRecently").get(0).get("url").asText()).isEqualTo("/antwerp/");
        // the URLs crawled most that no sitemap lists: the slash forms the redirects lead to
        assertThat(page.get("offMap").get(0).get("url").asText()).endsWith("/");

        JsonNode fromClickHouse = json(clickHouseServer, "/api/crawl-errors/sitemaps");
        assertThat(withoutSnapshot(fromClickHouse)).isEqualTo(withoutSnapshot(page));
    }

    private static JsonNode withoutSnapshot(JsonNode page) {
        com.fasterxml.jackson.databind.node.ObjectNode copy = page.deepCopy();
        copy.remove("at");
        ((com.fasterxml.jackson.databind.node.ObjectNode) copy.get("sitemaps").get(0)).remove("readAt");
        return copy;
    }

    @Test
    void listsEverySitemapUrlInTheCsvAndShowsThePageInTheNav() throws Exception {
        String csv = get(embeddedServer, "/crawl-errors/sitemaps.csv").body();
        List<String> lines = csv.lines().toList();

        assertThat(lines.get(0)).isEqualTo("Sitemap,URL,Host,State,Last status,Last crawled,Fetched by Googlebot in 30 days");
        assertThat(lines).hasSize(156);
        assertThat(lines).anyMatch(line -> line.contains(",/antwerp/,www.example.be,never fetched,,,no"));

        Document html = Jsoup.parse(get(embeddedServer, "/crawl-errors/sitemaps").body());
        assertThat(html.select("#sitemaps tbody tr")).hasSize(1);
        assertThat(html.selectFirst("#never-fetched-total").text()).isEqualTo("102 sitemap URLs");
        Document report = Jsoup.parse(get(embeddedServer, "/crawl-errors?status=308").body());
        assertThat(report.selectFirst("#nav-sitemaps").attr("href")).isEqualTo("/crawl-errors/sitemaps");
    }

    @Test
    void refusesAFilterThePageDoesNotTakeNamingIt() throws Exception {
        HttpResponse<String> response = get(embeddedServer, "/api/crawl-errors/sitemaps?status=404");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).get("parameter").asText()).isEqualTo("status");
    }

    @Test
    void diagnosesTheRedirectsAsTheSitemapListingTheNonCanonicalFormOnBothStores() throws Exception {
        for (ReportServer server : List.of(embeddedServer, clickHouseServer)) {
            JsonNode streets = pattern(json(server, "/api/crawl-errors/patterns"), "/{city}/{street}");

            assertThat(streets.get("inSitemap").asLong()).isEqualTo(28);
            assertThat(streets.get("sitemap").asText()).isEqualTo("28 of these 28 URLs are in the sitemap");
            assertThat(streets.get("diagnosis").get("kind").asText()).isEqualTo("sitemap_redirect");
            assertThat(streets.get("diagnosis").get("text").asText()).isEqualTo("sitemap.xml lists /antwerp/de-keyserlei; the site redirects"
                    + " it (308) to /antwerp/de-keyserlei/: list the final form.");
            JsonNode letters = pattern(json(server, "/api/crawl-errors/patterns"), "/{city}/straten/{letter}");
            assertThat(letters.get("sitemap").asText()).isEqualTo("0 of these 22 URLs are in the sitemap");
            assertThat(letters.get("diagnosis").get("kind").asText()).isEqualTo("not_found");
            // under in_sitemap= the line still counts the pattern's URLs listed or not, and says so
            JsonNode listedStreets = pattern(json(server, "/api/crawl-errors/patterns?in_sitemap=yes"), "/{city}/{street}");
            assertThat(listedStreets.get("sitemap").asText()).isEqualTo("28 of all 29 URLs of this pattern, listed or not, are in the sitemap");
            JsonNode unlistedLetters = pattern(json(server, "/api/crawl-errors/patterns?in_sitemap=no"), "/{city}/straten/{letter}");
            assertThat(unlistedLetters.get("sitemap").asText()).isEqualTo("0 of all 22 URLs of this pattern, listed or not, are in the sitemap");
        }
        Document html = Jsoup.parse(get(embeddedServer, "/crawl-errors/patterns").body());
        assertThat(html.select(".in-sitemap").eachText()).contains("28 of these 28 URLs are in the sitemap");
    }

    private static JsonNode pattern(JsonNode patterns, String text) {
        for (JsonNode pattern : patterns.get("patterns")) {
            if (pattern.get("pattern").asText().equals(text)) {
                return pattern;
            }
        }
        throw new AssertionError("no pattern " + text + " in " + patterns);
    }

    @Test
    void saysOfEachErrorHitWhetherASitemapListsItTheSameFromBothStores() throws Exception {
        List<String> fromEach = new ArrayList<>();
        for (ReportServer server : List.of(embeddedServer, clickHouseServer)) {
            StringBuilder listed = new StringBuilder();
            for (int page = 1; page <= 3; page++) {
                for (JsonNode row : json(server, "/api/crawl-errors?page=" + page).get("rows")) {
                    listed.append(row.get("url").asText()).append(' ').append(row.get("inSitemap").asBoolean()).append('\n');
                }
            }
            fromEach.add(listed.toString());
        }
        long listedRows = fromEach.get(0).lines().filter(line -> line.endsWith(" true")).count();

        assertThat(fromEach.get(0).lines()).hasSize(226).contains("/antwerp/de-keyserlei true");
        assertThat(listedRows).isEqualTo(json(embeddedServer, "/api/crawl-errors?in_sitemap=yes").get("total").asLong());
        assertThat(fromEach.get(1)).isEqualTo(fromEach.get(0));
        String csv = get(embeddedServer, "/crawl-errors.csv").body();
        assertThat(csv.lines().findFirst().orElseThrow()).endsWith(",Crawler,In sitemap");
        assertThat(csv.lines().skip(1).filter(line -> line.endsWith(",yes")).count()).isEqualTo(listedRows);
    }

    @Test
    void filtersTheUrlsPageBySitemapAndSaysOfEachUrlWhetherOneListsItTheSameFromBothStores() throws Exception {
        List<String> fromEach = new ArrayList<>();
        for (ReportServer server : List.of(embeddedServer, clickHouseServer)) {
            StringBuilder listed = new StringBuilder();
            JsonNode first = json(server, "/api/crawl-errors/urls?state=all");
            for (int page = 1; page <= first.get("pages").asInt(); page++) {
                for (JsonNode row : json(server, "/api/crawl-errors/urls?state=all&page=" + page).get("rows")) {
                    listed.append(row.get("url").asText()).append(' ').append(row.get("inSitemap").asBoolean()).append('\n');
                }
            }
            long yes = listed.toString().lines().filter(line -> line.endsWith(" true")).count();
            assertThat(yes).isPositive();
            // the kept states (all time) and the states made from a time range's hits answer alike
            for (String view : List.of("state=all", "state=all&from=2020-01-01T00:00")) {
                JsonNode inSitemap = json(server, "/api/crawl-errors/urls?" + view + "&in_sitemap=yes");
                assertThat(inSitemap.get("total").asLong()).as(view).isEqualTo(yes);
                assertThat(inSitemap.get("rows").findValues("inSitemap")).allMatch(JsonNode::asBoolean);
                JsonNode notInSitemap = json(server, "/api/crawl-errors/urls?" + view + "&in_sitemap=no");
                assertThat(notInSitemap.get("total").asLong()).as(view).isEqualTo(first.get("total").asLong() - yes);
                assertThat(notInSitemap.get("rows").findValues("inSitemap")).noneMatch(JsonNode::asBoolean);
            }
            fromEach.add(listed.toString());
        }

        assertThat(fromEach.get(0).lines()).contains("/antwerp/de-keyserlei true", "/antwerp/de-keyserlei/ false");
        assertThat(fromEach.get(1)).isEqualTo(fromEach.get(0));
        String csv = get(embeddedServer, "/crawl-errors/urls.csv?state=all").body();
        assertThat(csv.lines().findFirst().orElseThrow()).endsWith(",Inconsistent,In sitemap");
        assertThat(csv.lines().skip(1).filter(line -> line.endsWith(",yes")).count())
                .isEqualTo(fromEach.get(0).lines().filter(line -> line.endsWith(" true")).count());
        HttpResponse<String> bad = get(embeddedServer, "/api/crawl-errors/urls?in_sitemap=maybe");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(bad.body()).get("parameter").asText()).isEqualTo("in_sitemap");
    }
}
