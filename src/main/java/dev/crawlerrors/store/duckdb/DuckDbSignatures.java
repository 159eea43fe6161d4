package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.ingest.SignatureFields;
import dev.crawlerrors.ingest.SignatureShape;
import dev.crawlerrors.store.DamagedStoreException;
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
    /** The signatures being kept, as the columns of a table function ({@link #keepPending}). */
    private final DuckDbColumnsSource rows;
    /** The statements that keep them: every one, or those not kept already; prepared when first needed. */
    private PreparedStatement keep;
    private PreparedStatement keepNew;

    DuckDbSignatures(DuckDBConnection store, DuckDbFailures failures) throws SQLException {
        this.connection = (DuckDBConnection) store.duplicate();
        this.failures = failures;
        // this connection's own, in memory, never in the file
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TEMP TABLE signature_settled_staging (id VARCHAR)");
        }
        rows = DuckDbColumnsSource.register(connection, "crawl_errors_pending",
                new String[] {"request_ms", "kept_at_micros"},
                new String[] {"id", "ip", "claim_crawler", "origin", "keyid", "alg", "base", "signature", "request"});
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
     * Keeps signatures: inserted by one statement from a table function over their columns, which
     * leaves out those kept already (a line logged twice in two batches, or imported again while
     * still waiting) only when a filter of the kept ids says some of them may be. An import keeps
     * every signature it leaves beside its reader, and a statement a row, each its own commit, took a
     * minute for 5,000; the look-up of every id already kept cost a signed import of 50,000 lines
     * some 0.3 s of CPU more than inserting them as they are. (DuckDB's appender, which took a JNI
     * call a string here before, cannot be asked to leave them out: a row whose key is kept already
     * is dropped with the rest of its chunk, and no error is raised.)
     */
    @Override
    public synchronized void keepPending(List<StoredSignature> signatures) {
        if (signatures.isEmpty()) {
            return;
        }
        try {
            LongSet kept = keptIds();
            List<StoredSignature> once = new ArrayList<>(signatures.size());
            long[] hashes = new long[signatures.size()];
            java.util.Set<String> staged = new java.util.HashSet<>();
            boolean anyKept = false;
            for (StoredSignature s : signatures) {
                anyKept |= stage(s, staged, once, hashes, kept);
            }
            insert(once, anyKept);
            for (int i = 0; i < once.size(); i++) {
                kept.add(hashes[i]);
            }
        } catch (SQLException e) {
            keptIds = null; // read again: what was kept of this call is not known
            throw failures.of("cannot keep signatures to check again in", e);
        }
    }

    /**
     * Appends {@code signatures} to {@code signature_pending} in one statement (its own transaction),
     * through the table function {@link #rows}: the Appender it replaces took a JNI call a string,
     * eleven columns a row. When {@code maybeKept}, those whose id is kept already are left out.
     */
    private void insert(List<StoredSignature> signatures, boolean maybeKept) throws SQLException {
        int n = signatures.size();
        long[] requestMillis = new long[n];
        long[] keptAt = new long[n];
        String[][] texts = new String[9][n];
        java.time.Instant now = java.time.Instant.now();
        long nowMicros = Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1_000);
        for (int i = 0; i < n; i++) {
            column(signatures.get(i), i, requestMillis, texts);
            keptAt[i] = nowMicros;
        }
        if (keep == null) {
            String insert = "INSERT INTO signature_pending (id, ip, claim_crawler, origin, keyid, alg, base, signature, request_ms, kept_at, request)"
                    + " SELECT id, ip, claim_crawler, origin, keyid, alg, base, signature, request_ms, make_timestamp(kept_at_micros), request"
                    + " FROM " + rows.name() + "() s";
            keep = connection.prepareStatement(insert);
            keepNew = connection.prepareStatement(insert + " WHERE NOT EXISTS (SELECT 1 FROM signature_pending p WHERE p.id = s.id)");
        }
        rows.set(new long[][] {requestMillis, keptAt}, texts, n);
        try {
            (maybeKept ? keepNew : keep).execute();
        } finally {
            rows.clear();
        }
    }

    /** A method of its own, as {@link #stage}: {@code s} into row {@code i} of the columns. */
    private static void column(StoredSignature s, int i, long[] requestMillis, String[][] texts) {
        requestMillis[i] = s.requestMillis();
        texts[0][i] = s.id();
        texts[1][i] = s.ip();
        texts[2][i] = s.claimCrawler();
        texts[3][i] = s.origin();
        texts[4][i] = s.keyid();
        texts[5][i] = s.alg();
        texts[6][i] = s.base();
        texts[7][i] = s.signature();
        texts[8][i] = s.request();
    }

    /**
     * Adds {@code s} to {@code once} unless a signature of its id is there already (a line logged
     * twice in a batch: kept once), its id's hash to {@code hashes} at the same place; whether that
     * hash is {@code kept}. A method of its own: its loop runs once a batch, too few times for the
     * JIT to compile it, and a body inlined in it ran interpreted for every signed line of an import.
     */
    private static boolean stage(StoredSignature s, java.util.Set<String> staged, List<StoredSignature> once, long[] hashes, LongSet kept) {
        if (!staged.add(s.id())) {
            return false;
        }
        long hash = idHash(s.id());
        hashes[once.size()] = hash;
        once.add(s);
        return kept.contains(hash);
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

    /** Yes: the writer writes a signed hit's request in its row ({@code hits.sig}) when its signature waits there. */
    @Override
    public boolean keepsSignaturesInHits() {
        return true;
    }

    /**
     * The signatures waiting, oldest request first: those kept here, and the signed hits whose request
     * waits in their own row ({@code hits.sig}), each named {@code #} and its hit's number, under the claim
     * its hit is stored with (its address's and signer's, {@code CrawlerHit#WAITING_IN_ROWS}).
     */
    @Override
    public synchronized List<StoredSignature> pending(int max) {
        List<StoredSignature> signatures = new ArrayList<>();
        try (PreparedStatement st = connection.prepareStatement("SELECT id, ip, claim_crawler, origin, keyid, alg, base, signature, request_ms,"
                + " request, NULL, NULL, NULL, NULL, NULL FROM signature_pending UNION ALL SELECT '" + IN_HIT + "' || h.id, h.ip, v.crawler, '',"
                + " '', NULL, '', '', epoch_ms(h.ts), h.sig, h.method, h.host, h.url, h.duration_ms, s.shape FROM hits h"
                + " JOIN verdicts v ON v.claim_id = h.claim_id LEFT JOIN sig_shapes s ON starts_with(h.sig, '"
                + SignatureShape.MARK + "') AND s.id = TRY_CAST(substr(h.sig, 2, strpos(h.sig, ':') - 2) AS BIGINT)"
                + " WHERE h.sig IS NOT NULL ORDER BY request_ms, id LIMIT ?")) {
            st.setInt(1, max);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    String request = rs.getString(10);
                    if (rs.getString(1).startsWith(IN_HIT)) {
                        if (request.charAt(0) == SignatureShape.MARK) {
                            request = whole(request, rs.getString(15));
                        }
                        // the hit's row keeps its fields; its method, host, target and duration are the row's own
                        double duration = rs.getDouble(14);
                        request += SignatureFields.rest(rs.getString(11), rs.getString(12), rs.getString(13),
                                rs.wasNull() ? Double.NaN : duration);
                    }
                    signatures.add(new StoredSignature(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                            rs.getString(6), rs.getString(7), rs.getString(8), rs.getLong(9), request));
                }
            }
            return signatures;
        } catch (SQLException e) {
            throw failures.of("cannot read the signatures waiting in", e);
        }
    }

    /** The whole text of a hit's short one ({@link DuckDbSignatureShapes}); a text that cannot be made whole is a damaged store's. */
    private String whole(String shortText, String shape) {
        try {
            return SignatureShape.expand(shortText, shape);
        } catch (IllegalArgumentException e) {
            throw new DamagedStoreException(failures.location(), "a signed hit waits with a text its shape does not make whole ("
                    + e.getMessage() + ")", e);
        }
    }

    @Override
    public synchronized long pendingCount() {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT (SELECT count(*) FROM signature_pending)"
                + " + (SELECT count(*) FROM hits WHERE sig IS NOT NULL)")) {
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
                    if (SignatureStore.waitingHit(id) != null) {
                        // a hit's signature goes with the move to its own claim (VerdictStore#settleWaitingHits)
                        throw new IllegalArgumentException("a signature waiting in hit " + id + "'s row is let go by its verdict's move");
                    }
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
            if (keep != null) {
                keep.close();
                keepNew.close();
            }
            connection.close();
        } catch (SQLException e) {
            throw failures.of("cannot close", e);
        }
    }
}
