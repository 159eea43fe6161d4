package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.ProcessTest;
import dev.crawlerrors.ingest.SampleLogs;
import java.io.BufferedWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whichever of serve's pooled reader connections answers, the report, the API, the CSV and
 * /metrics show every commit: after an import through serve returns, and while a followed log
 * grows. Readers made while the writer was mid-transaction once read its snapshot for ever (totals
 * of 0 where every hit was stored, until serve restarted).
 */
@ProcessTest
class ServedReadersSeeEveryCommitTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern STORED = Pattern.compile("(?m)^crawl_errors_hits_stored(?:\\{[^}]*\\})? ([0-9.E+]+)$");
    private static final int IMPORTED = 15_000;
    private static final int FOLLOWED = 2_000;

    @TempDir
    Path dir;

    private ServeProcess serve;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @AfterEach
    void stop() {
        if (serve != null) {
            serve.close();
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(serve.base() + path)).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void write(Path log, int from, int to, StandardOpenOption... options) throws Exception {
        try (BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8, options)) {
            for (int i = from; i <= to; i++) {
                out.write(SampleLogs.line(i));
            }
        }
    }

    /** Asks 40 times at once (more than the pool's readers), each with a filter of its own, and returns every total answered. */
    private List<Long> totalsFromEveryReader() throws Exception {
        List<Future<Long>> totals = new ArrayList<>();
        try (ExecutorService readers = Executors.newFixedThreadPool(40)) {
            for (int i = 0; i < 40; i++) {
                String path = "/api/crawl-errors?from=2000-01-01T00:" + String.format("%02d", i % 60);
                totals.add(readers.submit(() -> {
                    HttpResponse<String> page = get(path);
                    assertThat(page.statusCode()).as(path + ": " + page.body()).isEqualTo(200);
                    return JSON.readTree(page.body()).get("total").asLong();
                }));
            }
            List<Long> answered = new ArrayList<>();
            for (Future<Long> total : totals) {
                answered.add(total.get(120, TimeUnit.SECONDS));
            }
            return answered;
        }
    }

    private void assertEveryViewShows(long hits) throws Exception {
        assertThat(totalsFromEveryReader()).as("totals answered by every reader").containsOnly(hits);
        JsonNode page = JSON.readTree(get("/api/crawl-errors").body());
        assertThat(page.get("total").asLong()).isEqualTo(hits);
        assertThat(page.get("rows")).hasSize(100);
        String csv = get("/crawl-errors.csv").body();
        assertThat(csv.lines().count() - 1).as("CSV rows").isEqualTo(hits);
        Matcher stored = STORED.matcher(get("/metrics").body());
        assertThat(stored.find()).as("crawl_errors_hits_stored in /metrics").isTrue();
        assertThat((long) Double.parseDouble(stored.group(1))).isEqualTo(hits);
    }

    @Test
    void everyReaderShowsAnImportThroughServeWhenItReturnsAndAFollowedLogAsItGrows() throws Exception {
        Path followed = dir.resolve("live.log");
        Files.createFile(followed);
        Path log = dir.resolve("access.log");
        write(log, 1, IMPORTED);
        Path db = dir.resolve("served.duckdb");
        serve = ServeProcess.start(dir.resolve("serve.out"), "--db", db.toString(), "--port", "0", "--readers", "32",
                "--dns-server", "none", "--ip-ranges", SampleLogs.ipRanges(dir).toString(), "--timezone", "UTC",
                "--follow", followed.toString());

        // readers ask all along the import, so the pool's connections are made while the writer is mid-transaction
        AtomicBoolean importing = new AtomicBoolean(true);
        List<Future<?>> asking = new ArrayList<>();
        ExecutorService readers = Executors.newFixedThreadPool(32);
        try {
            for (int r = 0; r < 32; r++) {
                String path = "/api/crawl-errors?url=" + (r % 2 == 0 ? "/" : "/p") + "&page=" + (1 + r % 3);
                asking.add(readers.submit(() -> {
                    while (importing.get()) {
                        get(path);
                    }
                    return null;
                }));
            }
            CommandRun run = CommandRun.importing(dir, db, log.toString());
            assertThat(run.exit()).as(run.err()).isZero();
        } finally {
            importing.set(false);
            readers.shutdown();
            assertThat(readers.awaitTermination(120, TimeUnit.SECONDS)).isTrue();
        }
        for (Future<?> reader : asking) {
            reader.get(); // a reader's request failing is the test's failure
        }
        assertEveryViewShows(IMPORTED);

        // the followed log grows: every reader shows each commit of it, up to all its lines
        write(followed, IMPORTED + 1, IMPORTED + FOLLOWED, StandardOpenOption.APPEND);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        long seen = IMPORTED;
        while (seen < IMPORTED + FOLLOWED && System.nanoTime() < deadline) {
            List<Long> totals = totalsFromEveryReader();
            // what one reader shows, none shows less of after it (no reader left behind on an older commit)
            assertThat(totals).as("totals after one showed " + seen).allSatisfy(total -> assertThat(total).isGreaterThanOrEqualTo(IMPORTED));
            seen = totals.stream().mapToLong(Long::longValue).min().orElseThrow();
            Thread.sleep(200);
        }
        assertEveryViewShows(IMPORTED + FOLLOWED);
    }
}
