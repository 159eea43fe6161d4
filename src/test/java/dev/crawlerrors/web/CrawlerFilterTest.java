package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Which crawlers and bot types the report shows, through the real server on a loopback port over
 * the real store, the hits' crawlers named by the real identifier from their agents.
 */
class CrawlerFilterTest {

    static DuckDbHitStore store;
    static ReportServer server;
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void start() {
        CrawlerCatalog catalog = CrawlerCatalog.builtIn();
        CrawlerIdentifier identifier = new CrawlerIdentifier(catalog);
        store = DuckDbHitStore.inMemory();
        List<CrawlerHit> hits = new ArrayList<>();
        String[][] requests = {
            {"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "66.249.66.1", "/a", "404"},
            {"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "157.55.39.1", "/b", "404"},
            {"Mozilla/5.0 (compatible; SeznamBot/4.0; +https://o-seznam.cz/napoveda/vyhledavani/en/seznambot-crawler/)", "77.75.77.1", "/c", "410"},
            {"Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)", "69.162.124.1", "/health", "503"},
            {"Mozilla/5.0 (compatible; Nmap Scripting Engine; https://nmap.org/book/nse.html)", "203.0.113.7", "/wp-login.php", "404"},
        };
        for (int i = 0; i < requests.length; i++) {
            String[] r = requests[i];
            Hit hit = new Hit(Instant.parse("2025-05-14T10:00:00Z").plusSeconds(60L * i).toEpochMilli(), 0, r[1], "GET", r[2],
                    Integer.parseInt(r[3]), -1, null, r[0], Double.NaN, null);
            hits.add(new CrawlerHit(hit, identifier.identify(r[0]).orElseThrow(), new Verdict(Verification.unverified, "test")));
        }
        store.writer().append(hits);
        server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC")).withCatalog(catalog)), store.health(), ServerConfig.on("127.0.0.1", 0));
    }

    @AfterAll
    static void stop() {
        server.close();
        store.close();
    }

    static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static List<String> crawlersInJson(String query) throws Exception {
        List<String> names = new ArrayList<>();
        JSON.readTree(get("/api/crawl-errors?" + query).body()).get("rows").forEach(row -> names.add(row.get("crawler").asText()));
        return names;
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    @Test
    void leavesMonitorsAndScannersOutByDefaultAndSaysSo() throws Exception {
        Document html = Jsoup.parse(get("/crawl-errors").body());

        assertThat(crawlersInJson("")).containsExactly("SeznamBot", "Bingbot", "Googlebot Desktop");
        assertThat(html.selectFirst("#total").text()).isEqualTo("3");
        assertThat(html.selectFirst("#hidden-types").text()).isEqualTo(
                "Not shown unless asked for: monitor, security_scanner (not crawl errors a site fixes); show every bot type.");
        // at the page's snapshot
        assertThat(html.selectFirst("#hidden-types a").attr("href")).matches("/crawl-errors\\?page=1&bot=all&at=\\d+\\.\\d+");
    }

    @Test
    void botAllShowsEveryTypeAndABotTypeShowsItsOwn() throws Exception {
        Document html = Jsoup.parse(get("/crawl-errors?bot=all").body());

        assertThat(crawlersInJson("bot=all")).containsExactly("Nmap", "UptimeRobot", "SeznamBot", "Bingbot", "Googlebot Desktop");
        assertThat(html.selectFirst("#total").text()).isEqualTo("5");
        assertThat(html.select("#hidden-types")).isEmpty();
        assertThat(crawlersInJson("bot=monitor")).containsExactly("UptimeRobot");
        assertThat(crawlersInJson("bot=security_scanner&bot=crawler_search")).containsExactly("Nmap", "SeznamBot", "Bingbot",
                "Googlebot Desktop");
    }

    @Test
    void crawlerFiltersHtmlJsonAndCsvAlike() throws Exception {
        Document html = Jsoup.parse(get("/crawl-errors?crawler=SeznamBot").body());
        JsonNode json = JSON.readTree(get("/api/crawl-errors?crawler=SeznamBot").body());
        String[] csv = get("/crawl-errors.csv?crawler=SeznamBot").body().split("\r\n");

        assertThat(html.select("#hits tbody tr")).hasSize(1);
        assertThat(html.select("#hits tbody td").stream().map(Element::text).toList()).containsExactly("2025-05-14T10:02", "77.75.77.1", "GET", "/c", "410", "",
                "crawler_search", "unverified");
        assertThat(json.get("total").asLong()).isEqualTo(1);
        assertThat(json.get("rows").get(0).get("crawler").asText()).isEqualTo("SeznamBot");
        assertThat(csv).containsExactly("Timestamp,IP,Method,URL,Status,Duration ms,Bot type,Verification,Crawler",
                "2025-05-14T10:02,77.75.77.1,GET,/c,410,,crawler_search,unverified,SeznamBot");
    }

    @Test
    void crawlerTakesNamesInAnyCaseRepeatedOrSeparatedByCommas() throws Exception {
        assertThat(crawlersInJson("crawler=" + encode("googlebot desktop") + "&crawler=BINGBOT")).containsExactly("Bingbot",
                "Googlebot Desktop");
        assertThat(crawlersInJson("crawler=" + encode("Googlebot Desktop,Bingbot"))).containsExactly("Bingbot", "Googlebot Desktop");
    }

    @Test
    void aCrawlerAskedForByNameIsShownWhateverItsType() throws Exception {
        assertThat(crawlersInJson("crawler=UptimeRobot")).containsExactly("UptimeRobot");
    }

    @Test
    void anUnknownCrawlerIs400NamingTheParameterAndHowToListNames() throws Exception {
        HttpResponse<String> html = get("/crawl-errors?crawler=Nobot");
        HttpResponse<String> json = get("/api/crawl-errors?crawler=Nobot");
        HttpResponse<String> csv = get("/crawl-errors.csv?crawler=Nobot");
        String message = "crawler must be the name of a crawler this tool knows (crawl-errors crawlers lists them); got 'Nobot'";

        assertThat(List.of(html.statusCode(), json.statusCode(), csv.statusCode())).containsOnly(400);
        assertThat(Jsoup.parse(html.body()).selectFirst("#error").text()).isEqualTo(message);
        assertThat(JSON.readTree(json.body()).get("parameter").asText()).isEqualTo("crawler");
        assertThat(JSON.readTree(json.body()).get("error").asText()).isEqualTo(message);
        assertThat(csv.body()).isEqualTo(message + "\n");
    }

    @Test
    void anUnknownBotTypeIs400ListingAll() throws Exception {
        HttpResponse<String> json = get("/api/crawl-errors?bot=robots");

        assertThat(json.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(json.body()).get("error").asText()).isEqualTo("bot must be one of crawler_search, "
                + "crawler_inspection_tool, crawler_ads, crawler_ai, crawler_other, fetcher_user, crawler_seo, crawler_ai_search, "
                + "fetcher_ai, fetcher_feed, fetcher_preview, monitor, security_scanner, all; got 'robots'");
    }
}
