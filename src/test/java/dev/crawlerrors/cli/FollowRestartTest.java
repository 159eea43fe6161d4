package dev.crawlerrors.cli;

import static dev.crawlerrors.cli.ImportSourcesTest.line;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.Fingerprint;
import dev.crawlerrors.ingest.ResumePoint;
import dev.crawlerrors.store.DuckDbHitStore;
import dev.crawlerrors.store.HitFilter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --follow} in a process of its own, killed with SIGKILL while lines are being written
 * and started again: every line ends up in the store exactly once.
 */
class FollowRestartTest {

    private static final Pattern SERVING = Pattern.compile("Serving the report at (http://\\S+)/crawl-errors");
    private static final int LINES = 600;

    @TempDir
    Path dir;

    private final List<Process> processes = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void stopProcesses() {
        processes.forEach(Process::destroyForcibly);
    }

    /** Starts {@code serve --follow} on the test's class path, and waits until it serves. */
    private Served serve(Path log, Path db, Path ranges) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // the class path rather than the jar, so this runs in the test phase; C1 only, for a quick start
        Process process = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                "dev.crawlerrors.cli.Main", "serve", "--follow", log.toString(), "--db", db.toString(), "--port", "0",
                "--dns-server", "none", "--ip-ranges", ranges.toString(), "--timezone", "UTC")
                .redirectErrorStream(true).start();
        processes.add(process);
        CompletableFuture<String> base = new CompletableFuture<>();
        StringBuilder output = new StringBuilder();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    synchronized (output) {
                        output.append(line).append('\n');
                    }
                    Matcher m = SERVING.matcher(line);
                    if (m.find()) {
                        base.complete(m.group(1));
                    }
                }
            } catch (IOException e) {
                // the process was killed
            }
            base.completeExceptionally(new IllegalStateException("serve ended before serving:\n" + output));
        }, "serve-output");
        reader.setDaemon(true);
        reader.start();
        return new Served(process, base.get(30, TimeUnit.SECONDS), output);
    }

    private record Served(Process process, String base, StringBuilder output) {
    }

    /** The URLs the served report holds, by how often each is there. */
    private Map<String, Integer> served(Served serve) throws Exception {
        HttpResponse<String> csv = http.send(HttpRequest.newBuilder(URI.create(serve.base + "/crawl-errors.csv")).build(),
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
        Served first = serve(log, db, ranges);

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
        first.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        writing.get(30, TimeUnit.SECONDS);
        // what the killed process committed: its hits, and the position that says it read exactly those
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            List<String> stored = new ArrayList<>();
            store.forEach(HitFilter.ERRORS, hit -> stored.add(hit.url()));
            byte[] beginning = Arrays.copyOf(Files.readAllBytes(log), Fingerprint.PREFIX_BYTES);
            long linesRead = ResumePoint.find(log.toString(), beginning, false, store::imported).start().lines();
            assertThat(stored).containsExactlyInAnyOrderElementsOf(urls(1, (int) linesRead));
        }

        Served second = serve(log, db, ranges);
        write(log, 401, LINES);
        deadline = System.currentTimeMillis() + 20_000;
        while (served(second).size() < LINES && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        Map<String, Integer> shown = served(second);
        second.process.destroy(); // SIGTERM: a clean stop
        assertThat(second.process.waitFor(20, TimeUnit.SECONDS)).isTrue();

        assertThat(shown).hasSize(LINES).allSatisfy((url, times) -> assertThat(times).as(url).isEqualTo(1));
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            List<String> stored = new ArrayList<>();
            store.forEach(HitFilter.ERRORS, hit -> stored.add(hit.url()));
            assertThat(stored).containsExactlyInAnyOrderElementsOf(urls(1, LINES));
        }
        assertThat(second.output.toString()).contains("following " + log + " from line ");
    }
}
