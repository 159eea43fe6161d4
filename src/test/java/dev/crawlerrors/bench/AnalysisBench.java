package dev.crawlerrors.bench;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import dev.crawlerrors.web.ReportServer;
import dev.crawlerrors.web.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * What the analysis pages cost on a large store, through HTTP: the URL patterns, the overview and
 * the report page with its summary, on a store of {@code HITS} error hits (default 10,000,000: a
 * month of crawler traffic in time order, about 900,000 distinct URLs in nine shapes, built once
 * by SQL and kept in {@code STORE}; each run works on a copy, as it adds hits). Printed, each as
 * median and 99th percentile of its {@code ROUNDS}:
 *
 * <ul>
 *   <li>the baseline: plain DuckDB on the same file, before the store opens: the counts by status and
 *       by URL a page would need if it counted them per request;
 *   <li>the first request (the counts are made) and then repeated requests (kept counts), and the
 *       ratio of each to the plain report page's (JSON, page 1: the read model alone) in the same run;
 *   <li>requests after new hits arrive ({@value #NEW_HITS} per round: the window since the last count);
 *   <li>fresh filters (status, bot type, one day): their first request, and repeated;
 *   <li>a verdict change: the answer while the counts are made again, and how long that takes;
 *   <li>the process's resident memory, now and at its peak.
 * </ul>
 *
 * <pre>
 * export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
 * mvn -B -q -DskipTests package &amp;&amp; mvn -B -q test-compile
 * $JAVA_HOME/bin/java -Xmx1g --enable-native-access=ALL-UNNAMED -cp target/test-classes:target/crawl-errors.jar \
 *     dev.crawlerrors.bench.AnalysisBench /tmp/analysis-bench.duckdb 10000000 30
 * </pre>
 */
public final class AnalysisBench {

    private static final int NEW_HITS = 1_000;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static String base;

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args.length > 0 ? args[0] : "/tmp/analysis-bench.duckdb");
        long hits = args.length > 1 ? Long.parseLong(args[1]) : 10_000_000L;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        if (!Files.exists(file)) {
            build(file, hits);
        }
        // each run on a copy: the run adds hits and changes a verdict
        Path copy = Path.of(file + ".run");
        Files.copy(file, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.deleteIfExists(Path.of(copy + ".wal"));
        System.out.println("load average at the start: " + Files.readString(Path.of("/proc/loadavg")).strip());
        baseline(copy);
        try (DuckDbHitStore store = DuckDbHitStore.open(copy)) {
            System.out.printf("store %s: %,d hits%n", file, store.health().size());
            CrawlErrorReport report = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC).withUrlNames(List.of("/{city}/{street}/{section}")).withSummaryWait(Duration.ofSeconds(60)));
            ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0));
            base = "http://127.0.0.1:" + server.port();
            try {
                // the plain report page (JSON, no summary) is the baseline the analysis pages are set against, in the same run
                java.util.Map<String, Long> p50 = new java.util.LinkedHashMap<>();
                for (String path : List.of("/api/crawl-errors?page=1", "/api/crawl-errors/patterns", "/api/crawl-errors/overview",
                        "/crawl-errors/patterns", "/crawl-errors/overview", "/crawl-errors", "/api/crawl-errors?page=1&status=404")) {
                    long first = untilCounted(path);
                    long[] again = times(path, rounds);
                    print(path + " first", first);
                    print(path + " repeated", again);
                    p50.put(path, median(again));
                }
                long plain = p50.get("/api/crawl-errors?page=1");
                p50.forEach((path, median) -> System.out.printf("ratio to the plain report page: %-52s %6.2f%n", path,
                        (double) median / plain));
                long[] patterns = new long[rounds];
                long[] overview = new long[rounds];
                for (int i = 0; i < rounds; i++) {
                    store.writer().append(newHits(i));
                    patterns[i] = time("/api/crawl-errors/patterns");
                    store.writer().append(newHits(rounds + i));
                    overview[i] = time("/api/crawl-errors/overview");
                }
                print("patterns after " + NEW_HITS + " new hits", patterns);
                print("overview after " + NEW_HITS + " new hits", overview);
                for (String filter : List.of("status=404", "bot=crawler_inspection_tool", "from=2026-10-15&to=2026-10-15")) {
                    for (String page : List.of("/api/crawl-errors/patterns?", "/api/crawl-errors/overview?")) {
                        print(page + filter + " first", untilCounted(page + filter));
                        print(page + filter + " repeated", times(page + filter, rounds));
                    }
                }
                store.verdicts().update("66.249.1.1", "Googlebot Smartphone", new Verdict(Verification.spoofed, "bench"));
                long changed = System.nanoTime();
                print("patterns after a verdict change (answered from the counts before it)", time("/api/crawl-errors/patterns"));
                print("overview after a verdict change (answered from the counts before it)", time("/api/crawl-errors/overview"));
                while (get("/api/crawl-errors/overview").contains("\"recounting\":true")) {
                    Thread.sleep(100);
                }
                print("overview recounted after the verdict change", System.nanoTime() - changed);
                memory();
                System.out.println("load average at the end: " + Files.readString(Path.of("/proc/loadavg")).strip());
            } finally {
                server.close();
            }
        } finally {
            Files.deleteIfExists(copy);
            Files.deleteIfExists(Path.of(copy + ".wal"));
        }
    }

    /** The counts a request would make without kept counts, by plain DuckDB on the same file, in the same run. */
    private static void baseline(Path file) throws Exception {
        Properties config = new Properties();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath(), config); Statement st = c.createStatement()) {
            String join = " FROM hits h LEFT JOIN verdicts v ON v.ip = h.ip AND v.crawler = h.crawler"
                    + " WHERE h.status >= 300 AND coalesce(v.verification, 'unverified') <> 'spoofed'";
            for (String[] query : new String[][] {
                    {"baseline: hits by status, no verdicts", "SELECT status, count(*) FROM hits WHERE status >= 300 GROUP BY status"},
                    {"baseline: hits by status, spoofed left out", "SELECT h.status, count(*)" + join + " GROUP BY h.status"},
                    {"baseline: hits by hour and status, no verdicts", "SELECT epoch_ms(ts) // 3600000, status, count(*) FROM hits GROUP BY ALL"},
                    {"baseline: hits by URL, no verdicts", "SELECT url, count(*) FROM hits WHERE status >= 300 GROUP BY url"}}) {
                long[] t = new long[3];
                for (int i = 0; i < t.length; i++) {
                    long start = System.nanoTime();
                    try (ResultSet rs = st.executeQuery(query[1])) {
                        while (rs.next()) {
                            rs.getObject(1);
                        }
                    }
                    t[i] = System.nanoTime() - start;
                }
                print(query[0], t);
            }
        }
    }

    /** A month of error hits in time order: nine URL shapes over 50 cities of 2,000 streets each; 1% of addresses spoofed. */
    private static void build(Path file, long hits) throws Exception {
        DuckDbHitStore.open(file).close(); // the schema
        long start = System.nanoTime();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath()); Statement st = c.createStatement()) {
            st.execute("""
                INSERT INTO hits
                WITH r AS (SELECT i, (hash(i) %% 1000000007)::BIGINT AS h, (hash(i * 7 + 3) %% 1000000007)::BIGINT AS g FROM range(%d) t(i)),
                k AS (SELECT i, h, g, h %% 1000 AS kind, 'city' || (g %% 50) AS city, 'street-' || ((g // 50) %% 2000) AS street,
                       (['parkeren','mobiliteit','bedrijven','scholen'])[1 + (g // 100000) %% 4] AS section FROM r)
                SELECT i + 1, TIMESTAMP '2026-10-01' + to_milliseconds(i * 2592000000 // %d), 120,
                  CASE WHEN kind < 100 THEN '157.55.' || (h %% 40) || '.' || ((h // 40) %% 200) ELSE '66.249.' || (h %% 64) || '.' || ((h // 64) %% 251) END,
                  'GET',
                  CASE WHEN kind < 450 THEN '/' || city || '/' || street
                       WHEN kind < 700 THEN '/' || city || '/' || street || '/'
                       WHEN kind < 800 THEN '/' || city || '/' || street || '/' || section
                       WHEN kind < 850 THEN '/' || city || '/' || street || '/' || section || '/'
                       WHEN kind < 930 THEN '/' || city || '/straten/' || chr(97 + (g %% 26)::INT)
                       WHEN kind < 960 THEN '/product/' || (g %% 50000)
                       WHEN kind < 980 THEN '/api/search?q=' || street
                       ELSE '/' || city || '/parkeren' END,
                  (CASE WHEN kind < 450 THEN 308 WHEN kind < 700 THEN 304 WHEN kind < 800 THEN 308 WHEN kind < 850 THEN 304
                        WHEN kind < 930 THEN 404 WHEN kind < 960 THEN 410 WHEN kind < 980 THEN (CASE WHEN h %% 3 = 0 THEN 503 ELSE 500 END)
                        ELSE 308 END)::SMALLINT,
                  NULL, ((h // 7) %% 30) / 10.0 + CASE WHEN kind >= 960 AND kind < 980 THEN 900 ELSE 0 END,
                  CASE WHEN kind < 100 THEN 'Bingbot' WHEN kind >= 980 THEN 'Google-InspectionTool' WHEN h %% 5 = 0 THEN 'Googlebot Desktop'
                       ELSE 'Googlebot Smartphone' END,
                  CASE WHEN kind >= 980 THEN 'crawler_inspection_tool' ELSE 'crawler_search' END,
                  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', NULL, 'www.example.com', NULL, NULL
                FROM k
                """.formatted(hits, hits));
            // the claims (schema 2): each address and crawler numbered, its verdict the first of its history, its hits' claim_id
            st.execute("INSERT INTO verdicts SELECT ip, crawler, CASE WHEN hash(ip) % 100 = 0 THEN 'spoofed' ELSE 'verified' END,"
                    + " 'bench', now(), claim, claim FROM (SELECT ip, crawler, row_number() OVER (ORDER BY ip, crawler) AS claim"
                    + " FROM (SELECT DISTINCT ip, crawler FROM hits))");
            st.execute("INSERT INTO verdict_log SELECT version, claim_id, verification, reason, checked_at FROM verdicts");
            st.execute("UPDATE hits SET claim_id = v.claim_id FROM verdicts v WHERE hits.ip = v.ip AND hits.crawler = v.crawler");
            st.execute("CHECKPOINT");
        }
        System.out.printf("built %s: %,d hits in %.1f s%n", file, hits, (System.nanoTime() - start) / 1e9);
    }

    private static List<CrawlerHit> newHits(int round) {
        Crawler googlebot = new Crawler("Googlebot Smartphone", "Google", BotType.crawler_search, List.of("Googlebot"), null, null, null);
        long at = Instant.parse("2026-10-31T12:00:00Z").toEpochMilli() + round * 60_000L;
        List<CrawlerHit> out = new ArrayList<>(NEW_HITS);
        for (int i = 0; i < NEW_HITS; i++) {
            Hit hit = new Hit(at + i, 120, "66.249.2." + (i % 200), "GET", "/city" + (i % 50) + "/new-street-" + round + "-" + i,
                    i % 10 == 0 ? 404 : 308, 0, null, "Googlebot", 0.2, "www.example.com");
            out.add(new CrawlerHit(hit, googlebot, new Verdict(Verification.verified, "bench")));
        }
        return out;
    }

    private static String get(String path) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofMinutes(2)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    /** From the first request until one is answered (a first count longer than the server waits is a 503 to try again). */
    private static long untilCounted(String path) throws Exception {
        long start = System.nanoTime();
        while (true) {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofMinutes(2)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                return System.nanoTime() - start;
            }
            if (response.statusCode() != 503) {
                throw new IllegalStateException(path + " answered " + response.statusCode() + ": " + response.body());
            }
            Thread.sleep(200);
        }
    }

    private static long time(String path) throws Exception {
        long start = System.nanoTime();
        get(path);
        return System.nanoTime() - start;
    }

    private static long[] times(String path, int rounds) throws Exception {
        long[] t = new long[rounds];
        for (int i = 0; i < rounds; i++) {
            t[i] = time(path);
        }
        return t;
    }

    private static long median(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static void print(String what, long... nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        if (sorted.length == 1) {
            System.out.printf("%-75s %9.1f ms%n", what, sorted[0] / 1e6);
        } else {
            long p99 = sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.99) - 1)];
            System.out.printf("%-75s p50 %9.1f ms  p99 %9.1f ms  (%d)%n", what, sorted[sorted.length / 2] / 1e6, p99 / 1e6, sorted.length);
        }
    }

    private static void memory() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS") || line.startsWith("VmHWM")) {
                System.out.println(line.replaceAll("\\s+", " "));
            }
        }
    }
}
