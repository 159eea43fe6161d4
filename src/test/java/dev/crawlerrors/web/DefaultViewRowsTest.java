package dev.crawlerrors.web;

import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;

/** The default view's rows held in memory, on the embedded store. */
class DefaultViewRowsTest extends DefaultViewRowsContract {

    @Override
    protected HitStore open(String name) {
        return DuckDbHitStore.inMemory();
    }
}
