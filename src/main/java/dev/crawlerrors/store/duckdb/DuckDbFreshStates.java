package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.store.UrlQuery;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Collectors;
import org.duckdb.DuckDBConnection;

/**
 * Makes the states of every URL of a store's first fold (its {@code url_log} one run, no state
 * kept yet) in DuckDB's own statements, a slice of URL numbers at a time: each hit numbered in its
 * URL's time order, with the class of the last ok or broken hit before it in the URL's history
 * and in its crawler's, then one aggregate a scope (the default view's, every bot type's, each
 * crawler's), as {@link dev.crawlerrors.store.UrlStateBuilder} folds them hit by hit. An import's
 * close spent most of its fold reading the histories into Java and appending the states back, in
 * code the JIT compiled for that one use. The hits' claims are read from {@code fold_claims}
 * (claim, crawler, spoofed at the fold's verdicts, the crawler's number {@code n}).
 */
final class DuckDbFreshStates {

    private static final String COLUMNS = String.join(", ", DuckDbUrlStateRows.COLUMNS);
    private static final String EVERY = "'" + UrlQuery.EVERY_BOT_TYPE.replace("'", "''") + "'";

    private final DuckDBConnection connection;
    private final String hidden;

    DuckDbFreshStates(DuckDBConnection connection) {
        this.connection = connection;
        this.hidden = BotType.hiddenByDefault().stream().map(type -> String.valueOf(type.ordinal())).collect(Collectors.joining(", "));
    }

    /** Whether any hit of {@code url_log} is of a bot type the default view hides: then its states differ from every bot type's. */
    boolean anyHidden() throws SQLException {
        if (hidden.isEmpty()) {
            return false;
        }
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) > 0 FROM url_log WHERE b IN (" + hidden + ")")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    /**
     * Writes the states of the URLs numbered from {@code low} to {@code high} (exclusive); {@code hiddenHits} as {@link #anyHidden()}
     * said; {@code firstRow}, when not negative: {@code url_log} is the one run this fold inserted into it empty, ordered by URL,
     * time and hit, and this is its first row's id, so that its row ids follow each URL's hits in order and stand for the hits'
     * places (no sort of the hits by time again; counted from the first, they stay small enough to be shifted left 16 bits).
     */
    void make(long low, long high, boolean hiddenHits, long firstRow) throws SQLException {
        String shown = hidden.isEmpty() ? "TRUE" : "l.b NOT IN (" + hidden + ")";
        // the previous ok or broken hit: a lag within the URL's (and its crawler's) hits that are not redirects
        String prevShown = hiddenHits ? "CASE WHEN cls <> 0 AND shown THEN lag(cls) OVER (PARTITION BY k, cls <> 0 AND shown ORDER BY rn) END"
                : "prev_k";
        run("CREATE OR REPLACE TEMPORARY TABLE fold_hits AS SELECT *, " + prevShown + " AS prev_s FROM (SELECT k, t, s, n, cls, rn, shown,"
                + " CASE WHEN cls <> 0 THEN lag(cls) OVER (PARTITION BY k, cls <> 0 ORDER BY rn) END AS prev_k,"
                + " CASE WHEN cls <> 0 THEN lag(cls) OVER (PARTITION BY k, n, cls <> 0 ORDER BY rn) END AS prev_n"
                + " FROM (SELECT l.k, l.t, l.s, c.n, " + shown + " AS shown, " + DuckDbUrlStateMerge.CLASS + " AS cls,"
                + (firstRow >= 0 ? " l.rowid - " + firstRow + " + 1 AS rn" : " row_number() OVER (PARTITION BY l.k ORDER BY l.t, l.i) AS rn")
                + " FROM url_log l JOIN fold_claims c ON c.c = coalesce(l.c, 0) WHERE NOT c.spoofed AND l.k >= ? AND l.k < ?))", low, high);
        // every URL has a row in the default view's states, which keeps its last hit (spoofed ones too)
        run("INSERT INTO url_states (k, " + COLUMNS + ", last_hit_id, carry) SELECT li.k, " + prefixed("g") + ", li.last_id,"
                + " coalesce(g.carry, 0) FROM (SELECT k, max(i) AS last_id FROM url_log WHERE k >= ? AND k < ? GROUP BY k) li"
                + " LEFT JOIN (" + states("k", "shown", "prev_s") + ") g ON g.k = li.k ORDER BY li.k", low, high);
        // every bot type's rows and each crawler's in one statement, in the URLs' order with every bot type's
        // first, as the rows of a fold made in Java were: a URL's scopes side by side, often equal, compress
        // together (two statements, one scope after the other, made a 50,000-URL store's url_scopes 10 blocks
        // where it was 8). The crawlers' numbers in fold_claims follow their names, so the rows are ordered by
        // numbers rather than names, which took about a tenth of the statement's time.
        String everyType = hiddenHits
                ? "SELECT " + EVERY + " AS scope, 0 AS n, k, " + COLUMNS + ", carry FROM (" + states("k", "TRUE", "prev_k") + ")"
                : "SELECT " + EVERY + " AS scope, 0 AS n, k, " + COLUMNS + ", carry FROM url_states WHERE k >= ? AND k < ?"
                        + " AND last_status IS NOT NULL";
        String eachCrawler = "SELECT c.crawler AS scope, g.n, g.k, " + prefixed("g") + ", g.carry FROM ("
                + states("k, n", "n IS NOT NULL", "prev_n") + ") g JOIN (SELECT DISTINCT n, crawler FROM fold_claims WHERE n IS NOT NULL) c"
                + " ON c.n = g.n";
        String scopes = "INSERT INTO url_scopes (scope, k, " + COLUMNS + ", carry) SELECT scope, k, " + COLUMNS + ", carry FROM ("
                + everyType + " UNION ALL " + eachCrawler + ") ORDER BY k, n";
        if (hiddenHits) {
            run(scopes);
        } else {
            run(scopes, low, high);
        }
        run("DROP TABLE fold_hits");
    }

    /**
     * The states of {@code fold_hits}' rows that {@code rows} takes, grouped by {@code keys}, with
     * {@code prev} the class of the previous ok or broken hit of the scope: the state columns and
     * {@code carry}. The fix is the first ok hit right after the last error (its previous ok or
     * broken hit an error), when no redirect came after it. The status (or class) of the scope's
     * last (first) hit of a kind is read from the low 16 (2) bits of the largest (smallest) of
     * {@code rn} shifted left plus the value, not from an arg_max: a plain max took a quarter less
     * CPU over groups of two or three hits (the crawler scopes'). A time needs neither: {@code rn}
     * follows the time, so the last hit's is the largest.
     */
    private static String states(String keys, String rows, String prev) {
        return """
                SELECT {keys}, ok, not_modified, redirects, client_errors, server_errors, client_errors + server_errors AS error_hits,
                  first_crawled, last_crawled, last_status, first_error, first_error_status, last_error, last_error_status,
                  CASE WHEN ok_rn > e AND NOT coalesce(redirect_rn > ok_rn, false) THEN ok_t END AS fixed_since, flips::INTEGER AS flips,
                  (coalesce(last_class, 0) + CASE WHEN ok_rn > e AND coalesce(redirect_rn > ok_rn, false) THEN 4 ELSE 0 END)::SMALLINT AS carry
                FROM (
                  SELECT {keys},
                    count(*) FILTER (WHERE cls = 1 AND s <> 304) AS ok, count(*) FILTER (WHERE s = 304) AS not_modified,
                    count(*) FILTER (WHERE cls = 0) AS redirects, count(*) FILTER (WHERE s >= 400 AND s < 500) AS client_errors,
                    count(*) FILTER (WHERE s >= 500) AS server_errors,
                    min(t) AS first_crawled, max(t) AS last_crawled, (max(rn * 65536 + s + 32768) % 65536 - 32768)::SMALLINT AS last_status,
                    min(t) FILTER (WHERE cls = 2) AS first_error,
                    (min(rn * 65536 + s + 32768) FILTER (WHERE cls = 2) % 65536 - 32768)::SMALLINT AS first_error_status,
                    max(t) FILTER (WHERE cls = 2) AS last_error,
                    (max(rn * 65536 + s + 32768) FILTER (WHERE cls = 2) % 65536 - 32768)::SMALLINT AS last_error_status,
                    count(*) FILTER (WHERE cls <> 0 AND {prev} IS NOT NULL AND {prev} <> cls) AS flips,
                    max(rn * 4 + cls) FILTER (WHERE cls <> 0) % 4 AS last_class,
                    max(rn) FILTER (WHERE cls = 2) AS e, max(rn) FILTER (WHERE cls = 1 AND {prev} = 2) AS ok_rn,
                    max(t) FILTER (WHERE cls = 1 AND {prev} = 2) AS ok_t, max(rn) FILTER (WHERE cls = 0) AS redirect_rn
                  FROM fold_hits WHERE {rows} GROUP BY {keys})
                """.replace("{keys}", keys).replace("{rows}", rows).replace("{prev}", prev);
    }

    private void run(String sql, long... params) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setLong(i + 1, params[i]);
            }
            ps.execute();
        }
    }

    private static String prefixed(String alias) {
        return java.util.Arrays.stream(DuckDbUrlStateRows.COLUMNS).map(c -> alias + "." + c).collect(Collectors.joining(", "));
    }
}
