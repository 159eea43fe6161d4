package dev.crawlerrors.store.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.store.RandomHistories;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.store.UrlState;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/** On a two-shard cluster, folds of several imports keep the states one import of all keeps, as DuckDB does. */
@ClickHouseTest
class ClickHouseUrlFoldTest {

    @Test
    void foldsOfSeveralImportsKeepWhatOneImportOfAllKeeps() {
        List<CrawlerHit> hits = RandomHistories.inOrder(30, 3_000, 300);
        ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();
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
}
