package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A password in a URL given on the command line (or in a unit file, whose messages go to a journal)
 * is never printed: every command names the URL without its user info.
 */
class CredentialsNeverShownTest {

    private static final String SECRET = "Pw-Secret-123";

    @TempDir
    Path dir;

    @Test
    void aClickHouseUrlWithAPasswordIsRefusedWithoutIt() {
        String url = "clickhouse://crawl:" + SECRET + "@127.0.0.1:8123/db";
        for (String[] args : List.of(new String[] {"import", "--db", url, "x.log"}, new String[] {"serve", "--db", url, "--port", "0"},
                new String[] {"check", "--db", url}, new String[] {"demo", "--db", url, "--port", "0"})) {
            CommandRun run = CommandRun.of(args);

            assertThat(run.exit()).as(args[0]).isEqualTo(2);
            assertThat(run.err()).as(args[0]).contains("--db: 'clickhouse://127.0.0.1:8123/db' is not a ClickHouse store: it holds a user or "
                    + "password").doesNotContain(SECRET).doesNotContain("crawl:");
            assertThat(run.out()).doesNotContain(SECRET);
        }
    }

    @Test
    void aUrlOfAnotherKindIsNoFileToMakeAndIsShownWithoutItsPassword() throws Exception {
        String url = "postgres://crawl:" + SECRET + "@127.0.0.1/db";
        Path log = Files.writeString(dir.resolve("access.log"), SampleLogs.line(1));
        for (String[] args : List.of(new String[] {"import", "--db", url, log.toString()}, new String[] {"check", "--db", url})) {
            CommandRun run = CommandRun.of(args);

            assertThat(run.exit()).as(args[0]).isEqualTo(2);
            assertThat(run.err()).as(args[0]).contains("--db: 'postgres://127.0.0.1/db' is neither a DuckDB file nor a ClickHouse store; "
                    + "write a file's path, or clickhouse://HOST:PORT/DATABASE").doesNotContain(SECRET);
        }
        assertThat(Path.of("postgres:")).doesNotExist();
    }

    @Test
    void anIpListUrlWithAPasswordIsNamedWithoutItInTheSummaryAndTheVerdicts() throws Exception {
        Path log = Files.writeString(dir.resolve("access.log"), SampleLogs.line(1));
        Path db = dir.resolve("hits.duckdb");

        CommandRun run = CommandRun.of("import", "--db", db.toString(), "--dns-server", "none", "--ip-ranges",
                "http://crawl:" + SECRET + "@127.0.0.1:1/lists/", log.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out() + run.err()).contains("http://127.0.0.1:1/lists/").doesNotContain(SECRET);
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::reason).isNotEmpty()
                    .allSatisfy(reason -> assertThat(reason).doesNotContain(SECRET));
        }
    }
}
