package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.store.UrlQuery;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Collectors;
import org.duckdb.DuckDBConnection;

/**
 * Adds a fold's new hits to the URLs' kept states in DuckDB's own aggregates, a slice of URL numbers
 * at a time: a URL's new state in each scope is its old state and its new hits in time order (the
 * counts added, the first error kept, the last hit's status, the flips and the fix carried through
 * the state's {@code carry}, as {@link dev.crawlerrors.store.UrlStateBuilder} does hit by hit).
 * Valid only for URLs whose new hits all come after their kept ones and whose verdicts did not move:
 * {@link DuckDbUrlFold} makes the others from their histories ({@code fold_keys}). The hits' claims
 * are read from {@code fold_claims} (claim, crawler, spoofed at the fold's verdicts).
 */
final class DuckDbUrlStateMerge {

    private static final String COLUMNS = String.join(", ", DuckDbUrlStateRows.COLUMNS);
    /** 2 broken, 0 redirected, 1 ok: {@link dev.crawlerrors.store.UrlState.State#of(int)}. */
    static final String CLASS = "CASE WHEN s >= 400 THEN 2 WHEN s >= 300 AND s <> 304 THEN 0 ELSE 1 END";

    private final DuckDBConnection connection;
    private final String made;

    DuckDbUrlStateMerge(DuckDBConnection connection) {
        this.connection = connection;
        String hidden = BotType.hiddenByDefault().stream().map(type -> String.valueOf(type.ordinal())).collect(Collectors.joining(", "));
        this.made = made(hidden.isEmpty() ? "TRUE" : "b NOT IN (" + hidden + ")");
    }

    /**
     * Merges the hits numbered after {@code from} up to {@code to} of the URLs numbered from
     * {@code low} to {@code high} (exclusive) but those in {@code fold_keys} into their states.
     */
    void merge(long low, long high, long from, long to) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(made)) {
            ps.setLong(1, low);
            ps.setLong(2, high);
            ps.setLong(3, from);
            ps.setLong(4, to);
            ps.setLong(5, low);
            ps.setLong(6, high);
            ps.setLong(7, low);
            ps.setLong(8, high);
            ps.execute();
        }
        try (Statement st = connection.createStatement()) {
            st.execute("DELETE FROM url_states WHERE k IN (SELECT k FROM fold_made WHERE scope = '')");
            st.execute("DELETE FROM url_scopes USING fold_made m WHERE url_scopes.k = m.k AND url_scopes.scope = m.scope"
                    + " AND m.scope <> ''");
            st.execute("INSERT INTO url_states (k, " + COLUMNS + ", last_hit_id, carry) SELECT k, " + COLUMNS
                    + ", last_hit_id, carry FROM fold_made WHERE scope = ''");
            st.execute("INSERT INTO url_scopes (scope, k, " + COLUMNS + ", carry) SELECT scope, k, " + COLUMNS
                    + ", carry FROM fold_made WHERE scope <> ''");
            st.execute("DROP TABLE fold_made");
        }
    }

    /** The statement that makes {@code fold_made}: every merged state of the slice, the default view's scoped ''. */
    private static String made(String shown) {
        String every = "'" + UrlQuery.EVERY_BOT_TYPE.replace("'", "''") + "'";
        return """
                CREATE OR REPLACE TEMPORARY TABLE fold_made AS
                WITH hits AS MATERIALIZED (
                  SELECT l.k, l.t, l.i, l.s, l.b, c.crawler, c.spoofed
                  FROM url_log l JOIN fold_claims c ON c.c = coalesce(l.c, 0)
                  WHERE l.k >= ? AND l.k < ? AND l.i > ? AND l.i <= ? AND l.k NOT IN (SELECT k FROM fold_keys)
                ),
                last_ids AS MATERIALIZED (SELECT k, max(i) AS last_id FROM hits GROUP BY k),
                scoped AS (
                  SELECT '' AS scope, k, t, i, s FROM hits WHERE NOT spoofed AND {shown}
                  UNION ALL SELECT {every}, k, t, i, s FROM hits WHERE NOT spoofed
                  UNION ALL SELECT crawler, k, t, i, s FROM hits WHERE NOT spoofed AND crawler IS NOT NULL
                ),
                old AS MATERIALIZED (
                  SELECT '' AS scope, k, {columns}, carry FROM url_states WHERE k >= ? AND k < ? AND k IN (SELECT k FROM last_ids)
                  UNION ALL
                  SELECT scope, k, {columns}, carry FROM url_scopes WHERE k >= ? AND k < ? AND k IN (SELECT k FROM last_ids)
                ),
                ordered AS (
                  SELECT n.scope, n.k, n.t, n.s, n.cls,
                    row_number() OVER w AS rn,
                    lag(CASE WHEN n.cls = 0 THEN NULL ELSE n.cls END, 1, nullif(coalesce(o.carry, 0) % 4, 0) IGNORE NULLS) OVER w AS prev
                  FROM (SELECT scope, k, t, i, s, {class} AS cls FROM scoped) n LEFT JOIN old o ON o.scope = n.scope AND o.k = n.k
                  WINDOW w AS (PARTITION BY n.scope, n.k ORDER BY n.t, n.i)
                ),
                marked AS (
                  SELECT *, coalesce(max(CASE WHEN cls = 2 THEN rn END) OVER (PARTITION BY scope, k), 0) AS e FROM ordered
                ),
                batch AS MATERIALIZED (
                  SELECT scope, k,
                    count(*) FILTER (WHERE cls = 1 AND s <> 304) AS ok, count(*) FILTER (WHERE s = 304) AS not_modified,
                    count(*) FILTER (WHERE cls = 0) AS redirects, count(*) FILTER (WHERE s >= 400 AND s < 500) AS client_errors,
                    count(*) FILTER (WHERE s >= 500) AS server_errors,
                    min(t) AS first_crawled, max(t) AS last_crawled, arg_max(s, rn) AS last_status,
                    min(t) FILTER (WHERE cls = 2) AS first_error, arg_min(s, rn) FILTER (WHERE cls = 2) AS first_error_status,
                    max(t) FILTER (WHERE cls = 2) AS last_error, arg_max(s, rn) FILTER (WHERE cls = 2) AS last_error_status,
                    count(*) FILTER (WHERE cls <> 0 AND prev IS NOT NULL AND prev <> cls) AS flips,
                    arg_max(cls, rn) FILTER (WHERE cls <> 0) AS last_class,
                    max(e) > 0 AS had_error,
                    min(rn) FILTER (WHERE cls = 1 AND rn > e) AS ok_rn, min(t) FILTER (WHERE cls = 1 AND rn > e) AS ok_t,
                    max(rn) FILTER (WHERE cls = 0 AND rn > e) AS redirect_rn
                  FROM marked GROUP BY scope, k
                ),
                fix AS (
                  SELECT n.*, o.k IS NOT NULL AS was, o.ok AS o_ok, o.not_modified AS o_not_modified, o.redirects AS o_redirects,
                    o.client_errors AS o_client_errors, o.server_errors AS o_server_errors, o.first_crawled AS o_first_crawled,
                    o.first_error AS o_first_error, o.first_error_status AS o_first_error_status, o.last_error AS o_last_error,
                    o.last_error_status AS o_last_error_status, o.flips AS o_flips, coalesce(o.carry, 0) AS o_carry,
                    CASE
                      WHEN n.had_error OR (o.first_error IS NOT NULL AND o.fixed_since IS NULL AND coalesce(o.carry, 0) < 4)
                        THEN n.ok_t
                      WHEN o.fixed_since IS NOT NULL THEN o.fixed_since
                      WHEN coalesce(o.carry, 0) >= 4 THEN 0
                    END AS ok_after,
                    CASE
                      WHEN n.had_error OR (o.first_error IS NOT NULL AND o.fixed_since IS NULL AND coalesce(o.carry, 0) < 4)
                        THEN coalesce(n.redirect_rn > n.ok_rn, false)
                      WHEN o.fixed_since IS NOT NULL THEN n.redirects > 0
                      ELSE true
                    END AS not_ok_since
                  FROM batch n LEFT JOIN old o ON o.scope = n.scope AND o.k = n.k
                )
                SELECT f.scope, f.k,
                  coalesce(o_ok, 0) + ok AS ok, coalesce(o_not_modified, 0) + not_modified AS not_modified,
                  coalesce(o_redirects, 0) + redirects AS redirects, coalesce(o_client_errors, 0) + client_errors AS client_errors,
                  coalesce(o_server_errors, 0) + server_errors AS server_errors,
                  coalesce(o_client_errors, 0) + client_errors + coalesce(o_server_errors, 0) + server_errors AS error_hits,
                  coalesce(o_first_crawled, first_crawled) AS first_crawled, last_crawled, last_status,
                  coalesce(o_first_error, first_error) AS first_error,
                  CASE WHEN o_first_error IS NOT NULL THEN o_first_error_status ELSE first_error_status END AS first_error_status,
                  coalesce(last_error, o_last_error) AS last_error,
                  CASE WHEN last_error IS NOT NULL THEN last_error_status ELSE o_last_error_status END AS last_error_status,
                  CASE WHEN ok_after IS NOT NULL AND NOT not_ok_since THEN ok_after END AS fixed_since,
                  (coalesce(o_flips, 0) + flips)::INTEGER AS flips,
                  li.last_id AS last_hit_id,
                  (coalesce(last_class, o_carry % 4) + CASE WHEN ok_after IS NOT NULL AND not_ok_since THEN 4 ELSE 0 END)::SMALLINT AS carry
                FROM fix f LEFT JOIN last_ids li ON f.scope = '' AND li.k = f.k
                """
                .replace("{shown}", shown).replace("{every}", every).replace("{columns}", COLUMNS).replace("{class}", CLASS)
                + """
                UNION ALL BY NAME
                SELECT '' AS scope, li.k, {old_columns}, li.last_id AS last_hit_id, coalesce(o.carry, 0)::SMALLINT AS carry
                FROM last_ids li LEFT JOIN old o ON o.scope = '' AND o.k = li.k
                WHERE li.k NOT IN (SELECT k FROM batch WHERE scope = '')
                """.replace("{old_columns}", prefixed("o"));
    }

    private static String prefixed(String alias) {
        return java.util.Arrays.stream(DuckDbUrlStateRows.COLUMNS).map(c -> alias + "." + c).collect(Collectors.joining(", "));
    }
}
