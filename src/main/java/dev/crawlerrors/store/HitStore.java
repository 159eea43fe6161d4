package dev.crawlerrors.store;

/**
 * A store engine: what every engine provides, one small contract per concern (writing hits,
 * reading them for the report, keeping verdicts, saying whether it is sound). Writes come from one
 * thread; reads from any.
 */
public interface HitStore extends HitWriter, HitReader, VerdictStore, StoreHealth, AutoCloseable {

    /** Where the store is and what it may take, in one line for people: {@code DuckDB store /srv/crawl-errors.duckdb (...)}. */
    default String describe() {
        return getClass().getSimpleName();
    }

    /** The state of every URL the store's crawlers fetched. */
    default UrlStates urlStates() {
        throw new UnsupportedOperationException(describe() + " keeps no URL states");
    }

    @Override
    void close();
}
