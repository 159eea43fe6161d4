package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.AlertStore;
import dev.crawlerrors.store.StoredAlert;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.duckdb.DuckDBConnection;

/**
 * The alerts' state in a DuckDB store: table {@code alerts} (a row per key, replaced as the alert
 * changes, an evaluation's changes in one transaction), {@code alert_shapes} (the URL shapes known to have erred) and the hit they were read
 * through in {@code store_meta}. On a connection of its own, committing each write at once: the
 * writer's transactions, which never touch these tables, go on beside it. The tables are made when
 * alerts are first used, so a store that never had alerts has none.
 */
final class DuckDbAlertStore implements AlertStore {

    private static final String TABLES = """
            CREATE TABLE IF NOT EXISTS alerts (
              key VARCHAR PRIMARY KEY,
              firing BOOLEAN NOT NULL,
              starts_ms BIGINT NOT NULL,
              ends_ms BIGINT NOT NULL,
              updated_ms BIGINT NOT NULL,
              details VARCHAR NOT NULL
            );
            CREATE TABLE IF NOT EXISTS alert_shapes (
              shape VARCHAR PRIMARY KEY,
              first_seen_ms BIGINT NOT NULL
            );
            """;
    private static final String THROUGH = "alert_shapes_through";

    private final DuckDBConnection store;
    private final DuckDbFailures failures;
    private Connection connection;

    DuckDbAlertStore(DuckDBConnection store, DuckDbFailures failures) {
        this.store = store;
        this.failures = failures;
    }

    /** The connection, with the tables made, on first use. */
    private synchronized Connection connection() throws SQLException {
        if (connection == null) {
            Connection c = store.duplicate();
            // a duplicate made while the writer is in a transaction would be in one too: this one commits each write
            c.setAutoCommit(true);
            try (Statement st = c.createStatement()) {
                st.execute(TABLES);
            }
            connection = c;
        }
        return connection;
    }

    @Override
    public synchronized List<StoredAlert> alerts(int limit) {
        try (PreparedStatement st = connection().prepareStatement(
                "SELECT key, firing, starts_ms, ends_ms, updated_ms, details FROM alerts ORDER BY updated_ms DESC, key LIMIT ?")) {
            st.setInt(1, limit);
            List<StoredAlert> alerts = new ArrayList<>();
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    alerts.add(new StoredAlert(rs.getString(1), rs.getBoolean(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getString(6)));
                }
            }
            return alerts;
        } catch (SQLException e) {
            throw failures.of("cannot read the alerts of", e);
        }
    }

    @Override
    public synchronized void save(List<StoredAlert> alerts) {
        if (alerts.isEmpty()) {
            return;
        }
        try {
            Connection c = connection();
            c.setAutoCommit(false);
            try (PreparedStatement st = c.prepareStatement("INSERT OR REPLACE INTO alerts VALUES (?, ?, ?, ?, ?, ?)")) {
                for (StoredAlert alert : alerts) {
                    st.setString(1, alert.key());
                    st.setBoolean(2, alert.firing());
                    st.setLong(3, alert.startsMillis());
                    st.setLong(4, alert.endsMillis());
                    st.setLong(5, alert.updatedMillis());
                    st.setString(6, alert.details());
                    st.addBatch();
                }
                st.executeBatch();
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw failures.of("cannot keep the alerts in", e);
        }
    }

    @Override
    public synchronized void forgetResolved(long endedBeforeMillis) {
        try (PreparedStatement st = connection().prepareStatement("DELETE FROM alerts WHERE NOT firing AND ends_ms < ?")) {
            st.setLong(1, endedBeforeMillis);
            st.execute();
        } catch (SQLException e) {
            throw failures.of("cannot forget old alerts in", e);
        }
    }

    @Override
    public synchronized Map<String, Long> errorShapes() {
        try (Statement st = connection().createStatement(); ResultSet rs = st.executeQuery("SELECT shape, first_seen_ms FROM alert_shapes")) {
            Map<String, Long> shapes = new HashMap<>();
            while (rs.next()) {
                shapes.put(rs.getString(1), rs.getLong(2));
            }
            return shapes;
        } catch (SQLException e) {
            throw failures.of("cannot read the alerts' URL shapes of", e);
        }
    }

    @Override
    public synchronized void addErrorShapes(Map<String, Long> shapes) {
        if (shapes.isEmpty()) {
            return;
        }
        try (PreparedStatement st = connection().prepareStatement("INSERT OR IGNORE INTO alert_shapes VALUES (?, ?)")) {
            for (Map.Entry<String, Long> shape : shapes.entrySet()) {
                st.setString(1, shape.getKey());
                st.setLong(2, shape.getValue());
                st.addBatch();
            }
            st.executeBatch();
        } catch (SQLException e) {
            throw failures.of("cannot keep the alerts' URL shapes in", e);
        }
    }

    @Override
    public synchronized long shapesThrough() {
        try (PreparedStatement st = connection().prepareStatement("SELECT value FROM store_meta WHERE key = ?")) {
            st.setString(1, THROUGH);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? Long.parseLong(rs.getString(1)) : 0;
            }
        } catch (SQLException e) {
            throw failures.of("cannot read the alerts' URL shapes of", e);
        }
    }

    @Override
    public synchronized void shapesThrough(long hits) {
        try (PreparedStatement st = connection().prepareStatement("INSERT OR REPLACE INTO store_meta VALUES (?, ?)")) {
            st.setString(1, THROUGH);
            st.setString(2, Long.toString(hits));
            st.execute();
        } catch (SQLException e) {
            throw failures.of("cannot keep the alerts' URL shapes in", e);
        }
    }

    /** Closes its connection, before the store's. */
    synchronized void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // the store closes next; nothing of this connection is left to lose (each write committed)
            }
            connection = null;
        }
    }
}
