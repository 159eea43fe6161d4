package dev.crawlerrors.store.duckdb;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.duckdb.DuckDBConnection;

/**
 * Runs one read on a duplicate of the store's connection, which DuckDB allows from any thread,
 * after what was appended so far is committed: a read sees every hit appended before it.
 */
final class DuckDbQuery {

    /** Reads a result set into a value. */
    interface Rows<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private final DuckDBConnection connection;
    private final DuckDbFailures failures;
    private final Runnable beforeRead;

    DuckDbQuery(DuckDBConnection connection, DuckDbFailures failures, Runnable beforeRead) {
        this.connection = connection;
        this.failures = failures;
        this.beforeRead = beforeRead;
    }

    <T> T run(String sql, List<Object> params, Rows<T> rows) {
        beforeRead.run();
        try (Connection c = connection.duplicate(); PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < params.size(); i++) {
                st.setObject(i + 1, params.get(i));
            }
            try (ResultSet rs = st.executeQuery()) {
                return rows.read(rs);
            }
        } catch (SQLException e) {
            throw failures.of("cannot read", e);
        }
    }
}
