package dev.crawlerrors.store.duckdb;

import java.util.Arrays;
import java.util.List;

/**
 * Which hits of a page's times a sitemap lists, for {@code in_sitemap=}: the page's history rows in
 * time order ({@code url_times}, a few hundred) tested against the listed numbers kept in memory,
 * sorted, once per sitemaps' read ({@link DuckDbSitemaps#reads()}), instead of building the set of
 * every listed number (two a URL) for each page. URLs logged under a host in capitals are resolved
 * by name when the numbers are read, so one first logged after a read is matched from the next read.
 * A window of more rows than {@link #MOST_ROWS} is left to the join of {@link DuckDbSitemaps#listed(String)}.
 */
final class DuckDbListedHits {

    /** History rows of a page's times tested here at most. */
    static final int MOST_ROWS = 20_000;

    private final DuckDbQuery query;
    private final DuckDbSitemaps sitemaps;
    private long readsKept = -1;
    private long[] numbers;

    DuckDbListedHits(DuckDbQuery query, DuckDbSitemaps sitemaps) {
        this.query = query;
        this.sitemaps = sitemaps;
    }

    /**
     * The condition that a hit {@code h} is listed ({@code listed}) or not, for hits whose history
     * rows {@code rows} (a condition on {@code s} and a bounded {@code t}) takes; a list of hit
     * numbers appended to {@code params}. Null when the page's times hold too many rows.
     */
    String condition(boolean listed, String rows, List<Object> params) {
        long[] kept = numbers();
        long[] ids = query.run("SELECT i, k FROM url_times WHERE " + rows + " LIMIT " + (MOST_ROWS + 1), List.of(), rs -> {
            long[] found = new long[64];
            int n = 0;
            int seen = 0;
            while (rs.next()) {
                if (++seen > MOST_ROWS) {
                    return null;
                }
                if (Arrays.binarySearch(kept, rs.getLong(2)) >= 0) {
                    if (n == found.length) {
                        found = Arrays.copyOf(found, n * 2);
                    }
                    found[n++] = rs.getLong(1);
                }
            }
            return Arrays.copyOf(found, n);
        });
        if (ids == null) {
            return null;
        }
        if (ids.length == 0) {
            return listed ? "FALSE" : "TRUE";
        }
        params.add(new DuckDbQuery.Array("BIGINT", Arrays.stream(ids).boxed().toArray()));
        return (listed ? "" : "NOT ") + "h.id IN (SELECT unnest(?::BIGINT[]))";
    }

    /** The listed numbers, sorted, read again after each sitemaps' read. */
    private synchronized long[] numbers() {
        long reads = sitemaps.reads();
        if (reads != readsKept) {
            numbers = query.run("SELECT DISTINCT k FROM (" + DuckDbSitemaps.LISTED_NUMBERS + ") ORDER BY k", List.of(), rs -> {
                long[] read = new long[1024];
                int n = 0;
                while (rs.next()) {
                    if (n == read.length) {
                        read = Arrays.copyOf(read, n * 2);
                    }
                    read[n++] = rs.getLong(1);
                }
                return Arrays.copyOf(read, n);
            });
            readsKept = reads;
        }
        return numbers;
    }
}
