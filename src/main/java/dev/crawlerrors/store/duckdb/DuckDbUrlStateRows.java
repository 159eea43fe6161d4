package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.UrlState;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * The states a fold made for a slice of URLs, written through DuckDB's Appender: its numbers go
 * into column buffers in Java and reach DuckDB a chunk at a time, where a table function's vectors
 * take a lock for every value they are given (a fold's states are a dozen numbers each).
 */
final class DuckDbUrlStateRows {

    /** The state columns, in the order of {@code url_states} and {@code url_scopes} after their keys. */
    static final String[] COLUMNS = {"ok", "not_modified", "redirects", "client_errors", "server_errors", "error_hits", "first_crawled",
        "last_crawled", "last_status", "first_error", "first_error_status", "last_error", "last_error_status", "fixed_since", "flips"};

    private final List<String> scopes = new ArrayList<>();
    private final List<UrlState> states = new ArrayList<>();
    private long[] keys = new long[1024];
    private long[] lastIds = new long[1024];
    private short[] carries = new short[1024];

    boolean isEmpty() {
        return states.isEmpty();
    }

    void clear() {
        scopes.clear();
        states.clear();
    }

    /**
     * A URL's state (null: none) in a scope (null for the default view's, whose rows keep the URL's
     * last hit), with its {@link dev.crawlerrors.store.UrlStateBuilder#carry() carry}.
     */
    void add(String scope, long key, UrlState state, int carry, long lastId) {
        int n = states.size();
        if (n == keys.length) {
            keys = java.util.Arrays.copyOf(keys, n * 2);
            lastIds = java.util.Arrays.copyOf(lastIds, n * 2);
            carries = java.util.Arrays.copyOf(carries, n * 2);
        }
        scopes.add(scope);
        states.add(state);
        keys[n] = key;
        lastIds[n] = lastId;
        carries[n] = (short) carry;
    }

    /** Appends the default view's states to {@code url_states} and the others to {@code url_scopes}. */
    void write(DuckDBConnection connection) throws SQLException {
        try (DuckDBAppender every = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "url_states");
                DuckDBAppender scoped = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "url_scopes")) {
            for (int i = 0; i < states.size(); i++) {
                String scope = scopes.get(i);
                DuckDBAppender out = scope == null ? every : scoped;
                out.beginRow();
                if (scope != null) {
                    out.append(scope);
                }
                out.append(keys[i]);
                values(out, states.get(i));
                if (scope == null) {
                    out.append(lastIds[i]);
                }
                out.append(carries[i]);
                out.endRow();
            }
        }
    }

    private static void values(DuckDBAppender out, UrlState s) throws SQLException {
        if (s == null) {
            for (int c = 0; c < COLUMNS.length; c++) {
                out.appendNull();
            }
            return;
        }
        out.append(s.ok()).append(s.notModified()).append(s.redirects()).append(s.clientErrors()).append(s.serverErrors())
                .append(s.errorHits()).append(s.firstCrawled()).append(s.lastCrawled()).append((short) s.lastStatus());
        time(out, s.firstError());
        status(out, s.hadError(), s.firstErrorStatus());
        time(out, s.lastError());
        status(out, s.hadError(), s.lastErrorStatus());
        time(out, s.fixedSince());
        out.append(s.flips());
    }

    private static void time(DuckDBAppender out, long millis) throws SQLException {
        if (millis == UrlState.NONE) {
            out.appendNull();
        } else {
            out.append(millis);
        }
    }

    private static void status(DuckDBAppender out, boolean there, int status) throws SQLException {
        if (there) {
            out.append((short) status);
        } else {
            out.appendNull();
        }
    }
}
