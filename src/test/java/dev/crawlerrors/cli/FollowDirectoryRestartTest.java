package dev.crawlerrors.cli;

import static dev.crawlerrors.ingest.SampleLogs.lines;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ProcessTest;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --follow DIR} in a process of its own: a file created after the start is served,
 * and after SIGKILL and a restart, with files added and a file grown while it was dead, every line
 * is in the store exactly once.
 */
@ProcessTest
class FollowDirectoryRestartTest {

    private static final long DEADLINE_MS = 60_000;

    @TempDir
    Path dir;

    private final List<ServeProcess> processes = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();
    /** The last answer to the CSV, for a failure to show what serve said instead of the rows. */
    private volatile String lastAnswer = "";

    @AfterEach
    void stopProcesses() {
        processes.forEach(ServeProcess::close);
    }

    private ServeProcess serve(String follow, Path db, Path ranges) throws Exception {
        ServeProcess process = ServeProcess.start(dir.resolve("serve-" + processes.size() + ".out"), "--follow", follow,
                "--db", db.toString(), "--port", "0", "--dns-server", "none", "--ip-ranges", ranges.toString(), "--timezone", "UTC");
        processes.add(process);
        return process;
    }

    /** The URLs the served report holds, by how often each is there. */
    private Map<String, Integer> served(ServeProcess serve) throws Exception {
        HttpResponse<String> csv = http.send(HttpRequest.newBuilder(URI.create(serve.base() + "/crawl-errors.csv")).build(),
                HttpResponse.BodyHandlers.ofString());
        lastAnswer = csv.statusCode() + " " + csv.body().lines().limit(3).toList();
        Map<String, Integer> urls = new HashMap<>();
        csv.body().lines().skip(1).forEach(row -> urls.merge(row.split(",")[3], 1, Integer::sum));
        return urls;
    }

    private Map<String, Integer> awaitServed(ServeProcess serve, int count) throws Exception {
        long deadline = System.currentTimeMillis() + DEADLINE_MS;
        Map<String, Integer> shown;
        while ((shown = served(serve)).size() < count && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        return shown;
    }

    private static void gzip(Path file, String text) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        Files.write(file, bytes.toByteArray());
    }

    /**
     * A compressed file still looks freshly written when serve first lists it, however slowly the JVM starts on a
     * loaded machine: it waits for the second look, where its unchanged stamp lets it be read.
     */
    private static void writtenJustNow(Path file) throws IOException {
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plus(Duration.ofMinutes(10))));
    }

    private static void append(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static List<String> urls(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "/page/" + i).toList();
    }

    @Test
    void aFileCreatedAfterTheStartIsServedAndARestartAfterKillNineReadsNothingTwice() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Path db = dir.resolve("hits.duckdb");
        Path ranges = SampleLogs.ipRanges(dir);
        gzip(logs.resolve("access.log.2.gz"), lines(1, 100));
        writtenJustNow(logs.resolve("access.log.2.gz"));
        append(logs.resolve("access.log.1"), lines(101, 150));
        ServeProcess first = serve(logs.toString(), db, ranges);
        // it failed in full runs on a loaded machine with nothing served in 20 s: say what serve said
        assertThat(awaitServed(first, 150)).as(() -> "the CSV answered " + lastAnswer + "; serve printed:\n" + first.printed())
                .hasSize(150);

        append(logs.resolve("access.log"), lines(151, 170));
        gzip(logs.resolve("other-2025-11-02.gz"), lines(171, 200));
        Map<String, Integer> beforeTheKill = awaitServed(first, 200);
        first.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        assertThat(beforeTheKill).hasSize(200).allSatisfy((url, times) -> assertThat(times).as(url).isEqualTo(1));

        // while it is dead: the live log grows, a new file comes, and the first file looks as old as it is
        Files.setLastModifiedTime(logs.resolve("access.log.2.gz"), FileTime.from(Instant.now().minus(Duration.ofHours(1))));
        append(logs.resolve("access.log"), lines(201, 210));
        gzip(logs.resolve("other-2025-11-03.gz"), lines(211, 250));
        writtenJustNow(logs.resolve("other-2025-11-03.gz"));
        ServeProcess second = serve(logs.toString(), db, ranges);
        awaitServed(second, 250);
        append(logs.resolve("access.log"), lines(251, 260));
        Map<String, Integer> shown = awaitServed(second, 260);
        second.process().destroy();
        assertThat(second.process().waitFor(20, TimeUnit.SECONDS)).isTrue();

        assertThat(shown).hasSize(260).allSatisfy((url, times) -> assertThat(times).as(url).isEqualTo(1));
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            List<String> stored = new ArrayList<>();
            store.reader().forEach(HitFilter.ERRORS, hit -> stored.add(hit.url()));
            assertThat(stored).containsExactlyInAnyOrderElementsOf(urls(1, 260));
        }
        // in the order their names give: the compressed file, older, waits for its second look, and the newer with it
        String firstPrinted = first.printed();
        assertThat(firstPrinted).contains("follow: following " + logs + ": 2 files: 2 at the next look");
        assertThat(firstPrinted.indexOf(logs + "/access.log.2.gz appeared: read 100 lines"))
                .isLessThan(firstPrinted.indexOf(logs + "/access.log.1 appeared: read 50 lines")).isPositive();
        assertThat(firstPrinted).contains(logs + "/other-2025-11-02.gz appeared: read 30 lines");
        // the files written in the last 5 s wait for their second look
        assertThat(second.printed()).contains("follow: following " + logs + ": 5 files: 1 read now (10 lines), ",
                logs + "/other-2025-11-03.gz appeared: read 40 lines");
    }

    @Test
    void aGlobMatchingNothingYetIsSaidOnceAndItsFirstFileServed() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        ServeProcess serve = serve(logs + "/*.gz", dir.resolve("hits.duckdb"), SampleLogs.ipRanges(dir));
        gzip(logs.resolve("edge.gz"), lines(1, 20));

        assertThat(awaitServed(serve, 20)).hasSize(20);
        assertThat(serve.printed()).containsOnlyOnce("follow: no file matches " + logs + "/*.gz yet; files are read as they appear");
    }
}
