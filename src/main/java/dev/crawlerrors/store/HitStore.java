package dev.crawlerrors.store;

/**
 * A store engine: what every engine provides, one small contract per concern (writing hits,
 * reading them for the report, keeping verdicts, saying whether it is sound, and what signature
 * verification keeps, handed out as {@link #signatures()}). Writes come from one
 * thread; reads from any.
 */
public interface HitStore extends HitWriter, HitReader, VerdictStore, StoreHealth, AutoCloseable {

    /** What Web Bot Auth verification keeps: directories' readings and signatures waiting for one. */
    SignatureStore signatures();

    /** Where the store is and what it may take, in one line for people: {@code DuckDB store /srv/crawl-errors.duckdb (...)}. */
    default String describe() {
        return getClass().getSimpleName();
    }

    @Override
    void close();
}
