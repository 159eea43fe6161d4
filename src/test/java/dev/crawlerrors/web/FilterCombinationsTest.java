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
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every combination of the report's filters, through HTTP against the real store, against counts
 * this test makes itself from the hits it stored: the page's total (JSON, and HTML and CSV for some),
 * the overview's total, statuses, bot types, crawlers and spoofed hits left out, and the patterns' total.
 */
class FilterCombinationsTest {

    private static final ZoneId ZONE = ZoneId.of("Europe/Brussels");
    private static final List<Crawler> CRAWLERS = List.of(
            new Crawler("Googlebot Smartphone", "Google", BotType.crawler_search, List.of("Googlebot"), null, null, null),
            new Crawler("Bingbot", "Microsoft", BotType.crawler_search, List.of("bingbot"), null, null, null),
            new Crawler("Google-InspectionTool", "Google", BotType.crawler_inspection_tool, List.of("Google-InspectionTool"), null, null, null),
            new Crawler("GPTBot", "OpenAI", BotType.crawler_ai, List.of("GPTBot"), null, null, null));
    private static final int[] STATUSES = {200, 301, 304, 308, 404, 410, 500, 503};
    private static final Verification[] VERDICTS = Verification.values();

    /** One filter of the combinations: its parameters, and which stored hits it keeps. */
    record Filter(String name, String query, Predicate<Stored> keeps) {
    }

    /** A stored hit as this test knows it. */
    record Stored(CrawlerHit hit, Verification verdict) {
        String path() {
            String url = hit.hit().url();
            int query = url.indexOf('?');
            return query < 0 ? url : url.substring(0, query);
        }
    }

    private static final Pattern LETTER_INDEX = Pattern.compile("/[^/]+/straten/[A-Za-z]");
    private static final Instant FROM = LocalDateTime.parse("2025-05-13T18:00").atZone(ZONE).toInstant();
    private static final Instant TO = LocalDateTime.parse("2025-05-15T00:00").atZone(ZONE).toInstant();
    private static final List<Filter> FILTERS = List.of(
            new Filter("status", "status=4xx&status=308", s -> s.hit().hit().status() == 308
                    || (s.hit().hit().status() >= 400 && s.hit().hit().status() < 500)),
            new Filter("bot", "bot=crawler_search", s -> s.hit().crawler().botType() == BotType.crawler_search),
            new Filter("crawler", "crawler=Googlebot+Smartphone", s -> s.hit().crawler().name().equals("Googlebot Smartphone")),
            new Filter("verification", "verification=verified,spoofed", s -> s.verdict() != Verification.unverified),
            new Filter("time", "from=2025-05-13T18:00&to=2025-05-14", s -> !Instant.ofEpochMilli(s.hit().hit().epochMillis()).isBefore(FROM)
                    && Instant.ofEpochMilli(s.hit().hit().epochMillis()).isBefore(TO)),
            new Filter("url", "url=%2Fc1%2F", s -> s.hit().hit().url().startsWith("/c1/")),
            new Filter("host", "host=a.example", s -> "a.example".equals(s.hit().hit().host())),
            // a pattern no view finds (placeholders are numbered here), read as written: any city's letter index (one a view
            // finds means what that view's shapes make of it: in a view of a few hits, a city may stay a pattern of its own)
            new Filter("pattern", "pattern=" + URLEncoder.encode("/{city}/straten/{letter}", StandardCharsets.UTF_8),
                    s -> LETTER_INDEX.matcher(s.path()).matches()));

    static DuckDbHitStore store;
    static ReportServer server;
    static final List<Stored> STORED = new ArrayList<>();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void storeHits() {
        Random random = new Random(20250514);
        Instant start = LocalDateTime.parse("2025-05-13T00:00").atZone(ZONE).toInstant();
        List<CrawlerHit> hits = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            int city = random.nextInt(5);
            String url = switch (random.nextInt(4)) {
                case 0 -> "/c" + city + "/c" + city + "s" + random.nextInt(20);
                case 1 -> "/c" + city + "/c" + city + "s" + random.nextInt(20) + "/";
                case 2 -> "/c" + city + "/straten/" + (char) ('a' + random.nextInt(26));
                default -> "/p/" + random.nextInt(1000) + (random.nextBoolean() ? "?ref=x" : "");
            };
            int address = random.nextInt(12);
            Crawler crawler = CRAWLERS.get(random.nextInt(CRAWLERS.size()));
            // each address and crawler has one verdict, whatever its hit
            Verification verdict = VERDICTS[(address + crawler.name().length()) % VERDICTS.length];
            String host = switch (random.nextInt(3)) {
                case 0 -> "a.example";
                case 1 -> "b.example";
                default -> null;
            };
            Hit hit = new Hit(start.plusSeconds(random.nextInt(3 * 86_400)).toEpochMilli(), 120, "66.249.66." + address, "GET", url,
                    STATUSES[random.nextInt(STATUSES.length)], 0, null, crawler.name(),
                    random.nextInt(5) == 0 ? Double.NaN : 0.1 + random.nextInt(20_000) / 10.0, host);
            CrawlerHit crawlerHit = new CrawlerHit(hit, crawler, new Verdict(verdict, "test"));
            hits.add(crawlerHit);
            STORED.add(new Stored(crawlerHit, verdict));
        }
        store = DuckDbHitStore.inMemory();
        store.writer().append(hits);
        server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZONE).withSummaryWait(Duration.ofSeconds(30))), store.health(), ServerConfig.on("127.0.0.1", 0));
    }

    @AfterAll
    static void stop() {
        server.close();
        store.close();
    }

    private static String get(String path) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return response.body();
    }

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES) // the unit suite's slowest test: 7 minutes on a loaded 2-core machine
    void everyCombinationOfFiltersCountsWhatTheFiltersKeep() throws Exception {
        for (int mask = 0; mask < 1 << FILTERS.size(); mask++) {
            List<Filter> chosen = new ArrayList<>();
            for (int i = 0; i < FILTERS.size(); i++) {
                if ((mask & 1 << i) != 0) {
                    chosen.add(FILTERS.get(i));
                }
            }
            String query = String.join("&", chosen.stream().map(Filter::query).toList());
            boolean verdictsChosen = chosen.stream().anyMatch(f -> f.name().equals("verification"));
            Predicate<Stored> others = s -> chosen.stream().filter(f -> !f.name().equals("verification")).allMatch(f -> f.keeps().test(s));
            Predicate<Stored> errors = s -> s.hit().hit().status() >= 300;
            Predicate<Stored> verdicts = verdictsChosen ? s -> s.verdict() != Verification.unverified : s -> s.verdict() != Verification.spoofed;
            List<Stored> kept = STORED.stream().filter(errors.and(others).and(verdicts)).toList();
            long spoofedLeftOut = verdictsChosen ? 0 : STORED.stream().filter(errors.and(others)).filter(s -> s.verdict() == Verification.spoofed).count();
            String as = "?" + query;

            JsonNode page = JSON.readTree(get("/api/crawl-errors?" + query));
            assertThat(page.get("total").asLong()).as("report total " + as).isEqualTo(kept.size());

            JsonNode overview = JSON.readTree(get("/api/crawl-errors/overview?" + query));
            assertThat(overview.get("total").asLong()).as("overview total " + as).isEqualTo(kept.size());
            assertThat(tallies(overview.get("byStatus"))).as("by status " + as).isEqualTo(count(kept, s -> Integer.toString(s.hit().hit().status())));
            assertThat(tallies(overview.get("byBotType"))).as("by bot type " + as).isEqualTo(count(kept, s -> s.hit().crawler().botType().name()));
            assertThat(tallies(overview.get("byCrawler"))).as("by crawler " + as).isEqualTo(count(kept, s -> s.hit().crawler().name()));
            assertThat(tallies(overview.get("byVerification"))).as("by verdict " + as).isEqualTo(count(kept, s -> s.verdict().name()));
            assertThat(overview.get("spoofedLeftOut").asLong()).as("spoofed left out " + as).isEqualTo(verdictsChosen ? 0 : spoofedLeftOut);
            long timeline = 0;
            for (JsonNode bucket : overview.get("timeline")) {
                timeline += bucket.get("errorHits").asLong();
            }
            assertThat(timeline).as("timeline " + as).isEqualTo(kept.size());

            JsonNode patterns = JSON.readTree(get("/api/crawl-errors/patterns?" + query));
            assertThat(patterns.get("total").asLong()).as("patterns total " + as).isEqualTo(kept.size());

            if (mask % 17 == 0) {
                assertThat(Jsoup.parse(get("/crawl-errors?" + query)).selectFirst("#total").text()).as("HTML " + as)
                        .isEqualTo(Long.toString(kept.size()));
                assertThat(get("/crawl-errors.csv?" + query).split("\r\n")).as("CSV " + as).hasSize(kept.size() + 1);
            }
        }
    }

    private static Map<String, Long> tallies(JsonNode list) {
        Map<String, Long> out = new TreeMap<>();
        list.forEach(t -> out.put(t.get("value").asText(), t.get("hits").asLong()));
        return out;
    }

    private static Map<String, Long> count(List<Stored> hits, java.util.function.Function<Stored, String> key) {
        Map<String, Long> out = new TreeMap<>();
        hits.forEach(s -> out.merge(key.apply(s), 1L, Long::sum));
        return out;
    }
}
