package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.StoreAddress;
import dev.crawlerrors.store.StoreEngine;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The embedded engine: {@code --db} names a DuckDB file, unless it is a URL ({@code scheme://...}),
 * which would otherwise be taken for a file's name and made.
 */
public final class DuckDbEngine implements StoreEngine {

    private static final Pattern URL = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://");

    @Override
    public Optional<StoreAddress> address(String db, String user, String password) {
        if (URL.matcher(db).lookingAt()) {
            return Optional.empty();
        }
        return Optional.of(new DuckDbAddress(Path.of(db).toAbsolutePath().normalize()));
    }

    @Override
    public String kind() {
        return "a DuckDB file";
    }

    @Override
    public String naming() {
        return "a file's path";
    }
}
