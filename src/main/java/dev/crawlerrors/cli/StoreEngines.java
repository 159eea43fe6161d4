package dev.crawlerrors.cli;

import dev.crawlerrors.store.StoreAddress;
import dev.crawlerrors.store.StoreEngine;
import dev.crawlerrors.store.clickhouse.ClickHouseEngine;
import dev.crawlerrors.store.duckdb.DuckDbEngine;
import dev.crawlerrors.text.Credentials;
import java.util.List;
import java.util.Optional;

/**
 * The engines a store can live on, asked in turn to read {@code --db}: the first that takes the
 * name has the store, and a name none takes is refused saying what each takes. Adding an engine is
 * a line here.
 */
final class StoreEngines {

    private static final List<StoreEngine> ENGINES = List.of(
            new DuckDbEngine(),
            new ClickHouseEngine());

    private StoreEngines() {
    }

    /**
     * The store {@code db} names, on the first engine that takes the name.
     *
     * @throws IllegalArgumentException saying what is wrong with {@code db} (never its password)
     */
    static StoreAddress address(String db, String user, String password) {
        for (StoreEngine engine : ENGINES) {
            Optional<StoreAddress> address = engine.address(db, user, password);
            if (address.isPresent()) {
                return address.get();
            }
        }
        List<String> kinds = ENGINES.stream().map(StoreEngine::kind).toList();
        List<String> namings = ENGINES.stream().map(StoreEngine::naming).toList();
        throw new IllegalArgumentException("'" + Credentials.hidden(db) + "' is neither " + String.join(", ", kinds.subList(0, kinds.size() - 1))
                + " nor " + kinds.getLast() + "; write " + String.join(", or ", namings));
    }
}
