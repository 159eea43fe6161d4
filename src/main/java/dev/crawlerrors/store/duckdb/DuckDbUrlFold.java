package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.store.UrlState;
import dev.crawlerrors.store.UrlStateBuilder;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Folds the hits stored since the last fold into the URLs' histories and states, on the writer's
 * thread, in one transaction: the new hits go to {@code url_log} as one run sorted by URL (so that a
 * URL's history is a read of a row group or two per run), and every URL they hit has its states
 * made again from its whole history, one for every crawler the default view shows and one for each
 * crawler; so do the URLs of claims whose verdict went to or from spoofed since. Made again from
 * the whole history, a URL's states do not depend on how its hits were split between folds: a fold
 * killed half-way leaves the last one's, and the next does its work.
 */
final class DuckDbUrlFold {

    /** The columns of a state row, as the fold appends them and the reads read them. */
    static final String STATE_COLUMNS = "ok, not_modified, redirects, client_errors, server_errors, error_hits, first_crawled,"
            + " last_crawled, last_status, first_error, first_error_status, last_error, last_error_status, fixed_since, flips";
    /** Runs of {@code url_log} beyond which a fold sorts it whole again: a URL's history reads a row group or two a run. */
    static final int MAX_RUNS = 8;
    private static final String FOLD_STATES = """
            CREATE OR REPLACE TEMPORARY TABLE fold_states (url_key BIGINT, scope VARCHAR, ok BIGINT,
              not_modified BIGINT, redirects BIGINT, client_errors BIGINT, server_errors BIGINT, error_hits BIGINT, first_crawled BIGINT,
              last_crawled BIGINT, last_status SMALLINT, first_error BIGINT, first_error_status SMALLINT, last_error BIGINT,
              last_error_status SMALLINT, fixed_since BIGINT, flips INTEGER, last_hit_id BIGINT)""";

    private final DuckDBConnection connection;
    private final DuckDbClaims claims;
    private final DuckDbClaimNames names;
    private final Set<BotType> hidden = BotType.hiddenByDefault();

    DuckDbUrlFold(DuckDBConnection connection, DuckDbClaims claims, DuckDbClaimNames names) {
        this.connection = connection;
        this.claims = claims;
        this.names = names;
    }

    /**
     * Folds the hits after {@code from} up to {@code to}, with the verdicts of {@code to}, and calls
     * {@code publish} to commit (so that readers see the states and the snapshot they are at together).
     */
    private static final boolean TIMING = Boolean.getBoolean("crawl-errors.fold.timing");
    private long mark = System.nanoTime();

    private void phase(String name) {
        if (TIMING) {
            long now = System.nanoTime();
            System.err.printf("fold %s: %.2f s%n", name, (now - mark) / 1e9);
            mark = now;
        }
    }

    void fold(Snapshot from, Snapshot to, Runnable publish) throws SQLException {
        mark = System.nanoTime();
        connection.setAutoCommit(false);
        try (Statement st = connection.createStatement()) {
            long runs = 0;
            try (ResultSet rs = st.executeQuery("SELECT coalesce((SELECT value::BIGINT FROM store_meta WHERE key = 'url_log_runs'), 0)")) {
                rs.next();
                runs = rs.getLong(1);
            }
            boolean first = runs == 0;
            // the new hits, as one run sorted by URL, and the URLs they hit with their names
            run(st, "INSERT INTO url_log SELECT " + DuckDbUrlStates.KEY + ", epoch_ms(h.ts), h.id, h.status, h.claim_id, h.bot_type"
                    + " FROM hits h WHERE h.id > ? AND h.id <= ? ORDER BY 1, 2, 3", from.hits(), to.hits());
            phase("log");
            run(st, "CREATE OR REPLACE TEMPORARY TABLE fold_keys AS SELECT " + DuckDbUrlStates.KEY + " AS k, any_value(coalesce(h.host, ''))"
                    + " AS host, any_value(h.url) AS url FROM hits h WHERE h.id > ? AND h.id <= ? GROUP BY 1", from.hits(), to.hits());
            phase("keys");
            int[] moved = moved(from.verdicts(), to.verdicts());
            if (moved.length > 0) {
                first = false;
                try (PreparedStatement urls = connection.prepareStatement("INSERT INTO fold_keys SELECT DISTINCT s.url_key, s.host, s.url"
                        + " FROM url_states s SEMI JOIN (SELECT k FROM url_log WHERE c IN (SELECT unnest(?::INTEGER[]))) l ON s.url_key = l.k"
                        + " ANTI JOIN fold_keys f ON s.url_key = f.k WHERE s.scope = ''")) {
                    urls.setArray(1, connection.createArrayOf("INTEGER", Arrays.stream(moved).boxed().toArray()));
                    urls.execute();
                }
            }
            st.execute(FOLD_STATES);
            // a first run is the whole log, in order already; else the URLs' hits of every run, merged
            makeStates(st, first ? "SELECT k, t, i, s, c, b FROM url_log"
                    : "SELECT l.k, l.t, l.i, l.s, l.c, l.b FROM url_log l SEMI JOIN fold_keys f ON l.k = f.k ORDER BY l.k, l.t, l.i",
                    to.verdicts());
            phase("states");
            st.execute("DELETE FROM url_states WHERE url_key IN (SELECT k FROM fold_keys)");
            phase("delete");
            // the default scope's rows together, then each crawler's
            st.execute("INSERT INTO url_states SELECT f.url_key, f.scope, n.host, n.url, " + prefixed(STATE_COLUMNS) + ", f.last_hit_id"
                    + " FROM fold_states f JOIN fold_keys n ON n.k = f.url_key WHERE f.scope = ''");
            st.execute("INSERT INTO url_states SELECT f.url_key, f.scope, n.host, n.url, " + prefixed(STATE_COLUMNS) + ", f.last_hit_id"
                    + " FROM fold_states f JOIN fold_keys n ON n.k = f.url_key WHERE f.scope <> ''");
            phase("insert");
            runs++;
            if (runs > MAX_RUNS) {
                st.execute("CREATE TABLE url_log_sorted AS SELECT * FROM url_log ORDER BY k, t, i");
                st.execute("DROP TABLE url_log");
                st.execute("ALTER TABLE url_log_sorted RENAME TO url_log");
                runs = 1;
            }
            st.execute("INSERT OR REPLACE INTO store_meta VALUES ('url_fold_hits', '" + to.hits() + "'), ('url_fold_verdicts', '"
                    + to.verdicts() + "'), ('url_log_runs', '" + runs + "')");
            publish.run();
            phase("commit");
            st.execute("DROP TABLE IF EXISTS fold_keys; DROP TABLE IF EXISTS fold_states");
        } catch (SQLException | RuntimeException e) {
            try {
                connection.rollback();
            } catch (SQLException again) {
                e.addSuppressed(again);
            }
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    private void run(Statement st, String sql, long from, long to) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setLong(1, from);
            ps.setLong(2, to);
            ps.execute();
        }
    }

    private static String prefixed(String columns) {
        return String.join(", ", Arrays.stream(columns.split(", ")).map(c -> "f." + c).toList());
    }

    /** The claims whose verdict went to or from spoofed between two verdict versions: their hits move in or out of the kept states. */
    int[] moved(long from, long to) {
        if (from == to) {
            return new int[0];
        }
        long low = Math.min(from, to);
        long high = Math.max(from, to);
        return Arrays.stream(claims.changedBetween(low, high)).filter(claim -> spoofed(claim, low) != spoofed(claim, high)).toArray();
    }

    private boolean spoofed(int claim, long version) {
        return claims.verdict(claim, version).verification() == Verification.spoofed;
    }

    /**
     * Reads the URLs' histories hit by hit ({@code sql}: each URL's together, in time order) and
     * appends each URL's states to {@code fold_states}: the default scope's always (empty when no hit
     * of it is one the default view shows), every bot type's, and one for each crawler.
     */
    private void makeStates(Statement st, String sql, long version) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql);
                DuckDBAppender out = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "fold_states")) {
            long key = 0;
            UrlStateBuilder every = null;
            UrlStateBuilder everyType = null;
            Map<String, UrlStateBuilder> crawlers = new LinkedHashMap<>();
            long lastId = 0;
            Map<Integer, Boolean> spoofed = new HashMap<>();
            while (rs.next()) {
                long rowKey = rs.getLong(1);
                if (every == null || rowKey != key) {
                    if (every != null) {
                        append(out, key, every, everyType, crawlers, lastId);
                    }
                    key = rowKey;
                    every = new UrlStateBuilder("", "");
                    everyType = new UrlStateBuilder("", "");
                    crawlers.clear();
                    lastId = 0;
                }
                long millis = rs.getLong(2);
                long id = rs.getLong(3);
                int status = rs.getInt(4);
                int claim = rs.getInt(5);
                lastId = Math.max(lastId, id);
                if (spoofed.computeIfAbsent(claim, c -> spoofed(c, version))) {
                    continue;
                }
                String crawler = names.crawler(claim);
                crawlers.computeIfAbsent(crawler == null ? "" : crawler, c -> new UrlStateBuilder("", "")).add(millis, status);
                everyType.add(millis, status);
                if (!hidden.contains(botType(rs.getString(6)))) {
                    every.add(millis, status);
                }
            }
            if (every != null) {
                append(out, key, every, everyType, crawlers, lastId);
            }
        }
    }

    static BotType botType(String name) {
        try {
            return BotType.valueOf(name);
        } catch (IllegalArgumentException e) {
            return BotType.crawler_other;
        }
    }

    private static void append(DuckDBAppender out, long key, UrlStateBuilder every, UrlStateBuilder everyType,
            Map<String, UrlStateBuilder> crawlers, long lastId) throws SQLException {
        row(out, key, UrlQuery.EVERY_CRAWLER, every.build(), lastId);
        if (!everyType.isEmpty()) {
            row(out, key, UrlQuery.EVERY_BOT_TYPE, everyType.build(), lastId);
        }
        for (Map.Entry<String, UrlStateBuilder> crawler : crawlers.entrySet()) {
            if (!crawler.getKey().isEmpty()) {
                row(out, key, crawler.getKey(), crawler.getValue().build(), lastId);
            }
        }
    }

    private static void row(DuckDBAppender out, long key, String scope, UrlState state, long lastId) throws SQLException {
        out.beginRow().append(key).append(scope);
        if (state == null) {
            for (int i = 0; i < 15; i++) {
                out.appendNull();
            }
        } else {
            out.append(state.ok()).append(state.notModified()).append(state.redirects()).append(state.clientErrors())
                    .append(state.serverErrors()).append(state.errorHits()).append(state.firstCrawled()).append(state.lastCrawled())
                    .append((short) state.lastStatus());
            time(out, state.firstError());
            status(out, state.firstError(), state.firstErrorStatus());
            time(out, state.lastError());
            status(out, state.lastError(), state.lastErrorStatus());
            time(out, state.fixedSince());
            out.append(state.flips());
        }
        out.append(lastId).endRow();
    }

    private static void time(DuckDBAppender out, long millis) throws SQLException {
        if (millis == UrlState.NONE) {
            out.appendNull();
        } else {
            out.append(millis);
        }
    }

    private static void status(DuckDBAppender out, long when, int status) throws SQLException {
        if (when == UrlState.NONE) {
            out.appendNull();
        } else {
            out.append((short) status);
        }
    }
}
