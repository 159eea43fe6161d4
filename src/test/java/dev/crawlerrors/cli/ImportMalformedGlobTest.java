package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code import} given a glob it cannot read: one source problem, and the other arguments imported into the real store. */
class ImportMalformedGlobTest {

    @TempDir
    Path dir;

    private String problem() {
        return "Source problem: " + dir + "/miss[ing.log names no file, and as a glob its '[' is never closed: close it with ']', "
                + "or write a '[' that is part of the name as [[]\n";
    }

    @Test
    void importsTheLogBesideAMalformedGlobAndExitsOneForTheGlob() throws Exception {
        Path good = Files.writeString(dir.resolve("good.log"), SampleLogs.lines(1, 2));
        Path db = dir.resolve("hits.duckdb");

        CommandRun run = CommandRun.importing(dir, db, "--verbose", dir + "/miss[ing.log", good.toString());

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("  " + good + ": new, 2 lines\n").contains(problem());
        assertThat(run.err()).doesNotContain("Missing");
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            assertThat(store.reader().count(HitFilter.ERRORS)).isEqualTo(2);
        }
    }

    @Test
    void exitsOneWhenAMalformedGlobIsAllItWasGiven() throws Exception {
        CommandRun run = CommandRun.importing(dir, dir.resolve("hits.duckdb"), dir + "/miss[ing.log");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains(problem());
    }
}
