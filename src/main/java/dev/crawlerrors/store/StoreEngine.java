package dev.crawlerrors.store;

import java.util.Optional;

/**
 * An engine a store can live on (DuckDB, ClickHouse): it reads the stores {@code --db} names on it
 * and hands out each as a {@link StoreAddress}, which opens, checks and describes it. The commands
 * ask the engines in turn (the command line's list, one line an engine) and never which engine
 * they were given: adding one is a room beside {@code store.duckdb} and that line.
 */
public interface StoreEngine {

    /**
     * The store {@code db} (the value of {@code --db}) names on this engine, or empty when the name
     * is none of this engine's (a URL of another scheme).
     *
     * @param user     who logs in to an engine on a server ({@code --db-user}); null for its default
     * @param password the user's password ({@code $CRAWL_ERRORS_DB_PASSWORD}); null for none
     * @throws IllegalArgumentException when {@code db} is this engine's but cannot name a store,
     *                                  saying what is wrong and what it should look like
     */
    Optional<StoreAddress> address(String db, String user, String password);

    /** What a store of this engine is, for a name no engine takes: {@code a DuckDB file}. */
    String kind();

    /** How {@code --db} names one, for a name no engine takes: {@code clickhouse://HOST:PORT/DATABASE}. */
    String naming();
}
