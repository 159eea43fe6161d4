package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.StoreException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.duckdb.DuckDBConnection;

/**
 * The tables of a store, created on first use and brought up to date when an older version of
 * crawl-errors made them. Version 2 numbers each claim (an address claiming a crawler) and
 * records every verdict with a number of its own, so hits carry their claim's number and a report
 * reads verdicts as of its snapshot. Version 3 records with how far each log was read the check of
 * the bytes before there ({@code check_hash}) and the fingerprint its key begins with ({@code prefix}),
 * so a log that begins as another is told apart, and each file read to its end ({@code import_files}),
 * so a file that did not change since is known without being opened. Version 4 keeps where a
 * redirect sent the crawler, when the log records it ({@code hits.location}): the patterns' diagnosis
 * reads it. Version 5 keeps each URL's
 * history and state ({@link DuckDbUrlStates}); a store of an older version gets the tables empty,
 * and its first fold reads the hits stored before ({@code url_keyed_from}: the last of them).
 * Version 6 adds the tables of signature verification ({@link DuckDbSignatures}): the key
 * directories read, kept in history, and the signatures waiting for one. Version 7 keeps beside
 * each URL state its carry ({@link DuckDbUrlStateMerge}), so a fold adds new hits to a state
 * without reading the URL's history; a row without one is made again from its history. Version 8
 * lets a waiting signature be a signed request as logged ({@code signature_pending.request}), checked
 * whole by whoever settles it. Version 9 keeps each URL's hits again in time order
 * ({@code url_times}, with the number of the URL's host and head, {@code url_heads}), so a view of
 * a time range and a prefix reads numbers ({@link DuckDbUrlTail}); an older store's are filled from
 * its histories on the upgrade, once. Version 10 lets a signed hit wait for its check in its own row
 * ({@code hits.sig}, its three fields as logged, NULL once settled), where an import of many signed lines
 * keeps them rather than in {@code signature_pending} ({@link DuckDbSignatures#pending}). Version 11 writes that
 * text short, its shape kept once ({@code sig_shapes}, {@link DuckDbSignatureShapes}); a version before it would
 * misread a short one.
 */
final class DuckDbSchema {

    /** The schema this version writes. */
    static final int VERSION = 11;

    /** Version 7: what a URL's next hit depends on beside its kept state, NULL in a row an older version made. */
    private static final String CARRY = """
            ALTER TABLE url_states ADD COLUMN IF NOT EXISTS carry SMALLINT;
            ALTER TABLE url_scopes ADD COLUMN IF NOT EXISTS carry SMALLINT;
            """;

    /**
     * A URL's head ({@link dev.crawlerrors.store.UrlHeads#of}) in SQL, of the column {@code column}
     * (joined, not formatted: a store's opening starts no {@code java.util.Formatter}, see ImportStartTest).
     */
    static String head(String column) {
        return "coalesce(nullif(regexp_extract(" + column + ", '" + dev.crawlerrors.store.MinuteCell.URL_HEAD
                + "'), ''), CASE WHEN starts_with(" + column + ", '/') THEN '/' ELSE '' END)";
    }

    /**
     * Version 9: the hits of the URLs' histories ({@code url_log}, {@code url_tail}) in time order,
     * each with the number of its URL's host and head; what was there before is made again.
     */
    private static final String TIMES = """
            DELETE FROM url_times;
            DELETE FROM url_heads;
            INSERT INTO url_heads SELECT (row_number() OVER (ORDER BY host, head))::INTEGER, host, head
            """ + "  FROM (SELECT DISTINCT host, " + head("url") + " AS head FROM url_names);\n" + """
            INSERT INTO url_times SELECT l.t, l.k, l.i, l.s, l.c, l.b, m.hd
              FROM (SELECT * FROM url_log UNION ALL SELECT * FROM url_tail) l
            """ + "  JOIN (SELECT n.k, h.hd FROM url_names n JOIN url_heads h ON h.host = n.host AND h.head = " + head("n.url")
            + ") m ON m.k = l.k\n" + """
              ORDER BY l.t, l.i;
            """;

    /**
     * Version 10: a signed hit's three signature fields as logged while its signature waits for its check; NULL in
     * every other row. Stored uncompressed: the text lives until serve checks it (minutes), and compressing it at
     * the import's checkpoint (DuckDB's FSST: its symbol tables and the compression) was 3% of a signed import's
     * CPU for a third of the column's size, which a settled signature's NULL gives back anyway (BENCHMARKS.md).
     */
    private static final String SIG = """
            ALTER TABLE hits ADD COLUMN IF NOT EXISTS sig VARCHAR USING COMPRESSION uncompressed;
            """ + DuckDbSignatureShapes.TABLE;

    private static final String TABLES = """
            CREATE TABLE IF NOT EXISTS hits (
              id BIGINT NOT NULL,
              ts TIMESTAMP NOT NULL,
              utc_offset_minutes SMALLINT NOT NULL,
              ip VARCHAR NOT NULL,
              method VARCHAR NOT NULL,
              url VARCHAR NOT NULL,
              status SMALLINT NOT NULL,
              bytes BIGINT,
              duration_ms DOUBLE,
              crawler VARCHAR NOT NULL,
              bot_type VARCHAR NOT NULL,
              user_agent VARCHAR,
              referer VARCHAR,
              host VARCHAR,
              claim_id INTEGER,
              location VARCHAR,
              sig VARCHAR USING COMPRESSION uncompressed
            );
            CREATE TABLE IF NOT EXISTS verdicts (
              ip VARCHAR NOT NULL,
              crawler VARCHAR NOT NULL,
              verification VARCHAR NOT NULL,
              reason VARCHAR NOT NULL,
              checked_at TIMESTAMP NOT NULL,
              claim_id INTEGER,
              version BIGINT,
              PRIMARY KEY (ip, crawler)
            );
            CREATE TABLE IF NOT EXISTS verdict_log (
              version BIGINT NOT NULL,
              claim_id INTEGER NOT NULL,
              verification VARCHAR NOT NULL,
              reason VARCHAR NOT NULL,
              recorded_at TIMESTAMP NOT NULL
            );
            CREATE TABLE IF NOT EXISTS imports (
              fingerprint VARCHAR PRIMARY KEY,
              name VARCHAR NOT NULL,
              bytes_imported BIGINT NOT NULL,
              lines_imported BIGINT NOT NULL,
              imported_at TIMESTAMP NOT NULL,
              prefix VARCHAR,
              check_hash VARCHAR
            );
            CREATE TABLE IF NOT EXISTS import_files (
              file_key VARCHAR PRIMARY KEY,
              size BIGINT NOT NULL,
              modified_nanos BIGINT NOT NULL,
              fingerprint VARCHAR NOT NULL,
              name VARCHAR NOT NULL,
              bytes_imported BIGINT NOT NULL,
              lines_imported BIGINT NOT NULL,
              check_hash VARCHAR,
              imported_at TIMESTAMP NOT NULL
            );
            CREATE TABLE IF NOT EXISTS url_tail (
              k BIGINT NOT NULL,
              t BIGINT NOT NULL,
              i BIGINT NOT NULL,
              s SMALLINT NOT NULL,
              c INTEGER,
              b SMALLINT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS url_log (
              k BIGINT NOT NULL,
              t BIGINT NOT NULL,
              i BIGINT NOT NULL,
              s SMALLINT NOT NULL,
              c INTEGER,
              b SMALLINT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS url_times (
              t BIGINT NOT NULL,
              k BIGINT NOT NULL,
              i BIGINT NOT NULL,
              s SMALLINT NOT NULL,
              c INTEGER,
              b SMALLINT NOT NULL,
              hd INTEGER NOT NULL
            );
            CREATE TABLE IF NOT EXISTS url_heads (
              hd INTEGER NOT NULL,
              host VARCHAR NOT NULL,
              head VARCHAR NOT NULL
            );
            CREATE TABLE IF NOT EXISTS url_names (
              k BIGINT NOT NULL,
              host VARCHAR NOT NULL,
              url VARCHAR NOT NULL
            );
            CREATE TABLE IF NOT EXISTS url_states (
              k BIGINT NOT NULL,
              ok BIGINT, not_modified BIGINT, redirects BIGINT, client_errors BIGINT, server_errors BIGINT, error_hits BIGINT,
              first_crawled BIGINT, last_crawled BIGINT, last_status SMALLINT, first_error BIGINT, first_error_status SMALLINT,
              last_error BIGINT, last_error_status SMALLINT, fixed_since BIGINT, flips INTEGER,
              last_hit_id BIGINT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS url_scopes (
              scope VARCHAR NOT NULL,
              k BIGINT NOT NULL,
              ok BIGINT, not_modified BIGINT, redirects BIGINT, client_errors BIGINT, server_errors BIGINT, error_hits BIGINT,
              first_crawled BIGINT, last_crawled BIGINT, last_status SMALLINT, first_error BIGINT, first_error_status SMALLINT,
              last_error BIGINT, last_error_status SMALLINT, fixed_since BIGINT, flips INTEGER
            );
            CREATE TABLE IF NOT EXISTS store_meta (
              key VARCHAR PRIMARY KEY,
              value VARCHAR NOT NULL
            );
            """;

    private DuckDbSchema() {
    }

    /** Creates what is missing and migrates a store of an earlier version, in one transaction. */
    static void prepare(DuckDBConnection connection, String location) throws SQLException {
        if (current(connection)) {
            return;
        }
        try (Statement st = connection.createStatement()) {
            boolean existed = hasTable(st, "hits");
            int recorded = existed && hasTable(st, "store_meta") ? recordedVersion(st) : 0;
            if (recorded > VERSION) {
                throw new StoreException("the store " + location + " holds tables of a newer crawl-errors (schema version " + recorded
                        + "; this one knows " + VERSION + "): run that version, or import the logs into a new store", null);
            }
            boolean claims = existed && hasColumn(st, "hits", "claim_id");
            boolean checks = existed && hasColumn(st, "imports", "check_hash");
            boolean locations = existed && hasColumn(st, "hits", "location");
            if (existed && (!claims || !checks || !locations)) {
                connection.setAutoCommit(false);
                try {
                    if (!claims) {
                        migrateToClaims(st);
                    }
                    if (!checks) {
                        migrateToChecks(st);
                    }
                    if (!locations) {
                        // version 3 to 4: no hit stored before records one (a column added is NULL in every row, at no cost)
                        st.execute("ALTER TABLE hits ADD COLUMN location VARCHAR");
                    }
                    // the URLs' tables (version 5) and the signatures' (6), made with whatever else is missing
                    st.execute(TABLES + DuckDbSignatures.TABLES + CARRY + DuckDbSignatures.REQUEST + SIG);
                    st.execute("INSERT OR REPLACE INTO store_meta VALUES ('schema_version', '" + VERSION + "')");
                    keyedFrom(st);
                    st.execute(TIMES);
                    connection.commit();
                } catch (SQLException e) {
                    connection.rollback();
                    throw e;
                } finally {
                    connection.setAutoCommit(true);
                }
                return;
            }
            boolean older = recorded > 0 && recorded < VERSION;
            if (older) {
                connection.setAutoCommit(false);
            }
            try {
                st.execute(TABLES + DuckDbSignatures.TABLES + CARRY + DuckDbSignatures.REQUEST + SIG);
                // a store of version 4 only lacked the URLs' tables and the signatures', one of 5 the signatures', made just now
                st.execute("INSERT OR " + (older ? "REPLACE" : "IGNORE") + " INTO store_meta VALUES ('schema_version', '" + VERSION + "')");
                if (recorded == 4) {
                    keyedFrom(st);
                }
                if (older && recorded < 9) {
                    // the hits in time order, from the histories kept: a read of every history, once
                    st.execute(TIMES);
                }
                if (older) {
                    connection.commit();
                }
            } catch (SQLException e) {
                if (older) {
                    connection.rollback();
                }
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        }
    }

    /**
     * Whether the store records this version: its tables are then all there, and the probes of
     * tables and columns, and the statements that make what is missing, are skipped: a store opened
     * again costs one query before serve listens. A new store has no {@code store_meta} to ask.
     */
    private static boolean current(DuckDBConnection connection) {
        // a statement of its own: DuckDB's driver closes a statement whose query failed
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT value FROM store_meta WHERE key = 'schema_version'")) {
            return rs.next() && Integer.toString(VERSION).equals(rs.getString(1));
        } catch (SQLException e) {
            return false;
        }
    }

    /** Records the last hit stored before the URLs' tables were, whose history the first fold makes from the hits. */
    private static void keyedFrom(Statement st) throws SQLException {
        st.execute("INSERT OR IGNORE INTO store_meta SELECT 'url_keyed_from', coalesce(max(id), 0)::VARCHAR FROM hits");
    }

    /**
     * Version 1 to 2: numbers the claims (every address and crawler of the hits, a verdict row for
     * those that had none), records their verdicts as the first of each claim's history, and
     * writes each hit's claim number. Reads every hit once; a store of 10,000,000 hits takes some
     * seconds, once.
     */
    private static void migrateToClaims(Statement st) throws SQLException {
        st.execute("ALTER TABLE verdicts ADD COLUMN claim_id INTEGER");
        st.execute("ALTER TABLE verdicts ADD COLUMN version BIGINT");
        st.execute("""
                INSERT INTO verdicts (ip, crawler, verification, reason, checked_at)
                SELECT DISTINCT h.ip, h.crawler, 'unverified', 'not checked yet', now()
                FROM hits h WHERE NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.ip = h.ip AND v.crawler = h.crawler)""");
        st.execute("""
                UPDATE verdicts SET claim_id = n.claim, version = n.claim
                FROM (SELECT ip, crawler, row_number() OVER (ORDER BY ip, crawler) AS claim FROM verdicts) n
                WHERE verdicts.ip = n.ip AND verdicts.crawler = n.crawler""");
        st.execute("""
                CREATE TABLE verdict_log AS
                SELECT version, claim_id, verification, reason, checked_at AS recorded_at FROM verdicts""");
        st.execute("ALTER TABLE hits ADD COLUMN claim_id INTEGER");
        st.execute("UPDATE hits SET claim_id = v.claim_id FROM verdicts v WHERE hits.ip = v.ip AND hits.crawler = v.crawler");
    }

    /**
     * Version 2 to 3: the imports get the fingerprint their key begins with (their key itself: no
     * store before this one held two logs that begin alike) and a check, unknown for what was read
     * before (such a log is known by its beginning alone, as it was). {@code import_files} starts
     * empty: the next import opens each file once more and records it.
     */
    private static void migrateToChecks(Statement st) throws SQLException {
        st.execute("ALTER TABLE imports ADD COLUMN IF NOT EXISTS prefix VARCHAR");
        st.execute("ALTER TABLE imports ADD COLUMN IF NOT EXISTS check_hash VARCHAR");
        st.execute("UPDATE imports SET prefix = fingerprint WHERE prefix IS NULL");
    }

    /** The version a store records ({@code store_meta.schema_version}), 0 when it records none. */
    static int recordedVersion(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT value FROM store_meta WHERE key = 'schema_version'")) {
            return rs.next() ? Integer.parseInt(rs.getString(1)) : 0;
        }
    }

    static boolean hasTable(Statement st, String table) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM duckdb_tables() WHERE table_name = '" + table + "' AND NOT temporary")) {
            rs.next();
            return rs.getLong(1) > 0;
        }
    }

    static boolean hasColumn(Statement st, String table, String column) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM duckdb_columns() WHERE table_name = '" + table
                + "' AND column_name = '" + column + "'")) {
            rs.next();
            return rs.getLong(1) > 0;
        }
    }
}
