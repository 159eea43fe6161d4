package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.store.DuckDbHitStore;
import dev.crawlerrors.store.HitFilter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code import} given a glob it cannot read: one source problem, and the other arguments imported into the real store. */
class ImportMalformedGlobTest {

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

    private int importLogs(Path db, String... logs) throws Exception {
        String[] args = {"import", "--db", db.toString(), "--ip-ranges", ImportSourcesTest.ipRanges(dir).toString(), "--dns-server", "none"};
        String[] all = java.util.Arrays.copyOf(args, args.length + logs.length);
        System.arraycopy(logs, 0, all, args.length, logs.length);
        return Main.commandLine().setErr(new PrintWriter(err, true, StandardCharsets.UTF_8)).execute(all);
    }

    private String problem() {
        return "Source problem: " + dir + "/miss[ing.log names no file, and as a glob its '[' is never closed: close it with ']', "
                + "or write a '[' that is part of the name as [[]\n";
    }

    @Test
    void importsTheLogBesideAMalformedGlobAndExitsZero() throws Exception {
        Path good = Files.writeString(dir.resolve("good.log"), ImportSourcesTest.lines(1, 2));
        Path db = dir.resolve("hits.duckdb");

        int exit = importLogs(db, dir + "/miss[ing.log", good.toString());

        assertThat(exit).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("  " + good + ": new, 2 lines\n").contains(problem());
        assertThat(err.toString(StandardCharsets.UTF_8)).doesNotContain("Missing");
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            assertThat(store.count(HitFilter.ERRORS)).isEqualTo(2);
        }
    }

    @Test
    void exitsOneWhenAMalformedGlobIsAllItWasGiven() throws Exception {
        int exit = importLogs(dir.resolve("hits.duckdb"), dir + "/miss[ing.log");

        assertThat(exit).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains(problem());
    }
}
