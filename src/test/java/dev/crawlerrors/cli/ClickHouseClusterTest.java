package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.ProcessTest;
import dev.crawlerrors.Waits;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.clickhouse.ClickHouseHitStore;
import dev.crawlerrors.store.clickhouse.ClickHouseSettings;
import dev.crawlerrors.store.clickhouse.ClickHouseTestCluster;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import dev.crawlerrors.store.remote.ServedStore;
import dev.crawlerrors.web.ReportServer;
import dev.crawlerrors.web.ServerConfig;
import java.io.BufferedWriter;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ClickHouse store end to end, on the two-shard cluster: real {@code crawl-errors import}
 * processes writing at once, a real {@code serve} and a second report server reading it, every page
 * compared with the embedded store's for the same logs, and a worker killed mid-import.
 */
@ProcessTest
@ClickHouseTest
class ClickHouseClusterTest {

    private static final Path IP_RANGES = Path.of("bench/ip-ranges");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long IMPORT_SECONDS = 180;

    @TempDir
    static Path dir;

    private static ClickHouseTestCluster cluster;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void startCluster() {
        cluster = ClickHouseTestCluster.twoShards();
    }

    @Test
    void twoWorkersImportingAtOnceGiveEveryPageTheEmbeddedStoreGivesForTheSameLogs() throws Exception {
        // two servers' logs of the same hours: one logs at even seconds, the other at odd ones, two lines a second
        Path even = dir.resolve("web1.log");
        Path odd = dir.resolve("web2.log");
        CrawlerLog.write(even, 1, 0, 1_000, 2);
        CrawlerLog.write(odd, 2, 1, 1_000, 2);
        String db = ClickHouseTestCluster.database("parity");
        String url = cluster.url(db);

        Process one = ServeProcess.launch(dir.resolve("import1.out"), "import", importArgs(url, even));
        Process two = ServeProcess.launch(dir.resolve("import2.out"), "import", importArgs(url, odd));
        List<String> embeddedArgs = new ArrayList<>(List.of("import"));
        embeddedArgs.addAll(List.of(importArgs(dir.resolve("embedded.duckdb").toString(), even, odd)));
        CommandRun embedded = CommandRun.of(embeddedArgs.toArray(String[]::new));
        assertThat(embedded.exit()).as(embedded.err()).isZero();
        awaitSuccess(one, dir.resolve("import1.out"));
        awaitSuccess(two, dir.resolve("import2.out"));
        assertThat(Files.readString(dir.resolve("import1.out"))).contains("Store: " + url + " (");

        Path defaultDb = Path.of(StoreOptions.DEFAULT_DB);
        String servedBefore = stamp(ServedStore.fileOf(defaultDb));
        String socketBefore = stamp(defaultDb.resolveSibling(defaultDb.getFileName() + ".serve.d"));
        try (DuckDbHitStore duck = DuckDbHitStore.open(dir.resolve("embedded.duckdb"));
             ReportServer duckServer = ReportServer.start(new CrawlErrorReport(duck.reader(), ReportConfig.in(ZoneId.of("Europe/Brussels"))), duck.health(), ServerConfig.on("127.0.0.1", 0));
             ServeProcess serve = ServeProcess.start(dir.resolve("serve.out"), "--db", url, "--port", "0", "--timezone",
                     "Europe/Brussels", "--ip-ranges", IP_RANGES.toString(), "--dns-server", "none");
             ClickHouseHitStore other = ClickHouseHitStore.open(cluster.location(db), ClickHouseSettings.SERVE);
             ReportServer otherServer = ReportServer.start(new CrawlErrorReport(other.reader(), ReportConfig.in(ZoneId.of("Europe/Brussels"))), other.health(), ServerConfig.on("127.0.0.1", 0))) {
            assertThat(Files.readString(dir.resolve("serve.out"))).contains("Store: ClickHouse store " + url + " (2 shards;");
            // ClickHouse takes every import itself: the serve listens for none where the default DuckDB file would be
            assertThat(stamp(ServedStore.fileOf(defaultDb))).isEqualTo(servedBefore);
            assertThat(stamp(defaultDb.resolveSibling(defaultDb.getFileName() + ".serve.d"))).isEqualTo(socketBefore);
            String duckBase = "http://127.0.0.1:" + duckServer.port();
            String otherBase = "http://127.0.0.1:" + otherServer.port();
            List<String> views = List.of("", "status=404", "verification=spoofed", "bot=crawler_ai&bot=crawler_other", "url=/city/1",
                    "from=2025-05-14T00:10&to=2025-05-14T00:25", "status=5xx&verification=verified");
            int pagesCompared = 0;
            for (String view : views) {
                JsonNode first = json(duckBase, view, 1);
                int pages = first.get("pages").asInt();
                assertThat(first.get("total").asLong()).as(view).isPositive();
                for (int page = 1; page <= pages; page++) {
                    String expected = body(duckBase + "/api/crawl-errors?" + query(view, page));
                    HttpResponse<String> clickhouse = get(serve.base() + "/api/crawl-errors?" + query(view, page));
                    assertThat(clickhouse.statusCode()).isEqualTo(200);
                    assertThat(withoutSnapshot(clickhouse.body())).as(view + " page " + page).isEqualTo(withoutSnapshot(expected));
                    if (page == pages) {
                        // a page of this snapshot from the other report server: the same answer, snapshot and all
                        String at = JSON.readTree(clickhouse.body()).get("at").asText();
                        String path = "/api/crawl-errors?" + query(view, 1) + "&at=" + at;
                        // "newer" is whether the store has moved on since the snapshot, as each server last looked (serve's
                        // re-checks write verdicts as it starts): asked again until both servers have looked since
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                        String fromOther = body(otherBase + path);
                        String fromServe = body(serve.base() + path);
                        while (!fromOther.equals(fromServe) && System.nanoTime() < deadline) {
                            Thread.sleep(200);
                            fromOther = body(otherBase + path);
                            fromServe = body(serve.base() + path);
                        }
                        assertThat(fromOther).isEqualTo(fromServe);
                    }
                    pagesCompared++;
                }
                assertThat(body(serve.base() + "/crawl-errors.csv?" + view)).as(view).isEqualTo(body(duckBase + "/crawl-errors.csv?" + view));
            }
            assertThat(pagesCompared).isGreaterThan(25);
            // the analysis pages, examples and all; then the report of each of the patterns they find
            for (String view : List.of("", "status=404", "bot=crawler_ai&bot=crawler_other", "verification=spoofed")) {
                String patterns = "/api/crawl-errors/patterns?" + view;
                assertThat(withoutSnapshot(counted(serve.base() + patterns))).as(patterns).isEqualTo(withoutSnapshot(body(duckBase + patterns)));
                String overview = "/api/crawl-errors/overview?" + view;
                assertThat(withoutSnapshot(counted(serve.base() + overview))).as(overview).isEqualTo(withoutSnapshot(body(duckBase + overview)));
            }
            JsonNode patterns = JSON.readTree(body(duckBase + "/api/crawl-errors/patterns")).get("patterns");
            assertThat(patterns.size()).isPositive();
            assertThat(patterns.get(0).get("examples").size()).isEqualTo(3);
            for (JsonNode pattern : patterns) {
                String view = "pattern=" + URLEncoder.encode(pattern.get("pattern").asText(), StandardCharsets.UTF_8);
                for (String path : List.of("/api/crawl-errors?" + view, "/api/crawl-errors/overview?" + view)) {
                    assertThat(withoutSnapshot(counted(serve.base() + path))).as(path).isEqualTo(withoutSnapshot(body(duckBase + path)));
                }
            }
            assertThat(json(serve.base(), "", 1).get("total").asLong()).isEqualTo(first(duckBase).get("total").asLong());
        }
    }

    @Test
    void anImportKilledMidWayResumesWithNothingLostOrRepeated() throws Exception {
        Path log = dir.resolve("big.log");
        int lines = 120_000;
        CrawlerLog.write(log, 3, 0, lines, 5);
        String db = ClickHouseTestCluster.database("killed");
        String url = cluster.url(db);

        Process first = ServeProcess.launch(dir.resolve("killed.out"), "import", importArgs(url, log));
        // killed once a batch with the log's position is committed, while it reads on
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(IMPORT_SECONDS);
        while (committedPositions(db) == 0) {
            assertThat(first.isAlive()).as("the import ran until it was killed: " + Files.readString(dir.resolve("killed.out"))).isTrue();
            assertThat(System.nanoTime()).as("a batch committed in time").isLessThan(deadline);
            Thread.sleep(20);
        }
        assertThat(first.isAlive()).isTrue();
        first.destroyForcibly().waitFor(30, TimeUnit.SECONDS);

        long committed = stored(db);
        assertThat(committed).isPositive().isLessThan(lines);
        Process again = ServeProcess.launch(dir.resolve("resumed.out"), "import", importArgs(url, log));
        awaitSuccess(again, dir.resolve("resumed.out"));

        assertThat(Files.readString(dir.resolve("resumed.out"))).contains("Store: " + url + " (" + String.format(Locale.ROOT, "%,d", lines) + " crawler hits in all)");
        assertThat(stored(db)).isEqualTo(lines);
        // every line a URL of its own: none twice
        try (ClickHouseHitStore store = ClickHouseHitStore.open(cluster.location(db), ClickHouseSettings.SERVE)) {
            CrawlErrorReport report = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC));
            java.util.Set<String> urls = new java.util.HashSet<>();
            long[] rows = {0};
            report.forEachRow(dev.crawlerrors.store.HitFilter.ERRORS, row -> {
                rows[0]++;
                urls.add(row.url());
            });
            assertThat(rows[0]).isEqualTo(urls.size()).isEqualTo(CrawlerLog.errors(3, 0, lines, 5));
        }
    }

    @Test
    void importingAnUnchangedDirectoryOfGzipLogsAgainOpensNoneAndStoresNothingTwice() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("rotated"));
        for (int i = 1; i <= 4; i++) {
            Path plain = dir.resolve("rotated-" + i + ".log");
            CrawlerLog.write(plain, 20 + i, 0, 250, 2);
            try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(logs.resolve("access.log." + i + ".gz")))) {
                Files.copy(plain, out);
            }
        }
        String url = cluster.url(ClickHouseTestCluster.database("rerun"));

        CommandRun first = CommandRun.of(withCommand("import", importArgs(url, logs)));
        CommandRun again = CommandRun.of(withCommand("import", importArgs(url, logs)));

        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).contains("Crawler hits stored: 1,000;")
                .contains("Logs: 4 files, combined with request time in seconds (nginx $request_time), auto-detected: 4 new, 1,000 lines.")
                .contains("Store: " + url + " (1,000 crawler hits in all).");
        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(again.out()).contains("Crawler hits stored: 0;").contains("Logs: 4 files unchanged since imported, not opened.")
                .contains("Store: " + url + " (1,000 crawler hits in all).");
    }

    @Test
    void theDemoRunsOnClickHouseAndVerifyTakesItsUrl() throws Exception {
        String url = cluster.url(ClickHouseTestCluster.database("demo"));
        try (ServeProcess demo = ServeProcess.starting(dir.resolve("demo.out"), "demo", "--db", url, "--port", "0", "--dir",
                dir.resolve("demo").toString(), "--timezone", "Europe/Brussels")) {
            JsonNode page = JSON.readTree(body(demo.base() + "/api/crawl-errors?page=3"));
            assertThat(page.get("total").asLong()).isEqualTo(226);
            assertThat(page.get("rows").size()).isEqualTo(26);
        }
        CommandRun verify = CommandRun.of("verify", "--db", url, "--ip-ranges", IP_RANGES.toString(), "--dns-server", "none",
                "66.249.66.1");
        assertThat(verify.exit()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).contains("verdict:  verified");
    }

    /** When {@code file} was last changed, or "absent": whether a process made or claimed it since. */
    private static String stamp(Path file) throws IOException {
        return Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                ? Files.getLastModifiedTime(file, java.nio.file.LinkOption.NOFOLLOW_LINKS).toString() : "absent";
    }

    private static String[] withCommand(String command, String... args) {
        List<String> all = new ArrayList<>(List.of(command));
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    private static String[] importArgs(String db, Path... logs) {
        List<String> args = new ArrayList<>(List.of("--db", db, "--ip-ranges", IP_RANGES.toString(), "--dns-server", "none"));
        for (Path log : logs) {
            args.add(log.toString());
        }
        return args.toArray(String[]::new);
    }

    private static void awaitSuccess(Process process, Path output) throws Exception {
        if (!process.waitFor(IMPORT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the import did not end within " + IMPORT_SECONDS + " s: " + Files.readString(output));
        }
        assertThat(process.exitValue()).as(Files.readString(output)).isZero();
    }

    /** Log positions committed so far. */
    private static long committedPositions(String db) {
        try {
            return cluster.number(1, "SELECT count() FROM " + db + ".commits WHERE fingerprint != ''");
        } catch (IllegalStateException e) {
            return 0; // the import has not made the tables yet
        }
    }

    /** The hits the store counts now, as a new reader sees them. */
    private static long stored(String db) {
        try (ClickHouseHitStore store = ClickHouseHitStore.open(cluster.location(db), ClickHouseSettings.SERVE)) {
            return store.health().size();
        }
    }

    private static String query(String view, int page) {
        return (view.isEmpty() ? "" : view + "&") + "page=" + page;
    }

    private JsonNode json(String base, String view, int page) throws Exception {
        return JSON.readTree(body(base + "/api/crawl-errors?" + query(view, page)));
    }

    private JsonNode first(String base) throws Exception {
        return json(base, "", 1);
    }

    private String body(String url) throws Exception {
        HttpResponse<String> response = get(url);
        assertThat(response.statusCode()).as(url + ": " + response.body()).isEqualTo(200);
        return response.body();
    }

    /**
     * A counted page once its counts are of the newest verdicts: serve re-checks verdicts as it
     * starts, and a page counted before a re-check says it is being recounted until it is.
     */
    private String counted(String url) throws Exception {
        String page = Waits.await("the page recounted").pollInterval(Duration.ofMillis(200))
                .until(() -> body(url), counted -> !counted.contains("\"recounting\":true"));
        return page;
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /**
     * The page with its snapshot's name left out (the name is the store's own: DuckDB counts rows,
     * ClickHouse batches), and its hits' ids: two workers number their hits each from 1 at once, so
     * a hit's id on ClickHouse (ClickHouseHitReader.ID: its writer's and its number) cannot be the
     * one the embedded store gives it. Only the rows' {@code id} fields are ids.
     */
    private static String withoutSnapshot(String json) {
        return json.replaceAll("\"(at|snapshot)\":\"[0-9]+\\.[0-9]+\"", "\"$1\":\"\"").replaceAll("at=[0-9]+\\.[0-9]+", "at=")
                .replaceAll("\\{\"id\":[0-9]+,\"timestamp\":", "{\"id\":0,\"timestamp\":");
    }

    /**
     * Crawler traffic as nginx logs it ({@code combined} and {@code $request_time}): Googlebot from
     * its list's block, impostors claiming Googlebot, Bingbot, GPTBot and AhrefsBot (which publishes
     * no list), every line a URL of its own, {@code perSecond} lines a second at every other second
     * from {@code parity} on, so two logs written with parities 0 and 1 never share an instant.
     */
    static final class CrawlerLog {

        private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT)
                .withZone(ZoneOffset.ofHours(2));
        private static final long START = Instant.parse("2025-05-13T22:00:00Z").getEpochSecond();
        private static final int[] STATUSES = {200, 200, 200, 301, 304, 308, 404, 404, 404, 410, 500, 503};
        private static final String[][] CRAWLERS = {
            {"66.249.66.", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"},
            {"66.249.66.", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"},
            {"203.0.113.", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"},
            {"157.55.39.", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"},
            {"20.171.207.", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"},
            {"54.36.148.", "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)"},
        };

        static void write(Path file, long seed, int parity, int lines, int perSecond) throws IOException {
            SplittableRandom random = new SplittableRandom(seed);
            try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                StringBuilder line = new StringBuilder(256);
                for (int i = 0; i < lines; i++) {
                    long second = START + 2L * (i / perSecond) + parity;
                    String[] crawler = CRAWLERS[random.nextInt(CRAWLERS.length)];
                    int status = STATUSES[random.nextInt(STATUSES.length)];
                    line.setLength(0);
                    line.append(crawler[0]).append(1 + random.nextInt(40)).append(" - - [")
                            .append(TIME.format(Instant.ofEpochSecond(second))).append("] \"")
                            .append(random.nextInt(10) == 0 ? "HEAD" : "GET").append(" /city/").append(random.nextInt(30))
                            .append("/it's-").append(seed).append('-').append(i).append(random.nextInt(7) == 0 ? "?q=caf%C3%A9&x=\\x22" : "")
                            .append(" HTTP/1.1\" ").append(status).append(' ').append(random.nextInt(90_000)).append(" \"-\" \"")
                            .append(crawler[1]).append("\" ").append(random.nextInt(5) == 0 ? "-" : String.format(Locale.ROOT, "%.3f",
                                    random.nextInt(3000) / 1000.0)).append('\n');
                    out.append(line);
                }
            }
        }

        /** The error hits (status >= 300) of such a log that are not impostors'. */
        static long errors(long seed, int parity, int lines, int perSecond) {
            SplittableRandom random = new SplittableRandom(seed);
            long errors = 0;
            for (int i = 0; i < lines; i++) {
                String[] crawler = CRAWLERS[random.nextInt(CRAWLERS.length)];
                int status = STATUSES[random.nextInt(STATUSES.length)];
                random.nextInt(40);
                random.nextInt(10);
                random.nextInt(30);
                random.nextInt(7);
                random.nextInt(90_000);
                if (random.nextInt(5) != 0) {
                    random.nextInt(3000);
                }
                if (status >= 300 && !crawler[0].equals("203.0.113.")) {
                    errors++;
                }
            }
            return errors;
        }
    }
}
