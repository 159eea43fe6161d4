package dev.crawlerrors.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Report pages through HTTP, one client, as a user pages: the time to each JSON page of the
 * first, middle, last and a filtered view's pages, median and 99th percentile. Each request is a
 * page of its own where the kind allows (the middle pages and the filtered view's are drawn at
 * random), so no answer is the repeat of one just asked. Run (bench/clickhouse-vs-duckdb.sh does):
 *
 * <pre>
 * java -cp target/test-classes:target/crawl-errors.jar dev.crawlerrors.bench.PageLatency http://127.0.0.1:8080 200 LABEL 'FILTER'
 * </pre>
 */
public final class PageLatency {

    private PageLatency() {
    }

    public static void main(String[] args) throws Exception {
        String base = args[0];
        int requests = Integer.parseInt(args[1]);
        String label = args[2];
        String filter = args[3];
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        ObjectMapper json = new ObjectMapper();
        SplittableRandom random = new SplittableRandom(7);
        int pages = json.readTree(get(http, base + "/api/crawl-errors?page=1")).get("pages").asInt();
        int filteredPages = json.readTree(get(http, base + "/api/crawl-errors?" + filter + "&page=1")).get("pages").asInt();
        String[] kinds = {"first", "middle", "last", "filtered"};
        for (String kind : kinds) {
            List<Long> nanos = new ArrayList<>();
            for (int i = 0; i < requests + 10; i++) {
                String query = switch (kind) {
                    case "first" -> "page=1";
                    case "middle" -> "page=" + (pages / 2 - pages / 50 + random.nextInt(Math.max(1, pages / 25)));
                    case "last" -> "page=" + pages;
                    default -> filter + "&page=" + (1 + random.nextInt(filteredPages));
                };
                long start = System.nanoTime();
                get(http, base + "/api/crawl-errors?" + query);
                if (i >= 10) { // the first ten warm the client's connection and the JIT
                    nanos.add(System.nanoTime() - start);
                }
            }
            long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
            System.out.printf(Locale.ROOT, "%s %s p50 %.1f ms p99 %.1f ms (%d requests; %d pages%s)%n", label, kind,
                    sorted[sorted.length / 2] / 1e6, sorted[(int) Math.ceil(sorted.length * 0.99) - 1] / 1e6, sorted.length,
                    kind.equals("filtered") ? filteredPages : pages, kind.equals("filtered") ? ", " + filter : "");
        }
    }

    private static String get(HttpClient http, String url) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(url + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

}
