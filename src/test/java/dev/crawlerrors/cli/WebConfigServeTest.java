package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import at.favre.lib.crypto.bcrypt.BCrypt;
import dev.crawlerrors.ProcessTest;
import dev.crawlerrors.ingest.SampleLogs;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --web-config}: a bad file stops the start before the store is made, and a report
 * served beyond loopback without a login says so, once.
 */
@ProcessTest
class WebConfigServeTest {

    private static final String WARNING = "crawl-errors: warning: the report on 0.0.0.0 can be read by anyone who reaches it; "
            + "ask for a login with --web-config FILE, or serve it behind a proxy that does (docs/operations.md)";

    @TempDir
    Path dir;

    private ServeProcess serve(String name, String... more) throws Exception {
        String[] args = new String[] {"--db", dir.resolve(name + ".duckdb").toString(), "--port", "0", "--bind", "0.0.0.0", "--dns-server",
                "none", "--ip-ranges", SampleLogs.ipRanges(dir).toString()};
        String[] all = java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.Arrays.stream(more)).toArray(String[]::new);
        return ServeProcess.start(dir.resolve(name + ".out"), all);
    }

    @Test
    void aBadWebConfigIsAUsageErrorNamingTheLineAndMakesNoStore() throws Exception {
        Path config = Files.writeString(dir.resolve("web.yml"), "basic_auth_users:\n  alice: secret\n");
        Path db = dir.resolve("hits.duckdb");

        CommandRun run = CommandRun.of("serve", "--db", db.toString(), "--port", "0", "--web-config", config.toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith("--web-config " + config + ": line 2: the password of basic_auth_users.alice is not a bcrypt hash");
        assertThat(db).doesNotExist();
    }

    @Test
    void aReportServedBeyondLoopbackWithoutALoginSaysSoOnceAndWithOneAsksForIt() throws Exception {
        Path config = Files.writeString(dir.resolve("web.yml"),
                "basic_auth_users:\n  alice: " + BCrypt.withDefaults().hashToString(5, "Wonderland-1".toCharArray()) + "\n");

        try (ServeProcess open = serve("open"); ServeProcess guarded = serve("guarded", "--web-config", config.toString())) {
            assertThat(open.printed().lines().filter(line -> line.contains("warning"))).containsExactly(WARNING);
            assertThat(guarded.printed()).doesNotContain("warning");
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(guarded.base() + "/api/crawl-errors")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(401);
        }
    }
}
