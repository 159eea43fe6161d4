package dev.crawlerrors.report;

import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;

/** A first page not kept waiting for its count, on the embedded store. */
class UncountedFirstPageTest extends UncountedFirstPageContract {

    @Override
    protected HitStore open() {
        return DuckDbHitStore.inMemory();
    }
}
