package dev.crawlerrors.pipeline;

import static dev.crawlerrors.pipeline.WatchedStores.printed;
import static dev.crawlerrors.pipeline.WatchedStores.storedUrls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.pipeline.TwoWriters.Engine;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.clickhouse.ClickHouseTestCluster;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer killed between its claim on a log's position and its commit (ClickHouse) leaves the
 * claim behind, holding the position until the claim's life ends (15 s). The next import of the log,
 * started at once, is refused there though nothing moved: it waits for the claim to end and stores
 * the lines, instead of failing with "another writer stored lines" that nobody stored.
 */
@ClickHouseTest
class ClaimedLogImportTest {

    private static final int LINES = 3_000;

    @TempDir
    Path dir;

    @Test
    void aLogAKilledWritersClaimHoldsIsStoredOnceTheClaimEnds() throws Exception {
        try (TwoWriters writers = new TwoWriters(dir)) {
            Path all = writers.log("all/access.log", 2 * LINES);
            HitStore alone = writers.open(Engine.CLICKHOUSE, "claim_alone");
            assertThat(writers.imported(alone, all).succeeded()).isTrue();

            Path log = writers.log("access.log", LINES);
            HitStore store = writers.open(Engine.CLICKHOUSE, "claimed");
            ImportSummary first = writers.imported(store, log);
            assertThat(first.succeeded()).as(printed(first)).isTrue();
            String db = writers.name(store);
            ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();
            long bytes = Files.size(log);
            String fingerprint = cluster.query(1, "SELECT fingerprint FROM " + db + ".commits WHERE fingerprint != '' AND bytes = " + bytes
                    + " LIMIT 1").strip();
            assertThat(fingerprint).isNotEmpty();
            // the killed writer's claim on where the store has the log, made 10 s ago: alive for some 5 s more
            cluster.query(1, "INSERT INTO " + db + ".log_claims (fingerprint, from_bytes, claim, withdrawn, made) VALUES ('"
                    + fingerprint + "', " + bytes + ", 77, 0, now() - 10)");
            try (BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.APPEND)) {
                for (int i = LINES + 1; i <= 2 * LINES; i++) {
                    out.write(SampleLogs.line(i));
                }
            }

            ImportSummary again = writers.imported(writers.another(Engine.CLICKHOUSE, store), log);
            assertThat(again.succeeded()).as(printed(again)).isTrue();
            assertThat(again.lines().linesRead()).as(printed(again)).isEqualTo(LINES);
            assertThat(again.otherWriterLines()).as(printed(again)).isZero();
            assertThat(storedUrls(store)).isEqualTo(storedUrls(alone));
        }
    }
}
