package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.SignatureStore;
import dev.crawlerrors.store.StoredDirectory;
import dev.crawlerrors.store.StoredSignature;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * What signature verification keeps, in the store's file: {@code signature_directories}, every
 * reading of a signer's key directory, and {@code signature_pending}, the signatures waiting for
 * one. Both are small and written seldom, so they go through a connection of their own, each
 * statement its own transaction beside the writer's batches (DuckDB lets two connections write to
 * different tables at once).
 */
final class DuckDbSignatures implements SignatureStore {

    static final String TABLES = """
            CREATE TABLE IF NOT EXISTS signature_directories (
              origin VARCHAR NOT NULL,
              fetched_at_ms BIGINT NOT NULL,
              source VARCHAR NOT NULL,
              jwks VARCHAR NOT NULL,
              proof VARCHAR NOT NULL
            );
            CREATE TABLE IF NOT EXISTS signature_pending (
              id VARCHAR PRIMARY KEY,
              ip VARCHAR NOT NULL,
              claim_crawler VARCHAR NOT NULL,
              origin VARCHAR NOT NULL,
              keyid VARCHAR NOT NULL,
              alg VARCHAR,
              base VARCHAR NOT NULL,
              signature VARCHAR NOT NULL,
              request_ms BIGINT NOT NULL,
              kept_at TIMESTAMP NOT NULL,
              request VARCHAR
            );
            """;

    /** Version 8: a signed request kept as logged, its whole check left to whoever settles it ({@code StoredSignature#request}). */
    static final String REQUEST = """
            ALTER TABLE signature_pending ADD COLUMN IF NOT EXISTS request VARCHAR;
            """;

    private final DuckDBConnection connection;
    private final DuckDbFailures failures;

    DuckDbSignatures(DuckDBConnection store, DuckDbFailures failures) throws SQLException {
        this.connection = (DuckDBConnection) store.duplicate();
        this.failures = failures;
        // this connection's own, in memory, never in the file
        try (Statement st = connection.createStatement()) {
            st.execute("""
                    CREATE TEMP TABLE signature_staging (
                      id VARCHAR, ip VARCHAR, claim_crawler VARCHAR, origin VARCHAR, keyid VARCHAR, alg VARCHAR,
                      base VARCHAR, signature VARCHAR, request_ms BIGINT, request VARCHAR
                    );
                    CREATE TEMP TABLE signature_settled_staging (id VARCHAR);
                    """);
        }
    }

    @Override
    public synchronized void keepDirectory(StoredDirectory reading) {
        try (PreparedStatement st = connection.prepareStatement("INSERT INTO signature_directories VALUES (?, ?, ?, ?, ?)")) {
            st.setString(1, reading.origin());
            st.setLong(2, reading.fetchedMillis());
            st.setString(3, reading.source());
            st.setString(4, reading.json());
            st.setString(5, reading.proof());
            st.executeUpdate();
        } catch (SQLException e) {
            throw failures.of("cannot keep a key directory in", e);
        }
    }

    @Override
    public synchronized List<StoredDirectory> directories() {
        List<StoredDirectory> readings = new ArrayList<>();
        try (Statement st = connection.createStatement();
             ResultSet rs = st.executeQuery("SELECT origin, fetched_at_ms, source, jwks, proof FROM signature_directories"
                     + " ORDER BY fetched_at_ms, origin")) {
            while (rs.next()) {
                readings.add(new StoredDirectory(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getString(5)));
            }
            return readings;
        } catch (SQLException e) {
            throw failures.of("cannot read the key directories of", e);
        }
    }

    /**
     * Keeps signatures in one statement: rows appended to this connection's staging table, then
     * moved. An import keeps every signature it checks beside its reader, and a statement a row,
     * each its own commit, took a minute for 5,000.
     */
    @Override
    public synchronized void keepPending(List<StoredSignature> signatures) {
        if (signatures.isEmpty()) {
            return;
        }
        try (Statement st = connection.createStatement()) {
            st.execute("DELETE FROM signature_staging");
            java.util.Set<String> staged = new java.util.HashSet<>();
            try (DuckDBAppender appender = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "signature_staging")) {
                for (StoredSignature s : signatures) {
                    if (!staged.add(s.id())) {
                        continue; // a line logged twice: kept once
                    }
                    appender.beginRow().append(s.id()).append(s.ip()).append(s.claimCrawler()).append(s.origin()).append(s.keyid());
                    if (s.alg() == null) {
                        appender.appendNull();
                    } else {
                        appender.append(s.alg());
                    }
                    appender.append(s.base()).append(s.signature()).append(s.requestMillis());
                    if (s.request() == null) {
                        appender.appendNull();
                    } else {
                        appender.append(s.request());
                    }
                    appender.endRow();
                }
            }
            st.execute("INSERT INTO signature_pending (id, ip, claim_crawler, origin, keyid, alg, base, signature, request_ms, kept_at, request)"
                    + " SELECT s.id, s.ip, s.claim_crawler, s.origin, s.keyid, s.alg, s.base, s.signature, s.request_ms, now(), s.request"
                    + " FROM signature_staging s WHERE NOT EXISTS (SELECT 1 FROM signature_pending p WHERE p.id = s.id)");
        } catch (SQLException e) {
            throw failures.of("cannot keep signatures to check again in", e);
        }
    }

    @Override
    public synchronized List<StoredSignature> pending(int max) {
        List<StoredSignature> signatures = new ArrayList<>();
        try (PreparedStatement st = connection.prepareStatement("SELECT id, ip, claim_crawler, origin, keyid, alg, base, signature, request_ms,"
                + " request FROM signature_pending ORDER BY request_ms, id LIMIT ?")) {
            st.setInt(1, max);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    signatures.add(new StoredSignature(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                            rs.getString(6), rs.getString(7), rs.getString(8), rs.getLong(9), rs.getString(10)));
                }
            }
            return signatures;
        } catch (SQLException e) {
            throw failures.of("cannot read the signatures waiting in", e);
        }
    }

    @Override
    public synchronized long pendingCount() {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM signature_pending")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw failures.of("cannot count the signatures waiting in", e);
        }
    }

    @Override
    public synchronized void settled(Collection<String> ids) {
        if (ids.isEmpty()) {
            return;
        }
        try (Statement st = connection.createStatement()) {
            st.execute("DELETE FROM signature_settled_staging");
            try (DuckDBAppender appender = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "signature_settled_staging")) {
                for (String id : ids) {
                    appender.beginRow().append(id).endRow();
                }
            }
            st.execute("DELETE FROM signature_pending WHERE id IN (SELECT id FROM signature_settled_staging)");
        } catch (SQLException e) {
            throw failures.of("cannot settle signatures in", e);
        }
    }

    synchronized void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw failures.of("cannot close", e);
        }
    }
}
