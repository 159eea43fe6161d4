package dev.crawlerrors.report;

import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;

/** The kept page rows on the embedded store. */
class KeptPageRowsTest extends PageRowsContract {

    @Override
    protected HitStore open() {
        return DuckDbHitStore.inMemory();
    }
}
