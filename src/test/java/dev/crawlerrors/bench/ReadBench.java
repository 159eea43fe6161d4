package dev.crawlerrors.bench;

import static dev.crawlerrors.bench.BenchWords.CITIES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.function.LongFunction;

/**
 * Times report pages as a reader gets them, through HTTP from a running {@code serve}, one request
 * at a time, and the same pages of plain DuckDB ({@code ORDER BY ts DESC, id DESC LIMIT 100 OFFSET n})
 * on the same store file as the baseline. Fresh parameters every request: random pages, and for the
 * filtered view a different day each time, so no answer is one the server gave before. Run by
 * {@code bench/read-side.sh}; by hand:
 *
 * <pre>
 * java -cp target/test-classes:target/crawl-errors.jar dev.crawlerrors.bench.ReadBench http://127.0.0.1:8080 [REQUESTS [SEED]]
 * java -cp target/test-classes:target/crawl-errors.jar dev.crawlerrors.bench.ReadBench --duckdb STORE.duckdb [REQUESTS]
 * </pre>
 *
 * Prints one line per kind of page: p50 and p99 in milliseconds. SEED (7 unless given) picks the random pages and
 * filters: a second run on the same server with another seed asks views never asked before again.
 */
public final class ReadBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The month ReadBenchLog writes, in the server's display zone (the bench serves in +02:00). */
    private static final LocalDate FIRST_DAY = LocalDate.of(2026, 10, 1);

    private ReadBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 2 && args[0].equals("--duckdb")) {
            baseline(args[1], args.length > 2 ? Integer.parseInt(args[2]) : 50);
        } else {
            http(args[0], args.length > 1 ? Integer.parseInt(args[1]) : 200, args.length > 2 ? Long.parseLong(args[2]) : 7);
        }
    }

    private static void http(String base, int requests, long seed) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        JsonNode first = get(client, base + "/api/crawl-errors?page=1");
        int pages = first.get("pages").asInt();
        String at = first.get("at").asText();
        System.out.printf(Locale.ROOT, "store: %,d error hits, %,d pages, snapshot %s%n", first.get("total").asLong(), pages, at);
        SplittableRandom random = new SplittableRandom(seed);
        report("first page (JSON)", time(requests, i -> base + "/api/crawl-errors?page=1", client));
        report("first page (HTML)", time(requests, i -> base + "/crawl-errors?page=1", client));
        report("middle page", time(requests, i -> base + "/api/crawl-errors?page=" + (pages / 2) + "&at=" + at, client));
        report("last page", time(requests, i -> base + "/api/crawl-errors?page=" + pages + "&at=" + at, client));
        report("random page", time(requests, i -> base + "/api/crawl-errors?page=" + (1 + random.nextInt(pages)) + "&at=" + at, client));
        report("filtered (404, bot, a day)", time(requests, i -> {
            String day = FIRST_DAY.plusDays(random.nextInt(31)).toString();
            return base + "/api/crawl-errors?status=404&bot=crawler_search&from=" + day + "&to=" + day;
        }, client));
        report("filtered, random page", time(requests, i -> {
            String day = FIRST_DAY.plusDays(random.nextInt(31)).toString();
            return base + "/api/crawl-errors?status=404&bot=crawler_search&from=" + day + "&to=" + day + "&page=" + (1 + random.nextInt(30));
        }, client));
        // each filter alone, then all at once: fresh values (and pages) every request
        String api = base + "/api/crawl-errors?";
        report("status", time(requests, i -> api + "status=" + STATUSES[random.nextInt(STATUSES.length)] + "&page=" + (1 + random.nextInt(3)), client));
        report("bot type", time(requests, i -> api + "bot=" + (random.nextInt(4) == 0 ? "crawler_inspection_tool" : "crawler_search")
                + "&page=" + (1 + random.nextInt(100)), client));
        report("verification", time(requests, i -> api + "verification=" + (random.nextInt(4) == 0 ? "spoofed" : "verified")
                + "&page=" + (1 + random.nextInt(50)), client));
        report("crawler", time(requests, i -> api + "crawler=" + CRAWLERS[random.nextInt(CRAWLERS.length)].replace(" ", "+")
                + "&page=" + (1 + random.nextInt(50)), client));
        report("host", time(requests, i -> api + "host=h" + random.nextInt(1_000_000) + ".example", client));
        report("URL prefix", time(requests, i -> api + "url=" + prefix(random) + "&page=" + (1 + random.nextInt(3)), client));
        report("time range (fresh minutes)", time(requests, i -> api + window(random), client));
        report("combined, fresh", time(requests, i -> api + "status=" + STATUSES[random.nextInt(STATUSES.length)] + "&bot=crawler_search"
                + "&verification=verified&crawler=" + CRAWLERS[random.nextInt(2)].replace(" ", "+") + "&url=" + prefix(random) + "&" + window(random),
                client));
        String repeated = api + "status=404&bot=crawler_search&verification=verified&url=/gent/&from=2026-10-07T10:00&to=2026-10-09T16:59";
        report("combined, repeated", time(requests, i -> repeated, client));
        report("HTML, filtered fresh", time(requests, i -> base + "/crawl-errors?status=" + STATUSES[random.nextInt(STATUSES.length)]
                + "&url=" + prefix(random) + "&" + window(random), client));
    }

    private static final int[] STATUSES = {301, 304, 308, 404, 410, 500, 503};
    private static final String[] CRAWLERS = {"Googlebot Smartphone", "Googlebot Desktop", "Google-InspectionTool"};

    /** A city's pages, or its streets' index under one letter. */
    private static String prefix(SplittableRandom random) {
        String city = CITIES[random.nextInt(CITIES.length)];
        return random.nextBoolean() ? "/" + city + "/" : "/" + city + "/straten/" + (char) ('a' + random.nextInt(26));
    }

    /** A time range of 1 to 48 hours starting at a random minute of the month: a view never asked before. */
    private static String window(SplittableRandom random) {
        java.time.LocalDateTime from = FIRST_DAY.atStartOfDay().plusMinutes(random.nextInt(30 * 24 * 60));
        java.time.LocalDateTime to = from.plusMinutes(60 + random.nextInt(47 * 60));
        java.time.format.DateTimeFormatter minute = java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm");
        return "from=" + minute.format(from) + "&to=" + minute.format(to);
    }

    private static long[] time(int requests, LongFunction<String> url, HttpClient client) throws Exception {
        long[] nanos = new long[requests];
        for (int i = 0; i < requests; i++) {
            String u = url.apply(i);
            long start = System.nanoTime();
            HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(URI.create(u)).timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            nanos[i] = System.nanoTime() - start;
            if (response.statusCode() != 200 && response.statusCode() != 404) {
                throw new IllegalStateException(u + " answered " + response.statusCode() + ": " + new String(response.body()));
            }
        }
        return nanos;
    }

    private static JsonNode get(HttpClient client, String url) throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(response.body());
    }

    private static void baseline(String file, int requests) throws Exception {
        Properties config = new Properties();
        config.setProperty("duckdb.read_only", "true");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file, config)) {
            long rows;
            try (ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM hits")) {
                rs.next();
                rows = rs.getLong(1);
            }
            System.out.printf(Locale.ROOT, "plain DuckDB on %s: %,d rows%n", file, rows);
            SplittableRandom random = new SplittableRandom(7);
            String sql = "SELECT * FROM hits ORDER BY ts DESC, id DESC LIMIT 100 OFFSET ?";
            report("DuckDB first page", sqlTimes(c, sql, requests, i -> 0));
            report("DuckDB middle page", sqlTimes(c, sql, requests, i -> rows / 2 / 100 * 100));
            report("DuckDB last page", sqlTimes(c, sql, requests, i -> (rows - 1) / 100 * 100));
            report("DuckDB random page", sqlTimes(c, sql, requests, i -> random.nextLong(rows / 100) * 100));
        }
    }

    private static long[] sqlTimes(Connection c, String sql, int requests, java.util.function.LongUnaryOperator offset) throws Exception {
        long[] nanos = new long[requests];
        try (PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < requests; i++) {
                st.setLong(1, offset.applyAsLong(i));
                long start = System.nanoTime();
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        rs.getString(6);
                    }
                }
                nanos[i] = System.nanoTime() - start;
            }
        }
        return nanos;
    }

    private static void report(String label, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "%-30s p50 %8.2f ms   p99 %8.2f ms   (%d requests)%n", label,
                sorted[sorted.length / 2] / 1e6, sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.99) - 1)] / 1e6,
                sorted.length);
    }

}
