package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.AlertStore;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.HitWriter;
import dev.crawlerrors.store.SignatureStore;
import dev.crawlerrors.store.SitemapStore;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoreFileModes;
import dev.crawlerrors.store.StoreHealth;
import dev.crawlerrors.store.StoreLimits;
import dev.crawlerrors.store.VerdictStore;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Figures;
import dev.crawlerrors.text.ShownText;
import dev.crawlerrors.text.Threads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.duckdb.DuckDBConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded store: one DuckDB file, one connection. It opens the file (migrating its tables,
 * reading its verdicts' history) and hands out its parts, a class each: the writer
 * ({@link DuckDbHitWriter}: hits go in column by column, one statement per batch, on a thread of
 * its own, with how far each log was read in the same transaction), the verdicts
 * ({@link DuckDbVerdicts}: their own table keyed by address and crawler), the reader
 * ({@link DuckDbHitReader}: the report's pages, and its tallies behind the patterns and the
 * overview) and the health ({@link DuckDbHealth}). Reads use a duplicate of the connection per
 * query, which DuckDB allows from any thread.
 */
public final class DuckDbHitStore implements HitStore {

    /**
     * The version of the store's tables ({@link DuckDbSchema}), recorded in {@code store_meta} under
     * {@code schema_version}; a store of an older version is migrated when opened, one of a newer
     * version refused rather than read wrongly: {@code crawl-errors check} tells which version a store holds.
     */
    public static final int SCHEMA_VERSION = DuckDbSchema.VERSION;

    /** DuckDB's row group, the unit it compresses and writes (the default, which stores here are created with). */
    static final int ROW_GROUP_ROWS = DuckDbHitWriter.ROW_GROUP_ROWS;

    /** How long a verdict's history is kept: a snapshot older than this may no longer be answered exactly. */
    static final String VERDICT_HISTORY = "INTERVAL 1 DAY";

    private final DuckDBConnection connection;
    private final String location;
    private final DuckDbFailures failures;
    private final DuckDbQuery query;
    private final DuckDbClaims claims = new DuckDbClaims();
    private final DuckDbHitWriter writer;
    private final DuckDbVerdicts verdicts;
    private final DuckDbHitReader reader;
    private final DuckDbSitemaps sitemaps;
    private final DuckDbUrlStates urlStates;
    private final DuckDbHealth health;
    private final DuckDbSignatures signatures;
    private final DuckDbAlertStore alerts;

    private DuckDbHitStore(DuckDBConnection connection, DuckDbFailures failures, long commitRows, DuckDbSettings settings)
            throws SQLException {
        this.connection = connection;
        this.location = failures.location();
        this.failures = failures;
        try (Statement st = connection.createStatement()) {
            st.execute("SET memory_limit = '" + settings.memoryLimit() + "'");
            DuckDbSchema.prepare(connection, location);
            // optimistic writes compress and write row groups as they fill; by default DuckDB
            // holds five before writing them, which raises an import's peak memory
            st.execute("SET write_buffer_row_group_count = 1");
            if (settings.giveBack()) {
                // DuckDB's allocator gives pages back to the system only as it allocates again (a second after
                // they were freed): a server idle after its start-up counts, which freed 500-700 MB of hash
                // tables and results on a 10,000,000-hit store, kept them resident until its next request.
                // Its background thread gives them back while nothing is asked (a process-wide setting).
                st.execute("SET allocator_background_threads = true");
            }
            loadVerdictHistory(st);
            if (!settings.appendLimit().equals(settings.memoryLimit())) {
                // lowered once the store is open (a migration and the verdicts' load take the whole limit)
                st.execute("SET memory_limit = '" + settings.appendLimit() + "'");
                // and three quarters of it kept by DuckDB's block allocator, which never gives it back: under the lower
                // limit DuckDB frees the blocks it wrote sooner, and its allocator gave their pages back to the system and
                // touched fresh ones for the next (an import of 5,000,000 lines: 210-260k page faults against 125-140k,
                // 0.2-0.3 s more system time); with 48MB kept, 136-145k (32MB: 170-176k)
                st.execute("SET block_allocator_memory = '" + StoreLimits.bytes(settings.appendLimit()) * 3 / 4 / 1000 + "KB'");
            }
        }
        this.query = new DuckDbQuery(connection, failures, settings.readers());
        // the verdicts are written by the writer, and updated and read through it (it exists by then)
        this.verdicts = new DuckDbVerdicts(connection, query, this::hitWriter);
        this.writer = new DuckDbHitWriter(connection, location, failures, commitRows, verdicts, query, claims);
        this.sitemaps = new DuckDbSitemaps((DuckDBConnection) connection.duplicate(), failures, settings.appendLimit(),
                settings.sitemapMemory());
        this.urlStates = new DuckDbUrlStates(connection, query, claims, writer, location, sitemaps, settings.memoryLimit(),
                settings.appendLimit());
        this.reader = new DuckDbHitReader(query, claims, writer, urlStates, sitemaps);
        this.health = new DuckDbHealth(failures, query, writer, reader);
        this.signatures = new DuckDbSignatures(connection, failures);
        this.alerts = new DuckDbAlertStore(connection, failures);
    }

    @Override
    public SitemapStore sitemaps() {
        return sitemaps;
    }

    /**
     * Reads every claim's verdicts into {@link #claims}, after dropping what is older than
     * {@link #VERDICT_HISTORY} but each claim's newest verdict before then: the snapshots older
     * than that cut are no longer answered (they are too old, and say so).
     */
    private void loadVerdictHistory(Statement st) throws SQLException {
        String old = "recorded_at < now() - " + VERDICT_HISTORY;
        long horizon;
        try (ResultSet rs = st.executeQuery("SELECT coalesce(max(version), 0), count(*) FROM verdict_log l WHERE " + old
                + " AND version < (SELECT max(version) FROM verdict_log m WHERE m.claim_id = l.claim_id AND m." + old + ")")) {
            rs.next();
            horizon = rs.getLong(2) > 0 ? rs.getLong(1) : 0;
        }
        if (horizon > 0) {
            try (ResultSet rs = st.executeQuery("SELECT coalesce(max(version), 0) FROM verdict_log WHERE " + old)) {
                rs.next();
                horizon = rs.getLong(1);
            }
            st.execute("DELETE FROM verdict_log WHERE " + old + " AND version < (SELECT max(version) FROM verdict_log m"
                    + " WHERE m.claim_id = verdict_log.claim_id AND m." + old + ")");
            st.execute("INSERT OR REPLACE INTO store_meta SELECT 'verdict_horizon', greatest(" + horizon
                    + ", coalesce((SELECT value::BIGINT FROM store_meta WHERE key = 'verdict_horizon'), 0))::VARCHAR");
        }
        try (ResultSet rs = st.executeQuery("SELECT coalesce((SELECT value::BIGINT FROM store_meta WHERE key = 'verdict_horizon'), 0)")) {
            rs.next();
            claims.horizon(rs.getLong(1));
        }
        // each distinct verdict read once, and the log as numbers: DuckDB's driver makes a string of every
        // text value a row holds, and the log repeats a few hundred verdicts across all its rows
        List<Verification> verifications = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        try (ResultSet rs = st.executeQuery("SELECT DISTINCT verification, reason FROM verdict_log ORDER BY 1, 2")) {
            while (rs.next()) {
                verifications.add(Verification.valueOf(rs.getString(1)));
                reasons.add(rs.getString(2));
            }
        }
        try (ResultSet rs = st.executeQuery("SELECT claim_id, version, dense_rank() OVER (ORDER BY verification, reason)::INTEGER - 1"
                + " FROM verdict_log ORDER BY version")) {
            while (rs.next()) {
                int verdict = rs.getInt(3);
                claims.record(rs.getInt(1), rs.getLong(2), verifications.get(verdict), reasons.get(verdict));
            }
        }
    }

    /** The store's schema version, recorded now as {@link #SCHEMA_VERSION} when it has none (new, or made before versions). */
    private static int schemaVersion(Statement st) throws SQLException {
        st.execute("INSERT OR IGNORE INTO store_info VALUES ('schema_version', '" + SCHEMA_VERSION + "')");
        try (ResultSet rs = st.executeQuery("SELECT value FROM store_info WHERE key = 'schema_version'")) {
            rs.next();
            return Integer.parseInt(rs.getString(1));
        }
    }

    /** Opens (creating if needed) the store in {@code file}, with DuckDB's default worker threads (one per core). */
    public static DuckDbHitStore open(Path file) {
        return open(file, DuckDbSettings.SERVE);
    }

    /** Opens (creating if needed) the store in {@code file}, taking what {@code settings} allow. */
    public static DuckDbHitStore open(Path file, DuckDbSettings settings) {
        return open(file, settings, DuckDbHitWriter.COMMIT_ROWS);
    }

    /**
     * Opens (creating if needed) the store in {@code file}.
     *
     * @param threads DuckDB's worker threads, 0 for its default (one per core). An import passes 1:
     *                its parsers use the cores, and DuckDB's second worker spent its time spinning
     *                for commit tasks
     */
    public static DuckDbHitStore open(Path file, int threads) {
        return open(file, new DuckDbSettings(threads, DuckDbSettings.SERVE.memoryLimit(), DuckDbSettings.SERVE.readers(),
                DuckDbSettings.SERVE.giveBack()));
    }

    /** {@link #open(Path, int)} committing every {@code commitRows} rows at the latest: for tests. */
    static DuckDbHitStore open(Path file, int threads, long commitRows) {
        return open(file, new DuckDbSettings(threads, DuckDbSettings.SERVE.memoryLimit(), DuckDbSettings.SERVE.readers(),
                DuckDbSettings.SERVE.giveBack()), commitRows);
    }

    private static DuckDbHitStore open(Path file, DuckDbSettings settings, long commitRows) {
        String location = file.toAbsolutePath().normalize().toString();
        DuckDbFailures failures = new DuckDbFailures(location);
        Connection c = null;
        try {
            // DuckDB makes the file, its .wal and its spill directory with the mode the umask leaves
            StoreFileModes modes = StoreFileModes.of(file);
            boolean masked = modes.applyToProcess();
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Properties config = new Properties();
            if (settings.threads() > 0) {
                config.setProperty("threads", Integer.toString(settings.threads()));
            }
            DuckDbNativeLibrary.prepare();
            c = DriverManager.getConnection("jdbc:duckdb:" + location, config);
            modes.tighten(file); // a store an earlier version made under umask 022 loses the others' read
            if (!masked) {
                modes.tighten(Path.of(location + ".wal"));
            }
            return new DuckDbHitStore(c.unwrap(DuckDBConnection.class), failures, commitRows, settings);
        } catch (SQLException e) {
            closeQuietly(c);
            throw failures.of("cannot open the store", e);
        } catch (StoreException e) {
            closeQuietly(c);
            throw e;
        } catch (Exception e) {
            closeQuietly(c);
            throw new StoreException("cannot open the store " + location + ": " + Failures.firstLine(e), e);
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // already failing: the first failure is the one to tell
            }
        }
    }

    /**
     * Loads DuckDB's native library (a large one) on a thread of its own, for a command that
     * will open a store once its options are read: the loading then overlaps picocli's reading of
     * the command line instead of following it. A failure is left for the opening to report.
     */
    public static void loadLibraryInBackground() {
        Threads.startDaemon("duckdb-load", () -> {
            try {
                DuckDbNativeLibrary.load();
            } catch (Throwable e) {
                // the store's opening loads it again and says what went wrong
            }
        });
    }

    /** A store that lives in memory only, gone on close. */
    public static DuckDbHitStore inMemory() {
        try {
            DuckDbNativeLibrary.prepare();
            Connection c = DriverManager.getConnection("jdbc:duckdb:");
            return new DuckDbHitStore(c.unwrap(DuckDBConnection.class), new DuckDbFailures("memory"), DuckDbHitWriter.COMMIT_ROWS,
                    DuckDbSettings.SERVE);
        } catch (SQLException e) {
            throw new StoreException("cannot open an in-memory store: " + Failures.firstLine(e), e);
        }
    }

    /** A DuckDB setting as the engine has it now ({@code memory_limit}, {@code threads}). */
    String setting(String name) {
        return query.run("SELECT current_setting(?)::VARCHAR", List.of(name), rs -> {
            rs.next();
            return rs.getString(1);
        });
    }

    @Override
    public String describe() {
        return "DuckDB store " + location + " (" + describeLimits() + ")";
    }

    /** What the engine may take, for the line a server starts with: DuckDB's memory limit and threads. */
    public String describeLimits() {
        return "DuckDB memory limit " + setting("memory_limit") + ", " + Figures.counted(Long.parseLong(setting("threads")), "thread");
    }

    /** The writer, for the verdicts, which are made before it. */
    private DuckDbHitWriter hitWriter() {
        return writer;
    }

    @Override
    public HitWriter writer() {
        return writer;
    }

    @Override
    public HitReader reader() {
        return reader;
    }

    @Override
    public VerdictStore verdicts() {
        return verdicts;
    }

    @Override
    public StoreHealth health() {
        return health;
    }

    @Override
    public SignatureStore signatures() {
        return signatures;
    }

    @Override
    public AlertStore alerts() {
        return alerts;
    }

    @Override
    public synchronized void close() {
        try {
            try {
                urlStates.foldIfWritten();
            } catch (RuntimeException e) {
                // the URLs' states stay behind: the next fold, by a read or a close, does the work; said, not kept quiet
                // (a --db-memory too small for the fold left them behind with no word, the hits all stored)
                Log.LOG.warn("the URLs' states of {} were left behind at its close: {}; the hits are stored; a serve or import"
                        + " of this store brings the URLs page up to date, under a larger --db-memory if this one was too small",
                        ShownText.of(location), ShownText.of(Failures.message(e)));
            }
            writer.close();
        } finally {
            sitemaps.close();
            alerts.close();
            query.close();
            signatures.close();
            closeConnection();
        }
    }

    private void closeConnection() {
        try {
            SQLException failure = new SQLException("cannot close its statements");
            writer.closeStatements(failure);
            connection.close();
            if (failure.getSuppressed().length > 0) {
                throw failure;
            }
        } catch (SQLException e) {
            throw failures.of("cannot close", e);
        }
    }

    /** Made when first needed: most stores never warn. */
    private static final class Log {
        static final Logger LOG = LoggerFactory.getLogger(DuckDbHitStore.class);
    }
}
