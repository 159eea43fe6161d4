package dev.crawlerrors.store.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.Waits;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.store.RandomHistories;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.store.UrlState;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * On a two-shard cluster, folds of several imports keep the states one import of all keeps, as
 * DuckDB does; a fold adds the new hits to the kept states without reading the URLs' histories.
 */
@ClickHouseTest
class ClickHouseUrlFoldTest {

    private final ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();

    @Test
    void foldsOfSeveralImportsKeepWhatOneImportOfAllKeeps() {
        List<CrawlerHit> hits = RandomHistories.inOrder(30, 3_000, 300);
        try (ClickHouseHitStore once = ClickHouseHitStore.openAfresh(cluster.location(ClickHouseTestCluster.database("fold_once")),
                ClickHouseSettings.SERVE);
                ClickHouseHitStore batched = ClickHouseHitStore.openAfresh(cluster.location(ClickHouseTestCluster.database("fold_batched")),
                        ClickHouseSettings.SERVE);
                DuckDbHitStore embedded = DuckDbHitStore.inMemory()) {
            once.writer().append(hits);
            once.reader().urlStates().fold();
            for (int from = 0; from < hits.size(); from += 1_000) {
                batched.writer().append(hits.subList(from, from + 1_000));
                batched.reader().urlStates().fold();
                embedded.writer().append(hits.subList(from, from + 1_000));
                embedded.reader().urlStates().fold();
            }
            for (UrlQuery scope : RandomHistories.scopes()) {
                List<UrlState> kept = RandomHistories.all(batched.reader(), scope, batched.reader().snapshot(), 50);
                assertThat(kept).as("folded a batch at a time, %s", scope.filter())
                        .isEqualTo(RandomHistories.all(once.reader(), scope, once.reader().snapshot(), 50));
                assertThat(kept).as("as DuckDB keeps them, %s", scope.filter())
                        .isEqualTo(RandomHistories.all(embedded.reader(), scope, embedded.reader().snapshot(), 50));
            }
        }
    }

    @Test
    void aFoldAddsTheNewHitsToTheKeptStatesWithoutReadingTheHistories() {
        List<CrawlerHit> hits = RandomHistories.inOrder(31, 2_000, 200);
        int half = later(hits, 1_000);
        String db = ClickHouseTestCluster.database("fold_kept");
        try (ClickHouseHitStore first = ClickHouseHitStore.openAfresh(cluster.location(db), ClickHouseSettings.SERVE)) {
            first.writer().append(hits.subList(0, half));
            first.reader().snapshot();
            first.reader().urlStates().fold();
        }
        // the histories gone: a fold that read them would lose the first half's hits
        for (int shard = 1; shard <= cluster.shards(); shard++) {
            cluster.query(shard, "ALTER TABLE " + db + ".url_log_local DELETE WHERE 1");
        }
        Waits.await("the histories deleted").untilAsserted(() -> assertThat(cluster.perShard("SELECT count() FROM " + db
                + ".url_log_local")).containsOnly(0L));
        // another process: it records its claims' first verdicts again, which moves none
        try (ClickHouseHitStore second = ClickHouseHitStore.open(cluster.location(db), ClickHouseSettings.SERVE);
                DuckDbHitStore embedded = DuckDbHitStore.inMemory()) {
            second.writer().append(hits.subList(half, hits.size()));
            second.reader().snapshot(); // commits what was appended
            second.reader().urlStates().fold();
            embedded.writer().append(hits);
            embedded.reader().urlStates().fold();
            for (UrlQuery scope : RandomHistories.scopes()) {
                assertThat(RandomHistories.all(second.reader(), scope, second.reader().snapshot(), 50)).as("%s", scope.filter())
                        .isEqualTo(RandomHistories.all(embedded.reader(), scope, embedded.reader().snapshot(), 50));
            }
        }
    }

    @Test
    void aStoreOfSchemaEightGetsTheCarryAndFoldsOnAsOneImportOfAll() {
        List<CrawlerHit> hits = RandomHistories.inOrder(32, 2_000, 200);
        int half = later(hits, 1_000);
        String db = ClickHouseTestCluster.database("fold_schema8");
        try (ClickHouseHitStore first = ClickHouseHitStore.openAfresh(cluster.location(db), ClickHouseSettings.SERVE)) {
            first.writer().append(hits.subList(0, half));
            first.reader().snapshot();
            first.reader().urlStates().fold();
        }
        // as schema 8 left it: kept states without their carry
        cluster.query(1, "ALTER TABLE " + db + ".url_states DROP COLUMN carry");
        cluster.query(1, "INSERT INTO " + db + ".schema_version (version) VALUES (8)");
        cluster.query(1, "ALTER TABLE " + db + ".schema_version DELETE WHERE version > 8");
        Waits.await("the schema version mutated").untilAsserted(() -> assertThat(cluster.number(1, "SELECT max(version) FROM " + db
                + ".schema_version")).isEqualTo(8));
        try (ClickHouseHitStore second = ClickHouseHitStore.open(cluster.location(db), ClickHouseSettings.SERVE);
                DuckDbHitStore embedded = DuckDbHitStore.inMemory()) {
            assertThat(cluster.number(1, "SELECT count() FROM system.columns WHERE database = '" + db
                    + "' AND table = 'url_states' AND name = 'carry'")).isEqualTo(1);
            second.writer().append(hits.subList(half, hits.size()));
            second.reader().snapshot(); // commits what was appended
            second.reader().urlStates().fold();
            embedded.writer().append(hits);
            embedded.reader().urlStates().fold();
            for (UrlQuery scope : RandomHistories.scopes()) {
                assertThat(RandomHistories.all(second.reader(), scope, second.reader().snapshot(), 50)).as("%s", scope.filter())
                        .isEqualTo(RandomHistories.all(embedded.reader(), scope, embedded.reader().snapshot(), 50));
            }
        }
    }

    /** The first index from {@code near} on whose hit is later than the one before: the hits from it are all after those before. */
    private static int later(List<CrawlerHit> hits, int near) {
        int i = near;
        while (hits.get(i).hit().epochMillis() == hits.get(i - 1).hit().epochMillis()) {
            i++;
        }
        return i;
    }
}
