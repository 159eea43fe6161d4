package dev.crawlerrors.store.duckdb;

import java.util.Arrays;
import java.util.List;

/**
 * Which hits of a page's times a sitemap lists, for {@code in_sitemap=}: the page's history rows in
 * time order ({@code url_times}, a few hundred) tested against the listed numbers kept in memory,
 * ({@link DuckDbSitemaps#listing()}), instead of building the set of every listed number (two
 * a URL) for each page.
 * A window of more rows than {@link #MOST_ROWS} is left to the join of {@link DuckDbSitemaps#listed(String)}.
 */
final class DuckDbListedHits {

    /** History rows of a page's times tested here at most. */
    static final int MOST_ROWS = 20_000;

    private final DuckDbQuery query;
    private final DuckDbSitemaps sitemaps;

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
        DuckDbListedNumbers kept = sitemaps.listing();
        long[] ids = query.run("SELECT i, k FROM url_times WHERE " + rows + " LIMIT " + (MOST_ROWS + 1), List.of(), rs -> {
            long[] found = new long[64];
            int n = 0;
            int seen = 0;
            while (rs.next()) {
                if (++seen > MOST_ROWS) {
                    return null;
                }
                if (kept.contains(rs.getLong(2))) {
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
}
