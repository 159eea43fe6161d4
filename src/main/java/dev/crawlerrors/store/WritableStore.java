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

    /** What Web Bot Auth verification keeps: directories' readings and signatures waiting for one. */
    SignatureStore signatures();

    /** The URLs the site's sitemaps list, which the filter {@code in_sitemap} matches hits against. */
    SitemapStore sitemaps();

    /** Where the store is and what it may take, in one line for people: {@code DuckDB store /srv/crawl-errors.duckdb (...)}. */
    String describe();

    @Override
    void close();

    /**
     * {@code store} with its hits going through {@code writer} instead (one that counts or taps them on
     * their way to {@code store}'s own), everything else {@code store}'s; closing it leaves {@code store} open.
     */
    static WritableStore writingThrough(WritableStore store, HitWriter writer) {
        return new WritableStore() {
            @Override
            public HitWriter writer() {
                return writer;
            }

            @Override
            public VerdictStore verdicts() {
                return store.verdicts();
            }

            @Override
            public StoreHealth health() {
                return store.health();
            }

            @Override
            public SignatureStore signatures() {
                return store.signatures();
            }

            @Override
            public SitemapStore sitemaps() {
                return store.sitemaps();
            }

            @Override
            public String describe() {
                return store.describe();
            }

            @Override
            public void close() {
                // the store is the caller's
            }
        };
    }
}
