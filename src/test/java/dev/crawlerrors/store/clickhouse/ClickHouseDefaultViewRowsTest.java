package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.web.DefaultViewRowsContract;

/** The default view's rows held in memory, on a two-shard ClickHouse cluster. */
@ClickHouseTest
class ClickHouseDefaultViewRowsTest extends DefaultViewRowsContract {

    private final ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();

    @Override
    protected HitStore open(String name) {
        return ClickHouseHitStore.open(cluster.location(ClickHouseTestCluster.database(name)), ClickHouseSettings.SERVE);
    }
}
