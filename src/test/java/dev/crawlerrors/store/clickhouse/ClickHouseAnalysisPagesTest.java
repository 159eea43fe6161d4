package dev.crawlerrors.store.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.report.ReportParameters;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import dev.crawlerrors.web.ReportServer;
import dev.crawlerrors.web.ServerConfig;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The patterns and overview pages, and a report filtered by a URL shape, served from ClickHouse
 * say exactly what they say served from the embedded store of the same hits.
 */
@ClickHouseTest
class ClickHouseAnalysisPagesTest {

    private static final ZoneId ZONE = ZoneId.of("Europe/Brussels");
    private static final List<Crawler> CRAWLERS = List.of(
            new Crawler("Googlebot Smartphone", "Google", BotType.crawler_search, List.of("Googlebot"), null, null, null),
            new Crawler("Bingbot", "Microsoft", BotType.crawler_search, List.of("bingbot"), null, null, null),
            new Crawler("GPTBot", "OpenAI", BotType.crawler_ai, List.of("GPTBot"), null, null, null));
    private static final int[] STATUSES = {200, 301, 404, 410, 500, 503};
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String LETTER_INDEX = "pattern=" + URLEncoder.encode("/{1}/straten/{letter}", StandardCharsets.UTF_8);

    /** Values that end a quoted SQL string, escape its quote, comment the rest out or match any text in LIKE. */
    private static final List<String> HOSTILE = List.of("'", "\\'", "it's' OR 1=1 --", "x'); DROP TABLE hits_local; --", "back\\slash",
            "100%_off", "%", "_", "'||'", "\"quoted\"", "caf\u00e9'\u00e9", "${x}`y`", "a'b.example");

    static DuckDbHitStore embedded;
    static ClickHouseHitStore clickHouse;
    static ReportServer embeddedServer;
    static ReportServer clickHouseServer;

    @BeforeAll
    static void storeTheSameHitsInBoth() {
        Random random = new Random(20250516);
        Instant start = Instant.parse("2025-05-13T00:00:00Z");
        List<CrawlerHit> hits = new ArrayList<>();
        for (int i = 0; i < 800; i++) {
            int city = random.nextInt(5);
            String url = switch (random.nextInt(5)) {
                case 0 -> "/c" + city + "/c" + city + "s" + random.nextInt(20);
                case 1 -> "/c" + city + "/c" + city + "s" + random.nextInt(20) + "/";
                case 2 -> "/c" + city + "/straten/" + (char) ('a' + random.nextInt(26));
                case 3 -> "/wiki/Caf\u00e9_" + random.nextInt(30) + "?x=\u00e9";
                default -> "/p/" + random.nextInt(1000) + (random.nextBoolean() ? "?ref=x" : "");
            };
            int address = random.nextInt(12);
            Crawler crawler = CRAWLERS.get(random.nextInt(CRAWLERS.size()));
            Verification verdict = Verification.values()[(address + crawler.name().length()) % 3];
            Hit hit = new Hit(start.plusSeconds(random.nextInt(3 * 86_400)).toEpochMilli(), 120, "66.249.66." + address, "GET", url,
                    STATUSES[random.nextInt(STATUSES.length)], 0, null, crawler.name(),
                    random.nextInt(5) == 0 ? Double.NaN : 0.1 + random.nextInt(20_000) / 10.0, random.nextBoolean() ? "a.example" : null);
            hits.add(new CrawlerHit(hit, crawler, new Verdict(verdict, "test")));
        }
        // hits whose URL and host are made to break SQL quoted carelessly: filtered by exactly these below
        for (int i = 0; i < HOSTILE.size(); i++) {
            String value = HOSTILE.get(i);
            Hit hit = new Hit(start.plusSeconds(3_600L * i).toEpochMilli(), 120, "66.249.66.1", "GET", "/" + value, 404, 0, null,
                    CRAWLERS.get(0).name(), 12.5, value);
            hits.add(new CrawlerHit(hit, CRAWLERS.get(0), new Verdict(Verification.verified, "test")));
        }
        embedded = DuckDbHitStore.inMemory();
        embedded.writer().append(hits);
        // two writers, as two import processes: each numbers its hits from 1
        ClickHouseLocation location = ClickHouseTestCluster.twoShards().location(ClickHouseTestCluster.database("pages"));
        try (ClickHouseHitStore other = ClickHouseHitStore.openAfresh(location, ClickHouseSettings.SERVE)) {
            other.writer().append(hits.subList(0, 400));
        }
        clickHouse = ClickHouseHitStore.open(location, ClickHouseSettings.SERVE);
        clickHouse.writer().append(hits.subList(400, hits.size()));
        // committed before any page is asked for: a page asked for while a commit is under way answers the one before
        embedded.writer().flush();
        clickHouse.writer().flush();
        embeddedServer = serve(embedded);
        clickHouseServer = serve(clickHouse);
    }

    private static ReportServer serve(HitStore store) {
        return ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZONE).withSummaryWait(Duration.ofSeconds(30))), store.health(), ServerConfig.on("127.0.0.1", 0));
    }

    @AfterAll
    static void stop() {
        embeddedServer.close();
        clickHouseServer.close();
        embedded.close();
        clickHouse.close();
    }

    private static String raw(ReportServer server, String path) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return response.body();
    }

    private static String get(ReportServer server, String path) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        // the snapshot a page was read at is the store's own number, the same hits whatever it is
        return response.body().replaceAll("\"(at|snapshot)\":\"[0-9]+\\.[0-9]+\"", "\"$1\":\"\"")
                .replaceAll("at=[0-9]+\\.[0-9]+", "at=")
                // a hit's id is its writer's number on ClickHouse (two writers here), the store's own on DuckDB: only ids differ
                .replaceAll("\\{\"id\":[0-9]+,\"timestamp\":", "{\"id\":0,\"timestamp\":");
    }

    /** The status and body a server answers {@code path} with, made comparable as {@link #get} does. */
    private static String answer(ReportServer server, String path) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        return response.statusCode() + " " + response.body().replaceAll("\"(at|snapshot)\":\"[0-9]+\\.[0-9]+\"", "\"$1\":\"\"")
                .replaceAll("at=[0-9]+\\.[0-9]+", "at=").replaceAll("\\{\"id\":[0-9]+,\"timestamp\":", "{\"id\":0,\"timestamp\":");
    }

    private static String encoded(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static void samePage(String path) throws Exception {
        assertThat(get(clickHouseServer, path)).as(path).isEqualTo(get(embeddedServer, path));
    }

    @Test
    void thePatternsPageFindsTheSameShapesWithTheSameCounts() throws Exception {
        samePage("/api/crawl-errors/patterns");
        samePage("/api/crawl-errors/patterns?bot=all&verification=verified,spoofed");
        samePage("/api/crawl-errors/patterns?status=4xx&host=a.example");
    }

    @Test
    void theOverviewCountsTheSameByTimeCrawlerStatusVerdictAndDuration() throws Exception {
        samePage("/api/crawl-errors/overview");
        samePage("/api/crawl-errors/overview?bot=all&verification=verified,spoofed");
        samePage("/api/crawl-errors/overview?" + LETTER_INDEX);
    }

    @Test
    void aReportFilteredByAUrlShapeShowsTheSameHits() throws Exception {
        String page = get(clickHouseServer, "/api/crawl-errors?" + LETTER_INDEX);
        assertThat(page).contains("/straten/").doesNotContain("/p/").doesNotContain("/wiki/");
        samePage("/api/crawl-errors?" + LETTER_INDEX);
        samePage("/api/crawl-errors?pattern=" + URLEncoder.encode("/wiki/{any}", StandardCharsets.UTF_8));
        samePage("/api/crawl-errors/overview?pattern=" + URLEncoder.encode("/wiki/{any}", StandardCharsets.UTF_8));
    }

    @Test
    void everyHitOfTheReportHasAnIdOfItsOwnThatOpensItsPage() throws Exception {
        ObjectMapper json = new ObjectMapper();
        JsonNode page = json.readTree(raw(clickHouseServer, "/api/crawl-errors?bot=all&verification=verified,unverified,spoofed"));
        Set<Long> ids = new HashSet<>();
        for (JsonNode row : page.get("rows")) {
            long id = row.get("id").asLong();
            assertThat(ids.add(id)).as("id " + id + " twice").isTrue();
            JsonNode hit = json.readTree(raw(clickHouseServer, "/api/crawl-errors/hits/" + id + "?at=" + page.get("at").asText()));
            assertThat(hit.toString()).as("hit " + id).contains(json.writeValueAsString(row.get("url")))
                    .contains("\"timestamp\":" + json.writeValueAsString(row.get("timestamp")));
        }
        assertThat(ids).hasSize(100);
    }

    @Test
    void hostileValuesOfEveryFilterAnswerWhatTheEmbeddedStoreAnswersAndHarmNothing() throws Exception {
        long stored = clickHouse.health().size();
        List<String> values = new ArrayList<>();
        for (String value : HOSTILE) {
            values.add(value);
            values.add("/" + value); // a URL prefix or pattern must start with '/': these reach the store
        }
        for (String filter : ReportParameters.FILTERS) {
            for (String value : values) {
                String path = "/api/crawl-errors?bot=all&verification=verified,unverified,spoofed&" + filter + "=" + encoded(value);
                assertThat(answer(clickHouseServer, path)).as(path).isEqualTo(answer(embeddedServer, path));
            }
        }
        for (String value : HOSTILE) {
            String query = "?bot=all&verification=verified,unverified,spoofed&url=" + encoded("/" + value) + "&host=" + encoded(value);
            String page = answer(clickHouseServer, "/api/crawl-errors" + query);
            // each hostile hit found by its own URL and host, nothing else with it (LIKE's % and _ match themselves)
            assertThat(page).as(value).startsWith("200 ").contains("\"total\":1,");
            assertThat(page).isEqualTo(answer(embeddedServer, "/api/crawl-errors" + query));
            for (String analysis : List.of("/api/crawl-errors/overview", "/api/crawl-errors/patterns")) {
                assertThat(answer(clickHouseServer, analysis + query)).as(analysis + query).isEqualTo(answer(embeddedServer, analysis + query));
            }
        }
        assertThat(clickHouse.health().size()).as("hits after the hostile filters").isEqualTo(stored).isEqualTo(embedded.health().size());
    }

    @Test
    void sixtyFourReadersOnDistinctFiltersAtOnceEachGetAnAnswerAndTheSameOneFromEitherStore() throws Exception {
        for (ReportServer server : List.of(embeddedServer, clickHouseServer)) {
            List<CompletableFuture<String>> pages = new ArrayList<>();
            try (ExecutorService readers = Executors.newFixedThreadPool(64)) {
                for (int i = 0; i < 64; i++) {
                    String path = "/api/crawl-errors?bot=all&verification=verified,unverified,spoofed&url=" + encoded("/p/" + i);
                    pages.add(CompletableFuture.supplyAsync(() -> {
                        try {
                            return path + " " + answer(server, path);
                        } catch (Exception e) {
                            throw new IllegalStateException(path, e);
                        }
                    }, readers));
                }
                for (CompletableFuture<String> page : pages) {
                    String answer = page.get(120, TimeUnit.SECONDS);
                    // a store busy with others may ask the reader to come back (503), never answer wrongly or fail
                    assertThat(answer).as(answer).matches("(?s)\\S+ (200|503) .*");
                    if (answer.contains(" 200 ")) {
                        String path = answer.substring(0, answer.indexOf(' '));
                        assertThat(answer.substring(answer.indexOf(' ') + 1)).as((server == embeddedServer ? "DuckDB " : "ClickHouse ") + path)
                                .isEqualTo(answer(embeddedServer, path));
                    }
                }
            }
            assertThat(answer(server, "/health")).startsWith("200 ");
        }
    }
}
