package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.LongSet;
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
     * Keeps signatures: appended straight into {@code signature_pending} when none of them can be
     * kept there already, else appended to this connection's staging table and moved by one statement
     * that leaves out those kept (a line logged twice in two batches, or imported again while still
     * waiting). An import keeps every signature it leaves beside its reader, and a statement a row,
     * each its own commit, took a minute for 5,000; the move through the staging table, with its
     * look-up of every id already kept, cost a signed import of 50,000 lines some 0.3 s of CPU more
     * than the straight append. (DuckDB's appender cannot be asked instead: a row whose key is kept
     * already is dropped with the rest of its chunk, and no error is raised.)
     */
    @Override
    public synchronized void keepPending(List<StoredSignature> signatures) {
        if (signatures.isEmpty()) {
            return;
        }
        try {
            LongSet kept = keptIds();
            List<StoredSignature> once = new ArrayList<>(signatures.size());
            java.util.Set<String> staged = new java.util.HashSet<>();
            boolean anyKept = false;
            for (StoredSignature s : signatures) {
                if (staged.add(s.id())) {
                    once.add(s); // a line logged twice in a batch: kept once
                    anyKept |= kept.contains(idHash(s.id()));
                }
            }
            if (anyKept) {
                try (Statement st = connection.createStatement()) {
                    st.execute("DELETE FROM signature_staging");
                    try (DuckDBAppender appender = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "signature_staging")) {
                        for (StoredSignature s : once) {
                            appendRow(appender, s, null);
                        }
                    }
                    st.execute("INSERT INTO signature_pending (id, ip, claim_crawler, origin, keyid, alg, base, signature, request_ms,"
                            + " kept_at, request) SELECT s.id, s.ip, s.claim_crawler, s.origin, s.keyid, s.alg, s.base, s.signature,"
                            + " s.request_ms, now(), s.request FROM signature_staging s"
                            + " WHERE NOT EXISTS (SELECT 1 FROM signature_pending p WHERE p.id = s.id)");
                }
            } else {
                java.time.LocalDateTime now = java.time.LocalDateTime.now(java.time.ZoneOffset.UTC);
                try (DuckDBAppender appender = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "signature_pending")) {
                    for (StoredSignature s : once) {
                        appendRow(appender, s, now);
                    }
                }
            }
            once.forEach(s -> kept.add(idHash(s.id())));
        } catch (SQLException e) {
            keptIds = null; // read again: what was kept of this call is not known
            throw failures.of("cannot keep signatures to check again in", e);
        }
    }

    /**
     * A hash of every id {@code signature_pending} holds, and of some it no longer holds (settled):
     * a filter, never a list. An id whose hash is not in it is not kept, so its row may be appended
     * as it is; one whose hash is, may be. Read from the table on first use, then added to as rows are kept;
     * read again when it holds many more than can wait at once (serve keeps signatures for days).
     */
    private LongSet keptIds;
    /** Hashes {@link #keptIds} holds at most before it is read again: four times the signatures that may wait. */
    private static final int MAX_KEPT_HASHES = 400_000;

    private LongSet keptIds() throws SQLException {
        if (keptIds == null || keptIds.size() > MAX_KEPT_HASHES) {
            LongSet ids = new LongSet();
            try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT id FROM signature_pending")) {
                while (rs.next()) {
                    ids.add(idHash(rs.getString(1)));
                }
            }
            keptIds = ids;
        }
        return keptIds;
    }

    /** 64 bits of an id (FNV-1a over its characters), never {@link Long#MIN_VALUE}, which {@link LongSet} cannot hold. */
    static long idHash(String id) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < id.length(); i++) {
            hash = (hash ^ id.charAt(i)) * 0x100000001b3L;
        }
        return hash == Long.MIN_VALUE ? 0 : hash;
    }

    /** A row of {@code signature_pending}'s columns in its order, or of the staging table's ({@code keptAt} null: it has none). */
    private static void appendRow(DuckDBAppender appender, StoredSignature s, java.time.LocalDateTime keptAt) throws SQLException {
        appender.beginRow().append(s.id()).append(s.ip()).append(s.claimCrawler()).append(s.origin()).append(s.keyid());
        if (s.alg() == null) {
            appender.appendNull();
        } else {
            appender.append(s.alg());
        }
        appender.append(s.base()).append(s.signature()).append(s.requestMillis());
        if (keptAt != null) {
            appender.append(keptAt);
        }
        if (s.request() == null) {
            appender.appendNull();
        } else {
            appender.append(s.request());
        }
        appender.endRow();
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
