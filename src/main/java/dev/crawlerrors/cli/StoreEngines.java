package dev.crawlerrors.cli;

import dev.crawlerrors.store.StoreAddress;
import dev.crawlerrors.store.StoreEngine;
import dev.crawlerrors.store.clickhouse.ClickHouseEngine;
import dev.crawlerrors.store.duckdb.DuckDbEngine;
import java.util.List;

/**
 * The engines a store can live on, in the order they are asked to read {@code --db}: the first
 * that takes the name has the store. Adding an engine is a line here; DuckDB, which takes any
 * name as a file, comes last.
 */
final class StoreEngines {

    private static final List<StoreEngine> ENGINES = List.of(
            new ClickHouseEngine(),
            new DuckDbEngine());

    private StoreEngines() {
    }

    /**
     * The store {@code db} names, on the first engine that takes the name.
     *
     * @throws IllegalArgumentException saying what is wrong with {@code db}
     */
    static StoreAddress address(String db, String user, String password) {
        for (StoreEngine engine : ENGINES) {
            var address = engine.address(db, user, password);
            if (address.isPresent()) {
                return address.get();
            }
        }
        throw new IllegalArgumentException("'" + db + "' names no store: give a DuckDB file, or clickhouse://HOST:HTTP_PORT/DATABASE");
    }
}
