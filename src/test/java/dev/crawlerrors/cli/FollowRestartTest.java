package dev.crawlerrors.cli;

import static dev.crawlerrors.ingest.SampleLogs.line;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ProcessTest;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.ingest.source.Fingerprint;
import dev.crawlerrors.ingest.source.ResumePoint;
import dev.crawlerrors.ingest.source.TailCheck;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --follow} in a process of its own, killed with SIGKILL while lines are being written
 * and started again: every line ends up in the store exactly once.
 */
@ProcessTest
class FollowRestartTest {

    private static final int LINES = 600;
    /** The lines the first process serves before it is killed. */
    private static final int SERVED_BEFORE_THE_KILL = 150;
    /** The lines written after the first process is dead: the kill lands while the log grows. */
    private static final int WRITTEN_AFTER_THE_KILL = 20;
    /** The last line the first process may see, so the second one has lines of its own to read. */
    private static final int LAST_BEFORE_THE_RESTART = 550;

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
            writeLine(log, i);
            if (i % 5 == 0) {
                Thread.sleep(10);
            }
        }
    }

    private static void writeLine(Path log, int i) throws Exception {
        String line = line(i);
        Files.writeString(log, line.substring(0, 30), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        Files.writeString(log, line.substring(30), StandardOpenOption.APPEND);
    }

    /**
     * Writes from line 51 on until {@link #WRITTEN_AFTER_THE_KILL} lines after {@code deadAt} is set
     * (to the last line written when the process was dead), at most to {@link #LAST_BEFORE_THE_RESTART};
     * {@code written} holds the last line written whole. It stops after the kill rather than at a
     * fixed line, which a slow start could let it reach before the kill. Past the line that could
     * set off the kill it writes one line each 10 ms: the 4 s to its last line leave a slow reader
     * ten times the 376 ms the follower took at most under load (LogFollower.POLL), and the 20 lines
     * after the kill take 0.2 s.
     *
     * @return the last line written
     */
    private static int writeUntilAfterTheKill(Path log, AtomicInteger written, AtomicInteger deadAt) throws Exception {
        for (int i = 51; i <= LAST_BEFORE_THE_RESTART; i++) {
            writeLine(log, i);
            written.set(i);
            if (deadAt.get() > 0 && i >= deadAt.get() + WRITTEN_AFTER_THE_KILL) {
                return i;
            }
            if (i > SERVED_BEFORE_THE_KILL || i % 5 == 0) {
                Thread.sleep(10);
            }
        }
        return LAST_BEFORE_THE_RESTART;
    }

    private static List<String> urls(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "/page/" + i).toList();
    }

    @Test
    void aRestartAfterKillNineNeitherLosesNorRepeatsALine() throws Exception {
        Path log = dir.resolve("access.log");
        Path db = dir.resolve("hits.duckdb");
        Path ranges = SampleLogs.ipRanges(dir);
        write(log, 1, 50);
        ServeProcess first = serve(log, db, ranges);

        AtomicInteger written = new AtomicInteger(50);
        AtomicInteger deadAt = new AtomicInteger();
        CompletableFuture<Integer> writing = CompletableFuture.supplyAsync(() -> {
            try {
                return writeUntilAfterTheKill(log, written, deadAt);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        // killed while lines are being written and read
        long deadline = System.currentTimeMillis() + 20_000;
        int servedAtTheKill;
        while ((servedAtTheKill = served(first).size()) < SERVED_BEFORE_THE_KILL && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        int writtenAtTheKill = written.get();
        long bytesAtTheKill = Files.size(log);
        first.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        deadAt.set(written.get());
        int lastWritten = writing.get(30, TimeUnit.SECONDS);
        // the kill came while the process read (not at the deadline) and while the log grew: the writer had lines
        // left to write when it was sent, and went on writing them once the process was dead
        assertThat(servedAtTheKill).as("lines served when the kill was sent").isGreaterThanOrEqualTo(SERVED_BEFORE_THE_KILL);
        assertThat(writtenAtTheKill).as("lines written when the kill was sent").isLessThan(LAST_BEFORE_THE_RESTART);
        assertThat(lastWritten).as("the last line written, %d lines after the process was dead", WRITTEN_AFTER_THE_KILL)
                .isEqualTo(deadAt.get() + WRITTEN_AFTER_THE_KILL);
        assertThat(Files.size(log)).as("bytes of the log, against %d when the kill was sent", bytesAtTheKill).isGreaterThan(bytesAtTheKill);
        // what the killed process committed: its hits, and the position that says it read exactly those
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            List<String> stored = new ArrayList<>();
            store.reader().forEach(HitFilter.ERRORS, hit -> stored.add(hit.url()));
            byte[] content = Files.readAllBytes(log);
            byte[] beginning = Arrays.copyOf(content, Fingerprint.PREFIX_BYTES);
            long linesRead = ResumePoint.find(log.toString(), beginning, false, store.writer()::imported,
                    position -> Arrays.copyOfRange(content, (int) Math.max(0, position - TailCheck.BYTES), (int) position)).start().lines();
            assertThat(stored).containsExactlyInAnyOrderElementsOf(urls(1, (int) linesRead));
        }

        ServeProcess second = serve(log, db, ranges);
        write(log, lastWritten + 1, LINES);
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
            store.reader().forEach(HitFilter.ERRORS, hit -> stored.add(hit.url()));
            assertThat(stored).containsExactlyInAnyOrderElementsOf(urls(1, LINES));
        }
        assertThat(second.printed()).contains("following " + log + " from line ");
    }
}
