package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.SitemapMatchContract;

/** {@code in_sitemap} on a two-shard ClickHouse cluster: each shard matches its own hits against its own copy of the sitemaps. */
@ClickHouseTest
class ClickHouseSitemapMatchTest extends SitemapMatchContract {

    private final ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();

    @Override
    protected HitStore open() {
        return ClickHouseHitStore.open(cluster.location(ClickHouseTestCluster.database("sitemaps")), ClickHouseSettings.SERVE);
    }
}
