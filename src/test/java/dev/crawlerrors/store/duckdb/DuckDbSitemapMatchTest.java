package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.SitemapMatchContract;

/** {@code in_sitemap} on the embedded store. */
class DuckDbSitemapMatchTest extends SitemapMatchContract {

    @Override
    protected HitStore open() {
        return DuckDbHitStore.inMemory();
    }
}
