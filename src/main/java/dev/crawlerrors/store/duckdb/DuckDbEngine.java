package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.StoreAddress;
import dev.crawlerrors.store.StoreEngine;
import java.nio.file.Path;
import java.util.Optional;

/** The embedded engine: {@code --db} names a DuckDB file, whatever the name (asked last, it takes what no other engine does). */
public final class DuckDbEngine implements StoreEngine {

    @Override
    public Optional<StoreAddress> address(String db, String user, String password) {
        return Optional.of(new DuckDbAddress(Path.of(db).toAbsolutePath().normalize()));
    }
}
