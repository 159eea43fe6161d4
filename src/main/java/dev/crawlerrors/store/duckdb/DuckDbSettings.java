package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.StoreLimits;

/**
 * How much of the machine a store may take: DuckDB's worker threads and memory, and how many reads
 * may hold a connection at once. DuckDB's own defaults are a thread per core and 80% of the
 * machine's memory, each query free to take it, so many readers of a large store grow a server
 * without bound. Every store opened here has a bound.
 *
 * @param threads     DuckDB's worker threads; 0 for one per core
 * @param memoryLimit DuckDB's memory limit, as DuckDB reads it ({@code 512MB}, {@code 2GB})
 * @param readers     connections reads may hold at once
 * @param giveBack    whether the memory DuckDB frees goes back to the system a second after, even once
 *                    the store is idle: DuckDB's allocator keeps the pages it freed until its next
 *                    allocations, so a server whose start-up counts freed some hundreds of MB kept
 *                    them resident for as long as nobody asked (see {@link DuckDbHitStore})
 * @param sitemapMemory DuckDB's memory limit while a sitemap's read is written, when lower than
 *                    {@code memoryLimit}; null to leave the limit as it is. DuckDB keeps the buffers
 *                    it used up to its limit, and a read of a million URLs (the deletion of the last
 *                    copy, the inserts, the commit's checkpoint) filled them past what the import
 *                    before it had: some 35 MiB of an import's peak memory. An import's is 24MB: beside
 *                    the 10,000,000-hit month, a read of a million URLs peaked 3-4 MiB lower than at
 *                    48MB at the same CPU (medians of eight alternating rounds), and a read of two
 *                    million fits it. Only for a store nothing
 *                    else reads meanwhile (an import's, whose logs are written by then): the limit is
 *                    the whole database's, and a report's query under it would spill or fail
 * @param appendMemory DuckDB's memory limit while hits are appended and a store's first URL fold makes
 *                    its states, when lower than {@code memoryLimit}; null to keep {@code memoryLimit}
 *                    throughout. A fold that merges new hits into kept states takes {@code memoryLimit}
 *                    (its joins with the states of a 10,000,000-hit store did not fit 64MB). DuckDB keeps
 *                    the blocks an import wrote and its transaction's row groups up to its limit: at 192MB
 *                    an import of 5,000,000 lines peaked at 262-286 MiB, at 64MB at 245-250 MiB. Only for a
 *                    store nothing else reads meanwhile (an import's), as {@code sitemapMemory}
 */
public record DuckDbSettings(int threads, String memoryLimit, int readers, boolean giveBack, String sitemapMemory,
        String appendMemory) {

    /**
     * What a command that only writes (an import) needs: its parsers use the cores, DuckDB one of
     * them, and less memory than a server's reads: DuckDB keeps the buffers it used until its
     * limit, and an import's peak memory followed that limit up, not what its writes need.
     */
    public static final DuckDbSettings IMPORT = new DuckDbSettings(1, "192MB", 2, false, "24MB", "64MB");

    /**
     * A small server's share: a report query at a time per core, a quarter GiB for DuckDB, and what
     * DuckDB frees given back while the server idles.
     */
    public static final DuckDbSettings SERVE = new DuckDbSettings(0, "256MB", 4, true, null);

    /** Settings that keep what DuckDB frees until it allocates again (its default). */
    public DuckDbSettings(int threads, String memoryLimit, int readers) {
        this(threads, memoryLimit, readers, false);
    }

    /** Settings that leave the memory limit as it is while a sitemap's read is written. */
    public DuckDbSettings(int threads, String memoryLimit, int readers, boolean giveBack) {
        this(threads, memoryLimit, readers, giveBack, null);
    }

    /** Settings that keep the memory limit while hits are appended. */
    public DuckDbSettings(int threads, String memoryLimit, int readers, boolean giveBack, String sitemapMemory) {
        this(threads, memoryLimit, readers, giveBack, sitemapMemory, null);
    }

    public DuckDbSettings {
        if (threads < 0) {
            throw new IllegalArgumentException("DuckDB's threads must be 0 (one per core) or more; got " + threads);
        }
        if (readers < 1) {
            throw new IllegalArgumentException("at least one reader is needed; got " + readers);
        }
        StoreLimits.bytes(memoryLimit); // a number and a unit, which DuckDB reads as they are
        if (sitemapMemory != null) {
            StoreLimits.bytes(sitemapMemory);
        }
        if (appendMemory != null) {
            StoreLimits.bytes(appendMemory);
        }
    }

    /** The limit the store keeps between its folds: {@code appendMemory} when lower than {@code memoryLimit}. */
    public String appendLimit() {
        return appendMemory != null && StoreLimits.bytes(appendMemory) < StoreLimits.bytes(memoryLimit) ? appendMemory : memoryLimit;
    }

    /** These settings, with what {@code limits} ask in place of theirs. */
    public DuckDbSettings with(StoreLimits limits) {
        return new DuckDbSettings(limits.threads() == null ? threads : limits.threads(),
                limits.memory() == null ? memoryLimit : limits.memory(), limits.readers() == null ? readers : limits.readers(), giveBack, sitemapMemory, appendMemory);
    }
}
