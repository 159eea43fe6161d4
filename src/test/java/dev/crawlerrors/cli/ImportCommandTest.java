package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.store.DuckDbHitStore;
import dev.crawlerrors.store.HitFilter;
import java.io.ByteArrayOutputStream;
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
        return ImportSourcesTest.ipRanges(dir);
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
                .contains(log + " line 2: ");
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            assertThat(store.count(HitFilter.ERRORS)).isEqualTo(2);
        }
    }

    @Test
    void exitsOneWhenNothingCouldBeRead() throws Exception {
        int exit = run("import", "--db", dir.resolve("hits.duckdb").toString(), "--dns-server", "none", dir.resolve("missing.log").toString());

        assertThat(exit).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("missing.log does not exist or cannot be read");
    }

    @Test
    void exitsTwoForBadUsageWithOneClearSentence() throws Exception {
        assertThat(run("import", "--db", dir.resolve("x.duckdb").toString(), "--format", "w3c", "x.log")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--format: 'w3c' is not a format this version reads");
        assertThat(run("import")).isEqualTo(2);
        assertThat(run("serve", "--timezone", "Mars/Olympus")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("'Mars/Olympus' is not a time zone");
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
