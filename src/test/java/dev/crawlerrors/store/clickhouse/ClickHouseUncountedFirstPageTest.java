package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.report.UncountedFirstPageContract;
import dev.crawlerrors.store.HitStore;

/** A first page not kept waiting for its count, on a two-shard ClickHouse cluster. */
@ClickHouseTest
class ClickHouseUncountedFirstPageTest extends UncountedFirstPageContract {

    private final ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();

    @Override
    protected HitStore open() {
        return ClickHouseHitStore.open(cluster.location(ClickHouseTestCluster.database("uncounted")), ClickHouseSettings.SERVE);
    }
}
