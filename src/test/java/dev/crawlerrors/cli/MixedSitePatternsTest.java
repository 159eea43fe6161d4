package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.report.ReportRequest;
import dev.crawlerrors.report.pattern.ErrorPattern;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.clickhouse.ClickHouseHitStore;
import dev.crawlerrors.store.clickhouse.ClickHouseSettings;
import dev.crawlerrors.store.clickhouse.ClickHouseTestCluster;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The URL patterns of a mixed site, imported as a user would from an nginx log that records where
 * each redirect went ({@code $sent_http_location}), on both engines: a site whose first segment is
 * mostly cities, with old numbered pages, an API path, a campaign address redirected to an old page
 * (which redirects again) and a missing robots.txt beside them. Each
 * pattern reads like the site, and each redirect's diagnosis rests on the target the log gives.
 */
@ClickHouseTest
class MixedSitePatternsTest {

    private static final String FORMAT = "nginx:$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent"
            + " \"$http_referer\" \"$http_user_agent\" $request_time \"$sent_http_location\"";
    private static final String GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

    /** What each pattern is and what is said of it. */
    private static final Map<String, String> EXPECTED = expected();

    private static Map<String, String> expected() {
        Map<String, String> kinds = new LinkedHashMap<>();
        kinds.put("/{city}/{street}", "trailing_slash_added");
        kinds.put("/{city}/{street}/", "not_modified");
        kinds.put("/{city}/straten/{letter}", "not_found");
        kinds.put("/old/{n}", "soft_404");
        kinds.put("/summer-sale", "redirect_chain");
        kinds.put("/api/v1/streets", "server_error");
        kinds.put("/robots.txt", "robots_missing");
        return kinds;
    }

    @TempDir
    Path dir;

    private Path log() throws Exception {
        List<String> lines = new ArrayList<>();
        int second = 0;
        for (String city : List.of("antwerp", "ghent", "bruges", "leuven", "vilvoorde")) {
            for (String street : List.of("meir", "kouter", "markt")) {
                String path = "/" + city + "/" + city + "-" + street;
                lines.add(line(second++, path, 308, "https://www.straatinfo.be" + path + "/"));
                lines.add(line(second++, path + "/", 304, null));
            }
            lines.add(line(second++, "/" + city + "/straten/q", 404, null));
        }
        lines.add(line(second++, "/old/123", 301, "https://www.straatinfo.be/"));
        lines.add(line(second++, "/old/789", 301, "/"));
        lines.add(line(second++, "/old/456", 410, null));
        lines.add(line(second++, "/summer-sale", 302, "/old/123"));
        lines.add(line(second++, "/api/v1/streets?city=antwerp", 500, null));
        lines.add(line(second++, "/api/v1/streets?city=ghent", 503, null));
        lines.add(line(second++, "/robots.txt", 404, null));
        Path log = dir.resolve("access.log");
        Files.write(log, lines);
        return log;
    }

    private static String line(int second, String url, int status, String location) {
        return "66.249.66.%d - - [14/May/2025:09:%02d:%02d +0000] \"GET %s HTTP/1.1\" %d 0 \"-\" \"%s\" 0.002 \"%s\"".formatted(
                1 + second % 9, second / 60, second % 60, url, status, GOOGLEBOT, location == null ? "-" : location);
    }

    private void importInto(String db) throws Exception {
        CommandRun run = CommandRun.of("import", "--db", db, "--ip-ranges", SampleLogs.ipRanges(dir).toString(), "--dns-server", "none",
                "--format", FORMAT, log().toString());
        assertThat(run.exit()).as(run.err()).isZero();
    }

    private static Map<String, String> kinds(HitStore store) {
        CrawlErrorReport report = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC).withUrlNames(List.of("/{city}/{street}/{section}")).withSummaryWait(Duration.ofSeconds(30)));
        try {
            Map<String, String> kinds = new LinkedHashMap<>();
            for (ErrorPattern pattern : report.patterns(ReportRequest.FIRST_PAGE).patterns()) {
                kinds.put(pattern.pattern(), pattern.diagnosis().kind());
            }
            return kinds;
        } finally {
            report.close();
        }
    }

    @Test
    void theMixedSitesPatternsReadLikeTheSiteOnDuckDb() throws Exception {
        Path db = dir.resolve("mixed.duckdb");
        importInto(db.toString());

        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            assertThat(kinds(store)).containsExactlyInAnyOrderEntriesOf(EXPECTED);
        }
    }

    @Test
    void theMixedSitesPatternsReadLikeTheSiteOnClickHouse() throws Exception {
        ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();
        String db = ClickHouseTestCluster.database("mixed");
        importInto(cluster.url(db));

        try (ClickHouseHitStore store = ClickHouseHitStore.open(cluster.location(db), ClickHouseSettings.SERVE)) {
            assertThat(kinds(store)).containsExactlyInAnyOrderEntriesOf(EXPECTED);
        }
    }

    @Test
    void aRedirectWhoseTargetTheLogDoesNotGiveGetsNoCause() throws Exception {
        Path log = dir.resolve("combined.log");
        List<String> lines = new ArrayList<>();
        for (String n : List.of("1", "2", "3")) {
            lines.add("66.249.66.1 - - [14/May/2025:09:31:0" + n + " +0000] \"GET /old/" + n + " HTTP/1.1\" 301 0 \"-\" \"" + GOOGLEBOT
                    + "\" 0.002");
        }
        Files.write(log, lines);
        Path db = dir.resolve("combined.duckdb");
        CommandRun run = CommandRun.importing(dir, db, log.toString());
        assertThat(run.exit()).as(run.err()).isZero();

        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            CrawlErrorReport report = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC).withSummaryWait(Duration.ofSeconds(30)));
            assertThat(report.patterns(ReportRequest.FIRST_PAGE).patterns()).singleElement().satisfies(p -> {
                assertThat(p.pattern()).isEqualTo("/old/{n}");
                assertThat(p.diagnosis().text()).isEqualTo("Redirect (301): the log does not say where to; internal links and the"
                        + " sitemap should point at the final address.");
            });
            report.close();
        }
    }
}
