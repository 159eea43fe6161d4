package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ProcessTest;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.store.UrlSort;
import dev.crawlerrors.store.UrlState;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An import killed with SIGKILL mid-way and run again leaves every URL's state as one clean import of the log does. */
@ProcessTest
class KilledImportUrlStatesTest {

    private static final int LINES = 600_000;
    private static final int URLS = 4_000;
    private static final DateTimeFormatter CLF = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT)
            .withZone(ZoneOffset.ofHours(2));
    private static final UrlQuery EVERY = new UrlQuery(HitFilter.ERRORS, Set.of(), false, false, UrlSort.errors);

    @TempDir
    Path dir;

    /** Googlebot's fetches of a few thousand URLs, a second apart: each URL's answers change from round to round. */
    private Path log() throws Exception {
        Path log = dir.resolve("access.log");
        Instant start = Instant.parse("2025-05-01T00:00:00Z");
        try (BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            for (int i = 0; i < LINES; i++) {
                int url = i % URLS;
                int round = i / URLS;
                int status = switch ((url + round / (1 + url % 7)) % 5) {
                    case 0 -> 404;
                    case 1 -> 503;
                    case 2 -> 301;
                    default -> 200;
                };
                out.write("66.249.66." + (i % 250) + " - - [" + CLF.format(start.plusSeconds(i)) + "] \"GET /u/" + url
                        + " HTTP/1.1\" " + status + " 0 \"-\" \"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)\"\n");
            }
        }
        return log;
    }

    private static List<UrlState> states(Path db) {
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            Snapshot at = store.reader().snapshot();
            List<UrlState> states = new ArrayList<>();
            store.reader().urlStates().forEach(EVERY, at, states::add);
            return states;
        }
    }

    @Test
    void aKilledImportRunAgainKeepsTheStatesOfACleanOne() throws Exception {
        Path log = log();
        Path killed = dir.resolve("killed.duckdb");
        List<String> command = CommandProcess.java(dir);
        command.addAll(List.of("import", "--db", killed.toString(), "--ip-ranges", dev.crawlerrors.ingest.SampleLogs.ipRanges(dir).toString(),
                "--dns-server", "none", log.toString()));
        Process importing = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("import.out").toFile()).start();
        try {
            // killed a moment after its first batch is committed (the store's write-ahead log appears)
            Path wal = dir.resolve("killed.duckdb.wal");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (importing.isAlive() && System.nanoTime() < deadline && !(Files.exists(wal) && Files.size(wal) > 0)) {
                Thread.sleep(5);
            }
            Thread.sleep(300);
            assertThat(importing.isAlive()).as("the import was still running: " + Files.readString(dir.resolve("import.out"))).isTrue();
        } finally {
            importing.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        CommandRun again = CommandRun.importing(dir, killed, log.toString());
        assertThat(again.exit()).as(again.err()).isZero();
        CommandRun clean = CommandRun.importing(dir, dir.resolve("clean.duckdb"), log.toString());
        assertThat(clean.exit()).as(clean.err()).isZero();

        List<UrlState> expected = states(dir.resolve("clean.duckdb"));
        assertThat(expected).hasSize(URLS);
        assertThat(expected).anyMatch(UrlState::fixed).anyMatch(UrlState::inconsistent);
        assertThat(states(killed)).isEqualTo(expected);
    }
}
