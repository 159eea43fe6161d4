package dev.crawlerrors.cli;

import static dev.crawlerrors.cli.ImportSourcesTest.line;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.Fingerprint;
import dev.crawlerrors.ingest.ResumePoint;
import dev.crawlerrors.store.DuckDbHitStore;
import dev.crawlerrors.store.HitFilter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --follow} in a process of its own, killed with SIGKILL while lines are being written
 * and started again: every line ends up in the store exactly once.
 */
class FollowRestartTest {

    private static final int LINES = 600;

    @TempDir
    Path dir;

    private final List<ServeProcess> processes = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void stopProcesses() {
        processes.forEach(ServeProcess::close);
    }

    /** Starts {@code serve --follow} in a process of its own, printing to a file of its own, and waits until it serves. */
    private ServeProcess serve(Path log, Path db, Path ranges) throws Exception {
        ServeProcess process = ServeProcess.start(dir.resolve("serve-" + processes.size() + ".out"), "--follow", log.toString(),
                "--db", db.toString(), "--port", "0", "--dns-server", "none", "--ip-ranges", ranges.toString(), "--timezone", "UTC");
        processes.add(process);
        return process;
    }

    /** The URLs the served report holds, by how often each is there. */
    private Map<String, Integer> served(ServeProcess serve) throws Exception {
        HttpResponse<String> csv = http.send(HttpRequest.newBuilder(URI.create(serve.base() + "/crawl-errors.csv")).build(),
                HttpResponse.BodyHandlers.ofString());
        Map<String, Integer> urls = new HashMap<>();
        csv.body().lines().skip(1).forEach(row -> urls.merge(row.split(",")[3], 1, Integer::sum));
        return urls;
    }

    /** Writes lines {@code from..to}, each in two writes, so a kill can fall between the halves of one. */
    private static void write(Path log, int from, int to) throws Exception {
        for (int i = from; i <= to; i++) {
            String line = line(i);
            Files.writeString(log, line.substring(0, 30), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            Files.writeString(log, line.substring(30), StandardOpenOption.APPEND);
            if (i % 5 == 0) {
                Thread.sleep(10);
            }
        }
    }

    private static List<String> urls(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "/page/" + i).toList();
    }

    @Test
    void aRestartAfterKillNineNeitherLosesNorRepeatsALine() throws Exception {
        Path log = dir.resolve("access.log");
        Path db = dir.resolve("hits.duckdb");
        Path ranges = ImportSourcesTest.ipRanges(dir);
        write(log, 1, 50);
        ServeProcess first = serve(log, db, ranges);

        CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
            try {
                write(log, 51, 400);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        // killed while lines are being written and read
        long deadline = System.currentTimeMillis() + 20_000;
        while (served(first).size() < 150 && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        first.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        writing.get(30, TimeUnit.SECONDS);
        // what the killed process committed: its hits, and the position that says it read exactly those
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            List<String> stored = new ArrayList<>();
            store.forEach(HitFilter.ERRORS, hit -> stored.add(hit.url()));
            byte[] beginning = Arrays.copyOf(Files.readAllBytes(log), Fingerprint.PREFIX_BYTES);
            long linesRead = ResumePoint.find(log.toString(), beginning, false, store::imported).start().lines();
            assertThat(stored).containsExactlyInAnyOrderElementsOf(urls(1, (int) linesRead));
        }

        ServeProcess second = serve(log, db, ranges);
        write(log, 401, LINES);
        deadline = System.currentTimeMillis() + 20_000;
        while (served(second).size() < LINES && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        Map<String, Integer> shown = served(second);
        second.process().destroy(); // SIGTERM: a clean stop
        assertThat(second.process().waitFor(20, TimeUnit.SECONDS)).isTrue();

        assertThat(shown).hasSize(LINES).allSatisfy((url, times) -> assertThat(times).as(url).isEqualTo(1));
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            List<String> stored = new ArrayList<>();
            store.forEach(HitFilter.ERRORS, hit -> stored.add(hit.url()));
            assertThat(stored).containsExactlyInAnyOrderElementsOf(urls(1, LINES));
        }
        assertThat(second.printed()).contains("following " + log + " from line ");
    }
}
