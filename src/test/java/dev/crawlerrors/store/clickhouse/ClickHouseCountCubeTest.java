package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.report.CountCubeContract;
import dev.crawlerrors.store.HitStore;

/** The count cube on a two-shard ClickHouse cluster, read from its per-minute counts. */
@ClickHouseTest
class ClickHouseCountCubeTest extends CountCubeContract {

    private final ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();

    @Override
    protected HitStore open() {
        return ClickHouseHitStore.open(cluster.location(ClickHouseTestCluster.database("cube")), ClickHouseSettings.SERVE);
    }
}
