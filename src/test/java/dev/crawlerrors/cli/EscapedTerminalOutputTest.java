package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.ingest.format.LogFormat;
import dev.crawlerrors.ingest.format.NamedFormats;
import dev.crawlerrors.ingest.push.LogDrainServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Log lines are written by whoever sends requests to the site, and a command line may carry what
 * was pasted into it: what the commands print shows their controls as escapes, never as controls
 * the terminal would obey (a title change, a cleared screen, text reordered).
 */
class EscapedTerminalOutputTest {

    /** A terminal title change, a screen clear, a colour, NUL, the C1 control sequence introducer and a right-to-left override. */
    static final String HOSTILE = "\u001B]0;PWNED\u0007\u001B[2J\u001B[31mevil\u0000\u009B\u202Egnp.exe";
    /** {@link #HOSTILE} as it is shown. */
    static final String SHOWN = "\\x1B]0;PWNED\\x07\\x1B[2J\\x1B[31mevil\\x00\\xC2\\x9B\\u202Egnp.exe";
    static final String GOOD = ImportCommandTest.GOOD;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream originalOut;
    private PrintStream originalErr;

    @BeforeEach
    void captureOutput() {
        originalOut = System.out;
        originalErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreOutput() {
        System.setOut(originalOut);
        System.setErr(originalErr);
    }

    private int run(String... args) {
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        return cli.execute(args);
    }

    private int importLog(Path log, String format) throws Exception {
        return run("import", "--db", dir.resolve("hits.duckdb").toString(), "--ip-ranges", SampleLogs.ipRanges(dir).toString(),
                "--dns-server", "none", "--format", format, "--verbose", log.toString());
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    /** Asserts that nothing printed holds a control or reordering character, the line ends apart. */
    private void assertNothingRawPrinted() {
        for (String printed : new String[] {stdout(), stderr()}) {
            assertThat(printed.replace("\n", "")).doesNotContain("\u001B", "\u0007", "\u0000", "\u009B", "\u202E", "\r");
        }
    }

    @Test
    void theSummaryShowsABadLinesControlsAsEscapesAndPrintsNoneRaw() throws Exception {
        Path log = Files.writeString(dir.resolve("esc.log"), HOSTILE + GOOD.substring(GOOD.indexOf(' ')) + "\n" + GOOD + "\n");

        int exit = importLog(log, "combined");

        assertThat(exit).isZero();
        assertThat(stdout()).contains("Bad lines by reason: no client address 1\n")
                .contains("\n  " + log + " line 1: '" + SHOWN + "' is not a client address (an IPv4 or IPv6 address); ");
        assertNothingRawPrinted();
    }

    @Test
    void aLogWhoseFormatCannotBeDetectedIsQuotedWithItsControlsEscaped() throws Exception {
        Path log = Files.writeString(dir.resolve("esc.log"), HOSTILE + "\n");

        int exit = importLog(log, "auto");

        assertThat(exit).isEqualTo(1);
        assertThat(stdout()).contains("Source problem: " + log + ": the log format could not be detected: its only line is in none "
                + "of the formats tried (combined-vhost, combined, common-vhost, common, json, w3c); the first such is '" + SHOWN + "'.");
        assertNothingRawPrinted();
    }

    @Test
    void aLogNamedWithControlsIsNamedWithThemEscaped() throws Exception {
        Path log = Files.writeString(dir.resolve("a\u001B[2J\u202E.log"), GOOD + "\nnot a log line\n");
        String shownName = dir.resolve("a\\x1B[2J\\u202E.log").toString();

        int exit = importLog(log, "combined");

        assertThat(exit).isZero();
        assertThat(stdout()).contains("\n  " + shownName + " line 2: ")
                .contains("\nLog:\n  " + shownName + ": new, 2 lines\n");
        assertNothingRawPrinted();
    }

    @Test
    void aFormatWithAnEscInItExitsTwoAndIsEchoedEscaped() {
        int exit = run("import", "--db", dir.resolve("hits.duckdb").toString(), "--format", "x\u001B]0;PWNED\u0007", "x.log");

        assertThat(exit).isEqualTo(2);
        assertThat(stderr()).startsWith("--format: 'x\\x1B]0;PWNED\\x07' is not a log format; use auto, combined, common, "
                + "combined-vhost, common-vhost, json, w3c, nginx:'<log_format>' or apache:'<LogFormat>'\nSee 'crawl-errors import --help'.\n");
        assertNothingRawPrinted();
    }

    @Test
    void anUnknownOptionExitsTwoAndSaysWhichOption() {
        int exit = run("import", "--bogus", "x.log");

        assertThat(exit).isEqualTo(2);
        assertThat(stderr()).startsWith("Unknown option: '--bogus'\n");
    }

    @Test
    void anUnknownOptionWithControlsInItIsEchoedEscaped() {
        int exit = run("import", "--\u001B[2J\u202E", "x.log");

        assertThat(exit).isEqualTo(2);
        assertThat(stderr()).startsWith("Unknown option: '--\\x1B[2J\\u202E'\n");
        assertNothingRawPrinted();
    }

    @Test
    void theLogDrainEchoesAFormatWithItsControlsEscaped() throws Exception {
        try (LogDrainServer drain = LogDrainServer.start("127.0.0.1", 0, "token", NamedFormats.liveChooser("auto", notice -> { }),
                (lines, source, formats) -> {
                    throw new AssertionError("a batch in no format is not stored");
                })) {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + drain.port() + LogDrainServer.PATH + "?format=x%1B%5B2J%C2%9B%E2%80%AE"))
                    .header("Authorization", "Bearer token").POST(HttpRequest.BodyPublishers.ofString(GOOD + "\n")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(new ObjectMapper().readTree(response.body()).get("error").asText())
                    .startsWith("format: 'x\\x1B[2J\\xC2\\x9B\\u202E' is not a log format; ");
            assertThat(response.body()).doesNotContain("\u009B", "\u202E");
        }
    }
}
