package dev.crawlerrors.cli;

import static dev.crawlerrors.ingest.SampleLogs.line;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.ProcessTest;
import dev.crawlerrors.Waits;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.pipeline.FollowProgress;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code crawl-errors serve}: its options, and a followed log seen through the real server. */
@ProcessTest
class ServeCommandTest {

    /** Generous: the contract is a second (bench/follow-latency.sh measures it); a loaded CI machine must not fail this. */
    private static final long REPORTED_WITHIN_MS = 5_000;

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void refusesAnUnknownFormatWithExitTwoNamingTheOption() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));

        int exit = cli.execute("serve", "--db", dir.resolve("x.duckdb").toString(), "--format", "xml", "--follow", "access.log");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("--format: 'xml' is not a log format; use auto, combined, common, "
                + "combined-vhost, common-vhost, json, w3c, nginx:'<log_format>' or apache:'<LogFormat>'");
        assertThat(dir.resolve("x.duckdb")).doesNotExist();
    }

    @Test
    void refusesAUrlTemplateThatIsNotOneWithExitTwoNamingTheOption() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));

        int exit = cli.execute("serve", "--db", dir.resolve("x.duckdb").toString(), "--url-names", "city/{street}");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("--url-names: a URL pattern is a path such as /{city}/{street}, starting with '/'; got 'city/{street}'");
        assertThat(dir.resolve("x.duckdb")).doesNotExist();
    }

    @Test
    void aLineAppendedToAFollowedLogIsInTheReportApiWithinSeconds() throws Exception {
        Path log = dir.resolve("access.log");
        Files.writeString(log, line(1));
        try (ServeProcess serve = ServeProcess.start(dir.resolve("serve.out"), "--follow", log.toString(),
                "--db", dir.resolve("hits.duckdb").toString(), "--port", "0", "--dns-server", "none", "--ip-ranges", SampleLogs.ipRanges(dir).toString(), "--timezone", "UTC")) {
            awaitTotal(serve, 1, 30_000); // the first line: the follower has started

            long appended = System.nanoTime();
            Files.writeString(log, line(2), StandardOpenOption.APPEND);
            JsonNode page = awaitTotal(serve, 2, REPORTED_WITHIN_MS);

            long tookMs = (System.nanoTime() - appended) / 1_000_000;
            assertThat(page.get("total").asLong()).as("total %d ms after the append", tookMs).isEqualTo(2);
            assertThat(page.get("rows")).extracting(row -> row.get("url").asText()).containsExactlyInAnyOrder("/page/1", "/page/2");
            assertThat(serve.printed()).contains("follow: format: combined with request time in seconds (nginx $request_time); "
                    + "auto-detected from its only line of " + log + ", 1 parsed");
        }
    }

    @Test
    void saysEveryFewSecondsHowManyLinesAndCrawlerHitsWereFollowed() throws Exception {
        Path log = dir.resolve("access.log");
        Files.writeString(log, line(1) + line(2));
        try (ServeProcess serve = ServeProcess.start(dir.resolve("serve.out"), "--follow", log.toString(),
                "--db", dir.resolve("hits.duckdb").toString(), "--port", "0", "--dns-server", "none", "--ip-ranges", SampleLogs.ipRanges(dir).toString())) {
            Waits.await("the progress line").atMost(FollowProgress.EVERY.multipliedBy(3)).until(() -> serve.printed().contains("follow: 2 lines in "));

            // off a terminal (a file here): one line for the interval, not one per log line
            assertThat(serve.printed().lines().filter(l -> l.contains(" lines in ")))
                    .singleElement().asString().matches("follow: 2 lines in \\d+\\.\\d s \\(\\d+ lines/s\\), 2 crawler hits \\(2 errors\\); "
                            + "2 lines and 2 crawler hits since the start");
        }
    }

    @Test
    void rendersTheFirstPageAsItStartsSoThatItsFirstReaderIsAnsweredWhatWasKept() throws Exception {
        Path log = dir.resolve("access.log");
        Files.writeString(log, SampleLogs.lines(1, 300));
        Path db = dir.resolve("hits.duckdb");
        int exit = Main.commandLine().execute("import", "--db", db.toString(), "--dns-server", "none",
                "--ip-ranges", SampleLogs.ipRanges(dir).toString(), log.toString());
        assertThat(exit).isZero();
        try (ServeProcess serve = ServeProcess.start(dir.resolve("serve.out"), "--db", db.toString(), "--port", "0",
                "--dns-server", "none", "--ip-ranges", SampleLogs.ipRanges(dir).toString())) {
            // no page asked yet: its warm-up renders the first page, HTML and JSON, and keeps them
            Waits.await("the first page kept").until(() -> metric(serve, "crawl_errors_page_cache_misses_total") == 2
                    && metric(serve, "crawl_errors_page_cache_bytes") > 0);
            for (String path : new String[] {"/crawl-errors", "/crawl-errors?page=1", "/api/crawl-errors"}) {
                HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(serve.base() + path)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(page.statusCode()).isEqualTo(200);
                assertThat(page.body()).contains("/page/300");
            }
            assertThat(metric(serve, "crawl_errors_page_cache_misses_total")).as("no first page rendered for its readers").isEqualTo(2);
            assertThat(metric(serve, "crawl_errors_page_cache_hits_total")).isEqualTo(3);
        }
    }

    /** One figure of serve's /metrics. */
    private double metric(ServeProcess serve, String name) throws Exception {
        String metrics = http.send(HttpRequest.newBuilder(URI.create(serve.base() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
        return metrics.lines().filter(l -> l.startsWith(name + " ")).mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .findFirst().orElseThrow(() -> new AssertionError("no " + name + " in /metrics"));
    }

    /** The report API's first page once its total is {@code total}, or as it is when {@code withinMs} have passed. */
    private JsonNode awaitTotal(ServeProcess serve, long total, long withinMs) throws Exception {
        long deadline = System.nanoTime() + withinMs * 1_000_000;
        while (true) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(serve.base() + "/api/crawl-errors")).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode page = new ObjectMapper().readTree(response.body());
            if (page.get("total").asLong() == total || System.nanoTime() - deadline > 0) {
                return page;
            }
            Thread.sleep(10);
        }
    }
}
