package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.crawlerrors.ProcessTest;
import dev.crawlerrors.StoreFixture;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code import}, {@code serve} and {@code check} on a damaged store, as users run them: 800 KB
 * zeroed inside a real store, a store cut in half. {@code import} exited 0 and appended to such a
 * store, and no command said a word about the damage but DuckDB's own raw message.
 */
@ProcessTest
class DamagedStoreCommandsTest {

    static final String WHAT_TO_DO = "; restore it from a backup, or move it aside and import the logs again (they are the source of truth)";
    /** serve on a sound store would serve until stopped: a run past this is a serve that did not refuse. */
    static final Duration REFUSED_WITHIN = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    /** A real store of 50,000 hits (2.6 MB) in {@code name}. */
    private Path sound(String name) throws Exception {
        return StoreFixture.copyOfStoreOf(dir.resolve(name), 50_000);
    }

    /** A real store with 800 KB zeroed from 1 MiB on, as the review damaged its store. */
    private Path zeroed() throws Exception {
        Path file = sound("zeroed.duckdb");
        StoreFixture.zero(file, 1 << 20, 800 * 1024);
        return file;
    }

    @Test
    void importRefusesAStoreWith800KbZeroedInOneSentenceAndAppendsNothing() throws Exception {
        Path db = zeroed();
        Path log = Files.writeString(dir.resolve("access.log"), SampleLogs.line(1));

        CommandRun run = CommandRun.importing(dir, db, log.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).startsWith("crawl-errors: the store " + db + " is damaged: part of it fails its checksum")
                .endsWith(WHAT_TO_DO + System.lineSeparator());
        assertThat(run.out()).doesNotContain("Crawler hits stored");
    }

    @Test
    void serveRefusesADamagedStoreInOneSentence() throws Exception {
        Path db = zeroed();

        CommandRun run = assertTimeoutPreemptively(REFUSED_WITHIN, () -> CommandRun.of("serve", "--db", db.toString(), "--port", "0",
                "--dns-server", "none", "--ip-ranges", SampleLogs.ipRanges(dir).toString()));

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).startsWith("crawl-errors: the store " + db + " is damaged: part of it fails its checksum")
                .endsWith(WHAT_TO_DO + System.lineSeparator());
        assertThat(run.out()).doesNotContain("Serving the report");
    }

    /**
     * 300,000 hits with their oldest row group's addresses zeroed (the file's first block: 256 KiB
     * from 12 KiB on). serve read every error hit before it listened (36 s at 10,000,000 hits); now
     * it reads the newest row group, serves, reads the rest and stops as it would have refused.
     */
    @Test
    void serveServesAStoreDamagedInItsOldestHitsThenStopsInOneSentence() throws Exception {
        Path db = StoreFixture.copyOfStoreOf(dir.resolve("old-damaged.duckdb"), 300_000);
        StoreFixture.zero(db, 12 * 1024, 256 * 1024);

        CommandRun serve = assertTimeoutPreemptively(REFUSED_WITHIN, () -> CommandRun.of("serve", "--db", db.toString(), "--port", "0",
                "--dns-server", "none", "--ip-ranges", SampleLogs.ipRanges(dir).toString()));
        CommandRun check = CommandRun.of("check", "--db", db.toString());
        CommandRun imported = CommandRun.importing(dir, db, Files.writeString(dir.resolve("access.log"), SampleLogs.line(1)).toString());

        assertThat(serve.out()).contains("Serving the report at ");
        assertThat(serve.exit()).isEqualTo(1);
        assertThat(serve.err()).startsWith("crawl-errors: the store " + db + " is damaged: part of it fails its checksum")
                .endsWith(WHAT_TO_DO + System.lineSeparator());
        for (CommandRun refused : List.of(check, imported)) { // the other commands read the store whole before they go on
            assertThat(refused.exit()).isEqualTo(1);
            assertThat(refused.err()).startsWith("crawl-errors: the store " + db + " is damaged: part of it fails its checksum");
        }
        assertThat(imported.out()).doesNotContain("Crawler hits stored");
    }

    @Test
    void checkSaysASoundStoreIsSoundWithWhatItHolds() throws Exception {
        Path db = sound("sound.duckdb");

        CommandRun run = CommandRun.of("check", "--db", db.toString());

        assertThat(run.exit()).isZero();
        // 2.x MiB before each hit's row in the URLs' history (schema 5), 7.x before the hits in time order (schema 8): the size is
        // held where it is now, so it grows no further unseen
        assertThat(run.out()).matches("Store " + db.toString().replace(".", "\\.") + ": sound\\. 50,000 crawler hits, [\\d,]+ verdicts, "
                + "0 logs imported; schema version " + DuckDbHitStore.SCHEMA_VERSION + "; 8\\.\\d MiB\\.\\R");
    }

    @Test
    void checkSaysAZeroedStoreIsDamagedWithWhatToDoAndExitsOne() throws Exception {
        Path db = zeroed();

        CommandRun run = CommandRun.of("check", "--db", db.toString());

        assertThat(run.exit()).isEqualTo(CheckCommand.DAMAGED).isEqualTo(1);
        assertThat(run.err()).startsWith("crawl-errors: the store " + db + " is damaged: part of it fails its checksum")
                .endsWith(WHAT_TO_DO + System.lineSeparator());
    }

    @Test
    void checkSaysAStoreCutInHalfIsDamagedAndExitsOne() throws Exception {
        Path db = sound("half.duckdb");
        StoreFixture.cutInHalf(db);

        CommandRun run = CommandRun.of("check", "--db", db.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).startsWith("crawl-errors: the store " + db + " is damaged: it is shorter than its contents say, so it was "
                + "cut short (a full disk, or a copy that did not finish)");
    }

    @Test
    void checkOfAPathWithNoStoreSaysSoExitsThreeAndMakesNone() {
        Path db = dir.resolve("none.duckdb");

        CommandRun run = CommandRun.of("check", "--db", db.toString());

        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.err()).isEqualTo("crawl-errors: there is no store at " + db + ": pass the --db that import and serve use (or set "
                + "$CRAWL_ERRORS_DB)" + System.lineSeparator());
        assertThat(db).doesNotExist();
    }

    @Test
    void checkOfAStoreAServeHoldsNamesTheProgramAndExitsFour() throws Exception {
        Path db = sound("served.duckdb");
        try (ServeProcess serve = ServeProcess.start(dir.resolve("serve.out"), "--db", db.toString(), "--port", "0",
                "--dns-server", "none", "--ip-ranges", SampleLogs.ipRanges(dir).toString())) {
            CommandRun run = CommandRun.of("check", "--db", db.toString());

            assertThat(serve.printed()).contains("from the store " + db + "; Ctrl-C stops."); // a sound store is served
            assertThat(run.exit()).isEqualTo(CheckCommand.NOT_CHECKED).isEqualTo(4);
            // DuckDB names the program as the system has it: the JVM's path here
            assertThat(run.err()).startsWith("crawl-errors: the store " + db + " is in use by another program (")
                    .endsWith("PID " + serve.process().pid() + "): one program at a time may open it; stop that one (another crawl-errors "
                            + "serve or import?) or pass another --db" + System.lineSeparator());
        }
    }
}
