package dev.crawlerrors.cli;

import static dev.crawlerrors.ingest.SampleLogs.ipRanges;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ImportCommandTest {

    static final String GOOD = "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET /antwerp/meir HTTP/1.1\" 308 0 \"-\" "
            + "\"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)\" 153";
    static final String HUMAN = "198.51.100.7 - - [14/May/2025:09:31:03 +0200] \"GET /antwerp/meir HTTP/1.1\" 308 0 \"-\" "
            + "\"Mozilla/5.0 (X11; Linux x86_64; rv:138.0) Gecko/20100101 Firefox/138.0\" 90";

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream originalOut;

    @BeforeEach
    void captureOutput() {
        originalOut = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreOutput() {
        System.setOut(originalOut);
    }

    private int run(String... args) {
        CommandLine cli = Main.commandLine();
        cli.setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8));
        return cli.execute(args);
    }

    private Path ipRanges() throws Exception {
        return SampleLogs.ipRanges(dir);
    }

    @Test
    void importsCrawlerHitsKeepsGoodLinesAroundGarbageAndExitsZero() throws Exception {
        Path log = dir.resolve("access.log");
        Files.writeString(log, GOOD + "\n" + "garbage line\n" + HUMAN + "\n" + GOOD + "\n");
        Path db = dir.resolve("hits.duckdb");

        int exit = run("import", "--db", db.toString(), "--ip-ranges", ipRanges().toString(), "--dns-server", "none", log.toString());

        assertThat(exit).isZero();
        String summary = out.toString(StandardCharsets.UTF_8);
        assertThat(summary).contains("Read 4 lines").contains("3 parsed, 1 bad")
                .contains("Crawler hits stored: 2; error hits (status >= 300) for the report: 2")
                .contains("Verdicts: verified 2")
                .contains("IP list common-crawlers.json: 1 prefix, created 2026-11-20T00:00:00, modified ")
                .contains(log + " line 2: ");
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            assertThat(store.reader().count(HitFilter.ERRORS)).isEqualTo(2);
        }
    }

    @Test
    void exitsOneWhenNothingCouldBeRead() throws Exception {
        int exit = run("import", "--db", dir.resolve("hits.duckdb").toString(), "--dns-server", "none", dir.resolve("missing.log").toString());

        assertThat(exit).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Source problem: " + dir.resolve("missing.log") + " does not exist\n");
    }

    @Test
    void exitsOneAndSaysWhyWhenTheStoreCannotBeOpened() throws Exception {
        // the store opens on another thread while the catalog is read: its failure ends the import all the same
        Path log = dir.resolve("access.log");
        Files.writeString(log, GOOD + "\n" + HUMAN + "\n");
        Path db = dir.resolve("hits.duckdb");
        Files.writeString(db, "not a database\n");

        int exit = run("import", "--db", db.toString(), "--ip-ranges", ipRanges().toString(), "--dns-server", "none", log.toString());

        assertThat(exit).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("crawl-errors: the store " + db + " is damaged: it is not a DuckDB "
                + "database, or its first blocks are overwritten (DuckDB: IO Error: The file \"" + db + "\" exists, but it is not a valid "
                + "DuckDB database file!); restore it from a backup, or move it aside and import the logs again (they are the source of truth)");
        assertThat(Files.readString(db)).isEqualTo("not a database\n");
    }

    @Test
    void exitsTwoForBadUsageWithOneClearSentence() throws Exception {
        assertThat(run("import", "--db", dir.resolve("x.duckdb").toString(), "--format", "xml", "x.log")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--format: 'xml' is not a log format; use auto, combined, common, "
                + "combined-vhost, common-vhost, json, w3c, nginx:'<log_format>' or apache:'<LogFormat>'");
        assertThat(run("import")).isEqualTo(2);
        assertThat(run("serve", "--timezone", "Mars/Olympus")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("'Mars/Olympus' is not a time zone");
    }

    @Test
    void aMistakeInTheUsersCatalogLeavesNoStoreBehind() throws Exception {
        Path log = Files.writeString(dir.resolve("access.log"), GOOD + "\n");
        Path catalog = Files.writeString(dir.resolve("crawlers.json"), "{ not json");
        Path db = dir.resolve("hits.duckdb");

        assertThat(run("import", "--db", db.toString(), "--crawlers", dir.resolve("missing.json").toString(), "--dns-server", "none",
                log.toString())).isEqualTo(2);
        assertThat(run("import", "--db", db.toString(), "--crawlers", catalog.toString(), "--dns-server", "none",
                log.toString())).isEqualTo(2);

        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--crawlers: ");
        // the store opens on another thread while the built-in catalog is read; a catalog of one's own is read first
        assertThat(db).doesNotExist();
    }

    @Test
    void detectsTheFormatOfEachFileAndSaysWhichOnStderr() throws Exception {
        Path iis = dir.resolve("u_ex250514.log");
        Files.writeString(iis, SampleLogs.IIS_HEADER + SampleLogs.IIS_LINE + "\n");
        Path caddy = dir.resolve("caddy.log");
        Files.writeString(caddy, SampleLogs.CADDY + "\n" + SampleLogs.CADDY.replace("66.249.66.1", "198.51.100.7")
                .replace(SampleLogs.GOOGLEBOT, "Mozilla/5.0 (X11; Linux x86_64; rv:138.0) Gecko/20100101 Firefox/138.0") + "\n");

        int exit = run("import", "--db", dir.resolve("hits.duckdb").toString(), "--ip-ranges", ipRanges().toString(), "--dns-server", "none",
                iis.toString(), caddy.toString());

        assertThat(exit).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains(
                "format: W3C extended (IIS); auto-detected from all 5 lines of " + iis + ", 5 parsed",
                "format: JSON lines (Caddy); auto-detected from all 2 lines of " + caddy + ", 2 parsed");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Read 7 lines").contains("3 parsed, 4 directive and comment lines, 0 bad")
                .contains("Logs (2):\n  1 file, W3C extended (IIS), auto-detected: 1 new, 5 lines\n"
                        + "  1 file, JSON lines (Caddy), auto-detected: 1 new, 2 lines\n")
                .contains("Crawler hits stored: 2; error hits (status >= 300) for the report: 2");
    }

    @Test
    void detectsTheFormatOnStandardInput() throws Exception {
        InputStream originalIn = System.in;
        System.setIn(new ByteArrayInputStream((GOOD + "\n" + HUMAN + "\n").getBytes(StandardCharsets.UTF_8)));
        try {
            int exit = run("import", "--db", dir.resolve("hits.duckdb").toString(), "--ip-ranges", ipRanges().toString(),
                    "--dns-server", "none", "-");

            assertThat(exit).isZero();
        } finally {
            System.setIn(originalIn);
        }
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("format: combined with request time in microseconds (Apache %D); auto-detected from all 2 lines of -, 2 parsed");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Crawler hits stored: 1;");
    }

    @Test
    void exitsOneWhenNoFormatFitsAndSaysHowToNameIt() throws Exception {
        Path log = dir.resolve("error.log");
        Files.writeString(log, "2025/05/14 09:31:02 [error] 1234#0: *1 open() \"/var/www/x\" failed (2: No such file or directory)\n");

        int exit = run("import", "--db", dir.resolve("hits.duckdb").toString(), "--dns-server", "none", log.toString());

        assertThat(exit).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Source problem: " + log + ": the log format could not be detected: "
                + "its only line is in none of the formats tried").contains("Name the format with --format");
    }

    @Test
    void importsWithTheUsersOwnNginxFormat() throws Exception {
        Path log = dir.resolve("access.log");
        Files.writeString(log, "www.straatinfo.be 66.249.66.1 [2025-05-14T09:31:02+02:00] \"GET /gent HTTP/1.1\" 404 rt=0.003 "
                + "\"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)\"\n");

        int exit = run("import", "--db", dir.resolve("hits.duckdb").toString(), "--ip-ranges", ipRanges().toString(), "--dns-server", "none",
                "--format", "nginx:$host $remote_addr [$time_iso8601] \"$request\" $status rt=$request_time \"$http_user_agent\"", log.toString());

        assertThat(exit).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Crawler hits stored: 1; error hits (status >= 300) for the report: 1");
    }

    @Test
    void exitsTwoForAFormatStringThatCannotFeedTheReport() {
        int exit = run("import", "--db", dir.resolve("x.duckdb").toString(), "--format", "apache:%h \"%r\" %>s", "x.log");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("--format: the Apache format has no field for a time: %t (or %{sec}t, %{msec}t, %{usec}t); the report needs it");
    }

    @Test
    void verifyExplainsTheVerdictAndExitsByIt() throws Exception {
        String ranges = ipRanges().toString();

        assertThat(run("verify", "--ip-ranges", ranges, "--dns-server", "none", "66.249.66.1")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("verdict:  verified")
                .contains("evidence: in common-crawlers.json 66.249.64.0/19 (created 2026-11-20)");
        assertThat(run("verify", "--ip-ranges", ranges, "--dns-server", "none", "203.0.113.9", "Googlebot/2.1")).isEqualTo(VerifyCommand.SPOOFED);
        assertThat(run("verify", "--ip-ranges", ranges, "--dns-server", "none", "66.249.66.1", "Mozilla/5.0 Firefox/138.0")).isEqualTo(VerifyCommand.UNVERIFIED);
        assertThat(run("verify", "--dns-server", "none", "not-an-ip")).isEqualTo(2);
    }
}
