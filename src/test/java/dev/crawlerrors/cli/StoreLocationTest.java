package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ProcessTest;
import dev.crawlerrors.Waits;
import dev.crawlerrors.ingest.SampleLogs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default store is {@code ./crawl-errors.duckdb} in the directory a command runs in, so a cron
 * import and a serve started elsewhere use two stores. Each names the store it uses by its
 * absolute path, and a serve whose store is new says so, so the two stores show.
 */
@ProcessTest
class StoreLocationTest {

    @TempDir
    Path dir;

    @Test
    void importAndServeRunInTwoDirectoriesNameTheirTwoStoresAbsolutely() throws Exception {
        Path cron = Files.createDirectories(dir.resolve("cron"));
        Path service = Files.createDirectories(dir.resolve("service"));
        Files.writeString(cron.resolve("access.log"), SampleLogs.line(1));
        Path output = dir.resolve("import.out");
        List<String> command = new ArrayList<>(ServeProcess.javaRunning(output, "import"));
        command.addAll(List.of("--ip-ranges", SampleLogs.ipRanges(dir).toString(), "--dns-server", "none", "access.log"));

        Process importing = new ProcessBuilder(command).directory(cron.toFile()).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        assertThat(importing.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String summary = Files.readString(output, StandardCharsets.UTF_8);

        assertThat(importing.exitValue()).as(summary).isZero();
        assertThat(summary).contains("Store: " + cron.toRealPath().resolve("crawl-errors.duckdb") + " (1 crawler hit in all).");
        try (ServeProcess serve = ServeProcess.startIn(service, dir.resolve("serve.out"), "--port", "0", "--dns-server", "none",
                "--ip-ranges", SampleLogs.ipRanges(dir).toString())) {
            Path store = service.toRealPath().resolve("crawl-errors.duckdb");

            String empty = "The store " + store + " is new and empty: import into it with crawl-errors import --db " + store
                    + " FILE, or serve the store your imports use with --db.";
            // printed a moment after the line the start waits for: a loaded machine read the output before it came
            Waits.await("the new store's line").until(() -> serve.printed().contains(empty));
            assertThat(serve.printed()).contains("/crawl-errors (times in ", ") from the store " + store + "; Ctrl-C stops.", empty);
        }
    }

    @Test
    void serveOfAStoreThatHoldsHitsDoesNotCallItNew() throws Exception {
        Path db = dir.resolve("hits.duckdb");
        Path log = Files.writeString(dir.resolve("access.log"), SampleLogs.line(1));
        assertThat(CommandRun.importing(dir, db, log.toString()).exit()).isZero();

        try (ServeProcess serve = ServeProcess.start(dir.resolve("serve.out"), "--db", db.toString(), "--port", "0", "--dns-server", "none",
                "--ip-ranges", SampleLogs.ipRanges(dir).toString())) {
            assertThat(serve.printed()).contains(") from the store " + db + "; Ctrl-C stops.").doesNotContain("is new and empty");
        }
    }
}
