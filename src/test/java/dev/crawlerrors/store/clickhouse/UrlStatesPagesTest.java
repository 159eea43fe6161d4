package dev.crawlerrors.store.clickhouse;

import static dev.crawlerrors.crawler.SampleHits.SPOOFED;
import static dev.crawlerrors.crawler.SampleHits.VERIFIED;
import static dev.crawlerrors.crawler.SampleHits.googlebot;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import dev.crawlerrors.web.ReportServer;
import dev.crawlerrors.web.ServerConfig;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Test;

/**
 * Planted histories through the real server, on DuckDB and on a two-shard ClickHouse cluster: a URL
 * that 404s then 200s is fixed since its first 200, one that 200s then 503s is broken, one that
 * alternates is inconsistent, a redirect chain is redirected, spoofed hits change no state, and a
 * robots.txt that answered 503 raises the banner until it answers 200. The two engines give the
 * same pages, before and after their states are folded.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ClickHouseTest
class UrlStatesPagesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static DuckDbHitStore embedded;
    static ClickHouseHitStore clickHouse;
    static ReportServer embeddedServer;
    static ReportServer clickHouseServer;

    private static List<CrawlerHit> planted() {
        return List.of(
                googlebot("2025-05-14T08:00:00Z", "66.249.66.1", "/fixed", 404, VERIFIED),
                googlebot("2025-05-14T09:00:00Z", "66.249.66.1", "/fixed", 404, VERIFIED),
                googlebot("2025-05-14T10:00:00Z", "66.249.66.1", "/fixed", 200, VERIFIED),
                googlebot("2025-05-14T11:00:00Z", "66.249.66.1", "/fixed", 200, VERIFIED),
                googlebot("2025-05-14T08:00:00Z", "66.249.66.2", "/regressed", 200, VERIFIED),
                googlebot("2025-05-14T12:00:00Z", "66.249.66.2", "/regressed", 503, VERIFIED),
                googlebot("2025-05-14T08:00:00Z", "66.249.66.3", "/flaps", 200, VERIFIED),
                googlebot("2025-05-14T09:00:00Z", "66.249.66.3", "/flaps", 503, VERIFIED),
                googlebot("2025-05-14T10:00:00Z", "66.249.66.3", "/flaps", 200, VERIFIED),
                googlebot("2025-05-14T11:00:00Z", "66.249.66.3", "/flaps", 503, VERIFIED),
                googlebot("2025-05-14T08:00:00Z", "66.249.66.4", "/old", 301, VERIFIED),
                googlebot("2025-05-14T08:00:01Z", "66.249.66.4", "/old/", 302, VERIFIED),
                googlebot("2025-05-14T08:00:02Z", "66.249.66.4", "/new/", 200, VERIFIED),
                googlebot("2025-05-14T07:00:00Z", "66.249.66.5", "/robots.txt", 503, VERIFIED),
                // an impostor's 503s change nothing
                googlebot("2025-05-14T12:30:00Z", "203.0.113.9", "/fixed", 503, SPOOFED),
                googlebot("2025-05-14T12:30:00Z", "203.0.113.9", "/only-spoofed", 503, SPOOFED),
                googlebot("2025-05-14T12:31:00Z", "203.0.113.9", "/robots.txt", 503, SPOOFED));
    }

    @BeforeAll
    static void storeTheSameHitsInBoth() {
        embedded = DuckDbHitStore.inMemory();
        ClickHouseLocation location = ClickHouseTestCluster.twoShards().location(ClickHouseTestCluster.database("urls"));
        clickHouse = ClickHouseHitStore.openAfresh(location, ClickHouseSettings.SERVE);
        List<CrawlerHit> hits = planted();
        // in two batches each, the second after the first is folded on DuckDB
        embedded.writer().append(hits.subList(0, 6));
        clickHouse.writer().append(hits.subList(0, 6));
        embedded.reader().urlStates().fold();
        clickHouse.reader().urlStates().fold();
        embedded.writer().append(hits.subList(6, hits.size()));
        clickHouse.writer().append(hits.subList(6, hits.size()));
        embeddedServer = serve(embedded);
        clickHouseServer = serve(clickHouse);
    }

    private static ReportServer serve(HitStore store) {
        return ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC).withSummaryWait(Duration.ofSeconds(30))), store.health(), ServerConfig.on("127.0.0.1", 0));
    }

    @AfterAll
    static void stop() {
        embeddedServer.close();
        clickHouseServer.close();
        embedded.close();
        clickHouse.close();
    }

    private static String page(ReportServer server, String path) throws Exception {
        return EnginePages.page(server, path);
    }

    @Test
    @Order(1)
    void eachEngineSaysWhatIsBrokenFixedAndInconsistent() throws Exception {
        for (ReportServer server : List.of(embeddedServer, clickHouseServer)) {
            List<String> broken = EnginePages.urls(server, "");
            assertThat(broken).as("broken now, most error hits first").hasSize(3).first().isEqualTo("/flaps");
            assertThat(broken).containsExactlyInAnyOrder("/flaps", "/regressed", "/robots.txt");
            JsonNode fixed = EnginePages.row(server, "?state=ok&fixed=true", "/fixed");
            assertThat(EnginePages.urls(server, "?state=ok&fixed=true")).containsExactly("/fixed");
            assertThat(fixed.get("fixed").asBoolean()).isTrue();
            assertThat(fixed.get("fixedSince").asText()).contains("10:00");
            assertThat(fixed.get("hits").asLong()).as("the impostor's 503 is not one of its hits").isEqualTo(4);
            assertThat(fixed.get("errorHits").asLong()).isEqualTo(2);
            assertThat(fixed.get("lastStatus").asInt()).isEqualTo(200);
            JsonNode regressed = EnginePages.row(server, "", "/regressed");
            assertThat(regressed.get("state").asText()).isEqualTo("broken");
            assertThat(regressed.get("fixed").asBoolean()).isFalse();
            assertThat(regressed.get("inconsistent").asBoolean()).isFalse();
            assertThat(EnginePages.urls(server, "?inconsistent=true&state=broken,redirected,ok")).containsExactly("/flaps");
            assertThat(EnginePages.urls(server, "?state=redirected")).containsExactlyInAnyOrder("/old", "/old/");
            assertThat(EnginePages.urls(server, "?state=broken,redirected,ok&sort=last_crawled").get(0)).isEqualTo("/regressed");
            assertThat(EnginePages.urls(server, "?state=broken,redirected,ok")).doesNotContain("/only-spoofed");
            String csv = EnginePages.raw(server, "/crawl-errors/urls.csv?state=ok&fixed=true");
            assertThat(csv.lines().toList()).hasSize(2);
            assertThat(csv.lines().toList().get(1)).startsWith("/fixed,,ok,200,").contains(",true,");
            String html = EnginePages.raw(server, "/crawl-errors/urls");
            assertThat(html).contains("/flaps").contains("/regressed");
            JsonNode own = JSON.readTree(EnginePages.raw(server, "/api/crawl-errors/url?url=%2Fflaps"));
            assertThat(own.get("state").get("inconsistent").asBoolean()).isTrue();
            List<Integer> statuses = new ArrayList<>();
            own.get("hits").forEach(hit -> statuses.add(hit.get("status").asInt()));
            assertThat(statuses).as("every hit, newest first").containsExactly(503, 200, 503, 200);
        }
    }

    @Test
    @Order(1)
    void eachPatternSaysWhatIsStillBrokenAndWhatIsFixed() throws Exception {
        for (ReportServer server : List.of(embeddedServer, clickHouseServer)) {
            JsonNode patterns = JSON.readTree(EnginePages.raw(server, "/api/crawl-errors/patterns")).get("patterns");
            JsonNode fixed = null;
            JsonNode regressed = null;
            JsonNode redirected = null;
            for (JsonNode pattern : patterns) {
                String examples = pattern.get("examples").toString();
                if (examples.contains("\"/old/\"")) {
                    redirected = pattern;
                }
                if (examples.contains("\"/fixed\"")) {
                    fixed = pattern;
                }
                if (examples.contains("\"/regressed\"")) {
                    regressed = pattern;
                }
            }
            assertThat(fixed).as(patterns.toString()).isNotNull();
            assertThat(fixed.get("now").get("text").asText()).contains("fixed since 2025-05-14T10:00");
            assertThat(regressed.get("now").get("text").asText()).contains("still 503");
            assertThat(regressed.get("now").get("byClass").get("5xx").asLong()).isPositive();
            if (fixed != regressed) {
                assertThat(fixed.get("now").get("text").asText()).isEqualTo("1 URL, 1 fixed since 2025-05-14T10:00");
                assertThat(fixed.get("diagnosis").get("kind").asText()).isEqualTo("fixed");
                assertThat(fixed.get("diagnosis").get("text").asText()).startsWith("fixed: ");
            }
            // a pattern whose URLs only ever redirected says so too, not only those with a 4xx or 5xx
            assertThat(redirected).as(patterns.toString()).isNotNull();
            assertThat(redirected.get("now").get("redirected").asLong()).as(redirected.toString()).isPositive();
            assertThat(redirected.get("now").get("text").asText()).contains("redirected now");
            assertThat(EnginePages.raw(server, "/crawl-errors/patterns")).contains("fixed since 2025-05-14T10:00");
        }
    }

    @Test
    @Order(1)
    void theOverviewSaysWhereTheCrawlBudgetGoes() throws Exception {
        for (ReportServer server : List.of(embeddedServer, clickHouseServer)) {
            JsonNode budget = JSON.readTree(EnginePages.raw(server, "/api/crawl-errors/overview")).get("crawlBudget");
            JsonNode fixed = null;
            JsonNode old = null;
            for (JsonNode segment : budget) {
                fixed = segment.get("segment").asText().equals("/fixed") ? segment : fixed;
                old = segment.get("segment").asText().equals("/old") ? segment : old;
            }
            assertThat(fixed).as(budget.toString()).isNotNull();
            assertThat(fixed.get("hits").asLong()).as("the impostor's hit is not counted").isEqualTo(4);
            assertThat(fixed.get("byClass").get("2xx").asLong()).isEqualTo(2);
            assertThat(fixed.get("byClass").get("4xx").asLong()).isEqualTo(2);
            assertThat(fixed.get("pageShare").asDouble()).isEqualTo(0.5);
            assertThat(old.get("text").asText()).isEqualTo("100% of the fetches of /old were redirects");
            assertThat(EnginePages.raw(server, "/crawl-errors/overview")).contains("Where the crawl budget goes").contains("class=\"b-redirect\"");
        }
    }

    @Test
    @Order(2) // the last: it adds a hit
    void aRobotsTxtThatAnswered503RaisesTheBannerOnEveryPage() throws Exception {
        for (ReportServer server : List.of(embeddedServer, clickHouseServer)) {
            JsonNode robots = JSON.readTree(EnginePages.raw(server, "/api/crawl-errors/robots"));
            assertThat(robots.toString()).contains("\"status\":503");
            for (String path : List.of("/crawl-errors", "/crawl-errors/urls", "/crawl-errors/patterns", "/crawl-errors/overview")) {
                assertThat(EnginePages.raw(server, path)).as(path + ", robots.txt's fetches: " + robots).contains("Googlebot Desktop got 503 for /robots.txt");
            }
        }
        // robots.txt answers again: the banner goes
        List<CrawlerHit> again = List.of(googlebot("2025-05-14T13:00:00Z", "66.249.66.5", "/robots.txt", 200, VERIFIED));
        embedded.writer().append(again);
        clickHouse.writer().append(again);
        for (ReportServer server : List.of(embeddedServer, clickHouseServer)) {
            assertThat(EnginePages.raw(server, "/crawl-errors/urls")).doesNotContain("got 503 for /robots.txt").doesNotContain("robots-alerts");
        }
    }

    @Test
    @Order(1)
    void bothEnginesGiveTheSamePagesFoldedOrNot() throws Exception {
        List<String> paths = List.of("/api/crawl-errors/urls", "/api/crawl-errors/urls?state=broken,redirected,ok",
                "/api/crawl-errors/urls?state=broken,redirected,ok&sort=first_error", "/api/crawl-errors/urls?bot=all&verification=spoofed",
                "/api/crawl-errors/urls?url=%2Ff&state=ok", "/api/crawl-errors/urls?from=2025-05-14T09:30&state=broken,redirected,ok",
                "/crawl-errors/urls.csv?state=broken,redirected,ok", "/api/crawl-errors/url?url=%2Ffixed", "/api/crawl-errors/robots",
                "/api/crawl-errors/patterns", "/api/crawl-errors/overview");
        for (String path : paths) {
            assertThat(page(clickHouseServer, path)).as(path).isEqualTo(page(embeddedServer, path));
        }
        embedded.reader().urlStates().fold();
        clickHouse.reader().urlStates().fold();
        for (String path : paths) {
            assertThat(page(clickHouseServer, path)).as("folded: " + path).isEqualTo(page(embeddedServer, path));
        }
    }
}
