package dev.crawlerrors.report;

import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;

/** The count cube on the embedded store. */
class KeptCubeTest extends CountCubeContract {

    @Override
    protected HitStore open() {
        return DuckDbHitStore.inMemory();
    }
}
