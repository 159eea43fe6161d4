package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.ProcessTest;
import dev.crawlerrors.Waits;
import dev.crawlerrors.ingest.SampleLogs;
import java.io.BufferedWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One store, several writers: an import into a store that a running serve has open writes through
 * that serve, says the same, and its rows are in the report when it returns; killed mid-way, it or
 * the serve loses and repeats nothing; a second serve of the store is refused with the first's PID.
 */
@ProcessTest
class ImportWhileServingTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final List<ServeProcess> serves = new ArrayList<>();
    private final List<Process> imports = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void stop() {
        serves.forEach(ServeProcess::close);
        imports.forEach(Process::destroyForcibly);
    }

    private ServeProcess serve(Path db) throws Exception {
        ServeProcess serve = ServeProcess.start(dir.resolve("serve-" + serves.size() + ".out"), "--db", db.toString(), "--port", "0",
                "--dns-server", "none", "--ip-ranges", SampleLogs.ipRanges(dir).toString(), "--timezone", "UTC");
        serves.add(serve);
        return serve;
    }

    private long total(ServeProcess serve) throws Exception {
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(serve.base() + "/api/crawl-errors")).build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(page.body()).get("total").asLong();
    }

    private Path log(String name, int lines) throws Exception {
        Path log = dir.resolve(name);
        try (BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            for (int i = 1; i <= lines; i++) {
                out.write(SampleLogs.line(i));
            }
        }
        return log;
    }

    @Test
    void anImportIntoAServedStoreWritesThroughServeAndItsRowsAreInTheReportWhenItReturns() throws Exception {
        Path log = log("access.log", 2_000);
        Path db = dir.resolve("served.duckdb");
        ServeProcess serve = serve(db);
        long servePid = serve.process().pid();

        CommandRun through = CommandRun.importing(dir, db, log.toString());
        CommandRun alone = CommandRun.importing(dir, dir.resolve("alone.duckdb"), log.toString());

        assertThat(through.exit()).as(through.err()).isZero();
        assertThat(total(serve)).isEqualTo(2_000);
        // the same summary, but for the time it took and where the store is
        assertThat(withoutTimesAndStore(through.out())).isEqualTo(withoutTimesAndStore(alone.out()));
        assertThat(through.out()).contains("Store: " + db.toAbsolutePath().normalize() + ", written through crawl-errors serve (PID "
                + servePid + ") (2,000 crawler hits in all).");
        // imported again: nothing new, through serve as well
        CommandRun again = CommandRun.importing(dir, db, log.toString());
        assertThat(again.out()).contains("Logs: 1 file unchanged since imported, not opened.");
        assertThat(total(serve)).isEqualTo(2_000);
    }

    @Test
    void aSecondServeOfTheStoreIsRefusedNamingTheFirstsPid() throws Exception {
        Path db = dir.resolve("served.duckdb");
        ServeProcess first = serve(db);

        CommandRun second = CommandRun.of("serve", "--db", db.toString(), "--port", "0", "--dns-server", "none");

        assertThat(second.exit()).isEqualTo(1);
        assertThat(second.err()).contains("is served by crawl-errors serve (PID " + first.process().pid() + ", " + first.base()
                + "/crawl-errors); one serve per store: stop that one first, or give this one another --db");
    }

    @Test
    void anImportKilledMidWayLosesAndRepeatsNothingWhenRunAgain() throws Exception {
        int lines = 200_000;
        Path log = log("big.log", lines);
        Path db = dir.resolve("served.duckdb");
        ServeProcess serve = serve(db);

        Process importing = importProcess(db, log);
        long before = awaitSomeButNotAll(serve, importing, lines);
        importing.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        long after = total(serve);
        assertThat(after).as("killed mid-way").isBetween(before, (long) lines - 1);

        CommandRun again = CommandRun.importing(dir, db, log.toString());
        assertThat(again.exit()).as(again.err()).isZero();
        // read on from what serve committed: every line not stored before, and no other. Serve may still
        // commit the killed import's last batch after 'after' was read, so the lines read again are at most
        // those not stored then; that none is lost or stored twice is the total.
        assertThat(linesGrown(again.out())).as(again.out()).isBetween(1L, (long) lines - after);
        assertThat(total(serve)).isEqualTo(lines);
    }

    /** The lines an import read of the one log that grew, from its summary's "1 grown, N lines.". */
    private static long linesGrown(String summary) {
        java.util.regex.Matcher grown = java.util.regex.Pattern.compile("1 grown, ([0-9,]+) lines\\.").matcher(summary);
        assertThat(grown.find()).as(summary).isTrue();
        return Long.parseLong(grown.group(1).replace(",", ""));
    }

    @Test
    void aServeKilledMidImportLosesAndRepeatsNothingAndTheImportSaysSo() throws Exception {
        int lines = 200_000;
        Path log = log("big.log", lines);
        Path db = dir.resolve("served.duckdb");
        ServeProcess serve = serve(db);

        Process importing = importProcess(db, log);
        awaitSomeButNotAll(serve, importing, lines);
        serve.process().destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        assertThat(importing.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String said = Files.readString(dir.resolve("import.out"));
        assertThat(importing.exitValue()).as(said).isEqualTo(1);
        assertThat(said).contains("stopped taking this import's lines").contains("run the import again to read on from there");

        // serve is gone: the import opens the store itself and reads on from what serve committed
        CommandRun again = CommandRun.importing(dir, db, log.toString());
        assertThat(again.exit()).as(again.err()).isZero();
        ServeProcess restarted = serve(db);
        assertThat(total(restarted)).isEqualTo(lines);
    }

    private Process importProcess(Path db, Path log) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1",
                "-Djava.io.tmpdir=" + dir, "-cp", System.getProperty("java.class.path"), "dev.crawlerrors.cli.Main", "import",
                "--db", db.toString(), "--ip-ranges", SampleLogs.ipRanges(dir).toString(), "--dns-server", "none", log.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("import.out").toFile()).start();
        imports.add(process);
        return process;
    }

    /** Waits until the report holds some of the import's hits and the import still runs; the hits it holds. */
    private long awaitSomeButNotAll(ServeProcess serve, Process importing, int lines) throws Exception {
        return Waits.await("some of the import's hits in the report").pollInterval(Duration.ofMillis(10)).until(() -> {
            long total = total(serve);
            assertThat(importing.isAlive()).as("the import was still running at " + total + " hits").isTrue();
            return total;
        }, total -> total > 0 && total < lines);
    }

    private static String withoutTimesAndStore(String summary) {
        return summary.replaceAll("in [0-9.]+ s \\([0-9,]+ lines/s\\)", "").replaceAll("(?m)^Store: .*$", "");
    }
}
