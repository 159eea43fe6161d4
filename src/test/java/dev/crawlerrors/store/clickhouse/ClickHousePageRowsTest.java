package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.report.PageRowsContract;
import dev.crawlerrors.store.HitStore;

/** The kept page rows on a two-shard ClickHouse cluster. */
@ClickHouseTest
class ClickHousePageRowsTest extends PageRowsContract {

    private final ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();

    @Override
    protected HitStore open() {
        return ClickHouseHitStore.open(cluster.location(ClickHouseTestCluster.database("pagerows")), ClickHouseSettings.SERVE);
    }
}
