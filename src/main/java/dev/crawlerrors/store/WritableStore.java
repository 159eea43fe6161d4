package dev.crawlerrors.store;

/**
 * A store as what writes to it sees it: where hits go with how far their log was read, the
 * verdicts, and whether it answers. An import has no more, whether it opened the store itself or
 * writes through the {@code serve} that has it open ({@code store.remote}); {@link HitStore} adds
 * the report's reader. Each concern is a view a class takes on its own, rather than the store whole.
 */
public interface WritableStore extends AutoCloseable {

    /** Where crawler hits go in, with how far their log has been read. */
    HitWriter writer();

    /** The verdict of each address and crawler claimed. */
    VerdictStore verdicts();

    /** Whether the store answers, and how many hits it holds. */
    StoreHealth health();

    /** Where the store is and what it may take, in one line for people: {@code DuckDB store /srv/crawl-errors.duckdb (...)}. */
    String describe();

    @Override
    void close();
}
