package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.store.StoreLimits;

/**
 * How much of the servers one query may take, sent with every query as ClickHouse settings in its
 * URL: {@code max_memory_usage} (a query that needs more fails instead of growing the server) and
 * {@code max_threads} (the cores a query may use on each server). A query also ends after
 * {@link #QUERY_SECONDS}, since ClickHouse 18.16 goes on with a query whose client has gone.
 *
 * @param threads     {@code max_threads}; 0 leaves the server's own
 * @param memoryBytes {@code max_memory_usage}, bytes
 * @param readers     reads that may run at once from this process (the report server bounds them)
 */
public record ClickHouseSettings(int threads, long memoryBytes, int readers) {

    /** The longest a report query may run: a page is milliseconds; counting a view of billions is seconds. */
    static final int QUERY_SECONDS = 120;

    public static final ClickHouseSettings SERVE = new ClickHouseSettings(4, 1L << 30, 4);
    public static final ClickHouseSettings IMPORT = new ClickHouseSettings(0, 1L << 30, 2);

    public ClickHouseSettings {
        if (threads < 0) {
            throw new IllegalArgumentException("ClickHouse's threads must be 0 (the server's setting) or more; got " + threads);
        }
        if (memoryBytes < 1 << 20) {
            throw new IllegalArgumentException("a query needs at least 1MiB; got " + memoryBytes + " bytes");
        }
        if (readers < 1) {
            throw new IllegalArgumentException("at least one reader is needed; got " + readers);
        }
    }

    /** These settings, with what {@code limits} ask in place of theirs. */
    public ClickHouseSettings with(StoreLimits limits) {
        long memory = limits.memory() == null ? memoryBytes : StoreLimits.bytes(limits.memory());
        if (memory < 1 << 20) {
            throw new StoreLimits.Refused(StoreLimits.Limit.MEMORY, "a query needs at least 1MiB; got " + memory + " bytes");
        }
        return new ClickHouseSettings(limits.threads() == null ? threads : limits.threads(), memory,
                limits.readers() == null ? readers : limits.readers());
    }

    /** The settings as URL parameters, each starting with {@code &}. */
    String urlParameters() {
        return "&max_memory_usage=" + memoryBytes + (threads > 0 ? "&max_threads=" + threads : "");
    }
}
