package dev.crawlerrors.store;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SourceProgress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBColumnType;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBDataChunkWriter;
import org.duckdb.DuckDBFunctions;
import org.duckdb.DuckDBTableFunction;
import org.duckdb.DuckDBTableFunctionBindInfo;
import org.duckdb.DuckDBTableFunctionCallInfo;
import org.duckdb.DuckDBTableFunctionInitInfo;
import org.duckdb.DuckDBWritableVector;

/**
 * The embedded store: one DuckDB file. Hits go in column by column, one statement per batch (see
 * {@link BatchSource}); verdicts live in their own table keyed by address and crawler, so a verdict that changes
 * later (a DNS check completing) is one row to update, and every query shows the verdict as of now.
 * How far each log has been imported is kept in {@code imports}, by content fingerprint, written
 * in the same transaction as the hits it covers.
 *
 * <p>Appends are buffered and written in batches on the store's own writer thread, so an import
 * parses the next chunks while DuckDB writes the last ones. A transaction spans batches until it
 * holds {@link #COMMIT_ROWS} rows, is {@link #COMMIT_NANOS} old, or is flushed: {@link #flush()}
 * (and every read, and close) commits and waits until what was appended is committed. Hits and
 * the progress that covers them are always in the same transaction.
 *
 * <p>Reads use a duplicate of the one connection per query, which DuckDB allows from any thread.
 */
public final class DuckDbHitStore implements HitStore {

    private static final String SCHEMA = """
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
              host VARCHAR
            );
            CREATE TABLE IF NOT EXISTS verdicts (
              ip VARCHAR NOT NULL,
              crawler VARCHAR NOT NULL,
              verification VARCHAR NOT NULL,
              reason VARCHAR NOT NULL,
              checked_at TIMESTAMP NOT NULL,
              PRIMARY KEY (ip, crawler)
            );
            CREATE TABLE IF NOT EXISTS imports (
              fingerprint VARCHAR PRIMARY KEY,
              name VARCHAR NOT NULL,
              bytes_imported BIGINT NOT NULL,
              lines_imported BIGINT NOT NULL,
              imported_at TIMESTAMP NOT NULL
            );
            """;

    /** The verdicts of the batch being written; TEMP: this connection's own, in memory, never in the file. */
    private static final String VERDICT_STAGING = """
            CREATE TEMP TABLE verdict_staging (
              ip VARCHAR NOT NULL,
              crawler VARCHAR NOT NULL,
              verification VARCHAR NOT NULL,
              reason VARCHAR NOT NULL,
              changed BOOLEAN NOT NULL
            )""";
    private static final String VERDICT = "coalesce(v.verification, 'unverified')";
    private static final String FROM = " FROM hits h LEFT JOIN verdicts v ON v.ip = h.ip AND v.crawler = h.crawler ";
    private static final String COLUMNS = "SELECT h.id, epoch_ms(h.ts), h.utc_offset_minutes, h.ip, h.method, h.url, h.status,"
            + " h.duration_ms, h.crawler, h.bot_type, " + VERDICT + ", coalesce(v.reason, 'not checked yet'),"
            + " h.user_agent, h.host";
    private static final String ORDER = " ORDER BY h.ts DESC, h.id DESC";

    private final DuckDBConnection connection;
    private final String location;
    /** Rows buffered before a flush; a flush also happens before every read. */
    private static final int FLUSH_ROWS = 50_000;
    private static final long FLUSH_NANOS = 1_000_000_000L;
    /** DuckDB's row group, the unit it compresses and writes (the default, which stores here are created with). */
    static final int ROW_GROUP_ROWS = 122_880;
    /**
     * Rows after which a transaction commits though nobody flushed. DuckDB writes the row groups of
     * a transaction that appends at least a whole one straight to the database file, compressed
     * once ("optimistic writes"); a smaller commit goes to the write-ahead log first, and the
     * checkpoint then reads it back to compress it. Four row groups per commit took the writer
     * from committing every 50,000 rows to a fifth less CPU and a tenth of the commits, and it
     * bounds what a crash costs: at most this much is read again on resume.
     */
    static final long COMMIT_ROWS = 4L * ROW_GROUP_ROWS;
    /** The age at which a transaction commits though nobody flushed: what a crash loses of a slow import. */
    private static final long COMMIT_NANOS = 10_000_000_000L;
    private static final Comparator<CrawlerHit> BY_TIME = Comparator.comparingLong(hit -> hit.hit().epochMillis());

    private final Set<String> verdictsKnown = new HashSet<>();
    /**
     * Claims lately found in {@link #verdictsKnown}, by identity, in slots by their hash: the hits of
     * a claim carry one key string, so a claim met again skips the set (whose lookup was a sixth of
     * the import's time on the reading thread after parsing, 83 of 505 samples).
     */
    private final String[] verdictsKnownLately = new String[1024];
    /** What appends and verdict updates gathered since the last batch went to the writer. */
    private Batch buffered = new Batch();
    private long lastFlush = System.nanoTime();
    /**
     * Writes batches on its own thread, one at a time, so the thread that appends (the import's
     * reader) goes on reading while DuckDB takes the previous batch: at most one batch is being
     * written and one is being filled, which bounds memory.
     */
    private final ExecutorService writer = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "store-writer");
        thread.setDaemon(true);
        return thread;
    });
    /** The batch being written, if any. */
    private Future<?> writing;
    /** The statements that move staged verdicts into verdicts; made on the writer thread when first needed. */
    private PreparedStatement clearVerdictStaging;
    private PreparedStatement insertFirstVerdicts;
    private PreparedStatement insertChangedVerdicts;
    private PreparedStatement insertProgress;
    /** Reads the batch being written through {@link BatchSource}; prepared when first needed. */
    private PreparedStatement insertHits;
    /** The name of this store's {@link BatchSource}. */
    private final String batchFunction;
    /** Numbers the table functions: two stores open in one process each register their own. */
    private static final AtomicLong SOURCES = new AtomicLong();
    /**
     * The hits {@link #insertHits} reads, set on the writer thread around that statement. Volatile:
     * with more than one DuckDB worker thread the function may run on one of DuckDB's threads.
     */
    private volatile List<CrawlerHit> source;
    private volatile long sourceFirstId;
    private long nextId;
    private final long commitRows;
    /** Rows handed to the writer in the transaction it has open, if any (appending side). */
    private long uncommittedRows;
    /** When the first batch of the open transaction went to the writer; 0 when none is open (appending side). */
    private long uncommittedSince;
    /** Whether the writer thread has a transaction open (writer side). */
    private boolean inTransaction;
    /**
     * Whether no log's progress is stored or buffered (since open: a new store, or one that only
     * ever took hits without a log, such as the drain's). Then {@link #imported} knows its answer
     * without a query. On a new store that query was an import's first, before its first line: the
     * logs' planning took 38-50 ms with it and 26-34 ms without (four alternating pairs of an
     * instrumented import, the logs' fingerprints included).
     */
    private volatile boolean noProgressStored;

    private DuckDbHitStore(DuckDBConnection connection, String location, long commitRows) throws SQLException {
        this.connection = connection;
        this.location = location;
        this.commitRows = commitRows;
        try (Statement st = connection.createStatement()) {
            st.execute(SCHEMA);
            // optimistic writes compress and write row groups as they fill; by default DuckDB
            // holds five before writing them, and a 5M-line import peaked 200 MB higher for it
            st.execute("SET write_buffer_row_group_count = 1");
            // a batch's verdicts go in through an Appender into this connection's own staging table,
            // then into verdicts by two fixed statements (prepared once, whatever the number of rows)
            st.execute(VERDICT_STAGING);
            // Registered here, outside any transaction: registered in a batch's transaction, the
            // function went with it when that transaction rolled back.
            batchFunction = "crawl_errors_batch_" + SOURCES.incrementAndGet();
            DuckDBFunctions.tableFunction().withName(batchFunction).withFunction(new BatchSource()).register(connection);
            // and whether any log's progress is stored: an import asks for it before it reads a line
            try (ResultSet rs = st.executeQuery("SELECT coalesce(max(id), 0), (SELECT count(*) FROM imports) = 0 FROM hits")) {
                rs.next();
                nextId = rs.getLong(1) + 1;
                noProgressStored = rs.getBoolean(2);
            }
        }
    }

    /** Opens (creating if needed) the store in {@code file}, with DuckDB's default worker threads (one per core). */
    public static DuckDbHitStore open(Path file) {
        return open(file, 0);
    }

    /**
     * Opens (creating if needed) the store in {@code file}.
     *
     * @param threads DuckDB's worker threads, 0 for its default (one per core). An import passes 1:
     *                its parsers use the cores, and DuckDB's second worker spent its time spinning
     *                for commit tasks (about 5% of an import's CPU in the profile)
     */
    public static DuckDbHitStore open(Path file, int threads) {
        return open(file, threads, COMMIT_ROWS);
    }

    /** {@link #open(Path, int)} committing every {@code commitRows} rows at the latest: for tests. */
    static DuckDbHitStore open(Path file, int threads, long commitRows) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Properties config = new Properties();
            if (threads > 0) {
                config.setProperty("threads", Integer.toString(threads));
            }
            DuckDbNativeLibrary.prepare();
            Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath(), config);
            return new DuckDbHitStore(c.unwrap(DuckDBConnection.class), file.toString(), commitRows);
        } catch (Exception e) {
            throw new StoreException("cannot open the store " + file + ": " + firstLine(e), e);
        }
    }

    /**
     * Loads DuckDB's native library (70 MB, some 60 ms) on a thread of its own, for a command that
     * will open a store once its options are read: the loading then overlaps picocli's reading of
     * the command line instead of following it. A failure is left for the opening to report.
     */
    public static void loadLibraryInBackground() {
        Thread.ofPlatform().daemon().name("duckdb-load").start(() -> {
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
            return new DuckDbHitStore(c.unwrap(DuckDBConnection.class), "memory", COMMIT_ROWS);
        } catch (SQLException e) {
            throw new StoreException("cannot open an in-memory store: " + firstLine(e), e);
        }
    }

    @Override
    public synchronized void append(List<CrawlerHit> hits) {
        for (CrawlerHit hit : hits) {
            rememberVerdict(hit);
            buffered.add(hit); // one loop: a loop of its own was one more method for C2 to compile, twice
        }
        if (buffered.hits.size() >= FLUSH_ROWS || System.nanoTime() - lastFlush >= FLUSH_NANOS) {
            startWriting(false);
        }
    }

    /**
     * A hit's verdict is recorded only when its address has none yet: a later verdict (a DNS check
     * completing on another thread) arrives through updateVerdict and must not be overwritten by
     * the provisional one the hit was identified with.
     */
    private void rememberVerdict(CrawlerHit hit) {
        String key = hit.claim();
        int slot = key.hashCode() & (verdictsKnownLately.length - 1);
        if (verdictsKnownLately[slot] == key) {
            return;
        }
        if (verdictsKnown.add(key)) {
            buffered.newVerdicts.put(key, new StoredVerdict(hit.hit().ip(), hit.crawler().name(), hit.verdict()));
        }
        verdictsKnownLately[slot] = key;
    }

    @Override
    public synchronized void append(List<CrawlerHit> hits, SourceProgress through) {
        noProgressStored = false;
        // buffered before the hits, under the same lock, so the flush that writes them writes it too
        buffered.progress.put(through.fingerprint(), through);
        append(hits);
    }

    @Override
    public List<SourceProgress> imported(Collection<String> fingerprints) {
        if (fingerprints.isEmpty() || noProgressStored) {
            return List.of();
        }
        String sql = "SELECT fingerprint, name, bytes_imported, lines_imported FROM imports WHERE fingerprint IN ("
                + String.join(", ", Collections.nCopies(fingerprints.size(), "?")) + ")";
        return query(sql, new ArrayList<>(fingerprints), rs -> {
            List<SourceProgress> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(new SourceProgress(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4)));
            }
            return rows;
        });
    }

    @Override
    public synchronized void updateVerdict(String ip, String crawler, Verdict verdict) {
        String key = CrawlerHit.claimKey(ip, crawler);
        verdictsKnown.add(key);
        buffered.newVerdicts.remove(key);
        buffered.changedVerdicts.put(key, new StoredVerdict(ip, crawler, verdict));
    }

    /**
     * Writes what is buffered and commits, and waits until it and every batch before it are
     * committed: when this returns, what was appended is in the store (and in every query).
     */
    @Override
    public synchronized void flush() {
        startWriting(true);
        awaitWriting();
    }

    /**
     * Hands what is buffered to the writer, after the batch before it is written; the batch
     * commits the transaction when {@code commit} says so or the transaction is full or old.
     */
    private void startWriting(boolean commit) {
        long now = System.nanoTime();
        lastFlush = now;
        awaitWriting();
        boolean open = uncommittedSince != 0;
        if (buffered.isEmpty() && !(commit && open)) {
            return;
        }
        Batch batch = buffered;
        buffered = new Batch();
        batch.firstId = nextId;
        nextId += batch.hits.size();
        uncommittedRows += batch.hits.size();
        batch.commit = commit || uncommittedRows >= commitRows || (open && now - uncommittedSince >= COMMIT_NANOS);
        if (batch.commit) {
            uncommittedRows = 0;
            uncommittedSince = 0;
        } else if (!open) {
            uncommittedSince = now;
        }
        writing = writer.submit(() -> {
            write(batch);
            return null;
        });
    }

    /** Waits for the batch being written; its failure is this call's failure. */
    private void awaitWriting() {
        Future<?> current = writing;
        if (current == null) {
            return;
        }
        writing = null;
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    current.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the batch is written whatever happens: wait for it
                }
            }
        } catch (ExecutionException e) {
            // the writer rolled the open transaction back: the next batch begins a new one, and
            // the verdicts it held are gone with it, so the next hit of each claim brings its own
            uncommittedRows = 0;
            uncommittedSince = 0;
            verdictsKnown.clear();
            Arrays.fill(verdictsKnownLately, null);
            Throwable cause = e.getCause();
            throw cause instanceof StoreException store ? store
                    : new StoreException("cannot write to " + location + ": " + cause, cause);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Writes one batch on the writer thread, in the transaction open or a new one: how far each log
     * got, the verdicts, then the hits; then commits if the batch says so. Committing per chunk and
     * per verdict cost two thirds of an import's time (an fsync each); committing per batch made
     * writes cheap, and per several row groups cheaper (see {@link #COMMIT_ROWS}). A failure rolls
     * back the whole open transaction, the batches before this one included, hits and progress
     * alike, and is reported to the appending thread.
     */
    private void write(Batch batch) {
        try {
            if (!inTransaction) {
                connection.setAutoCommit(false); // the next statement begins the transaction
                inTransaction = true;
            }
            try {
                batch.sortByTime();
                writeProgress(batch.progress.values());
                writeVerdicts(batch.newVerdicts.values(), batch.changedVerdicts.values());
                appendRows(batch.hits, batch.firstId);
                if (batch.commit) {
                    connection.commit();
                    inTransaction = false;
                    connection.setAutoCommit(true);
                }
            } catch (SQLException e) {
                inTransaction = false;
                closeStatements(e); // a prepared statement whose execution failed is closed by the driver
                try {
                    connection.rollback();
                } catch (SQLException alreadyRolledBack) { // a failed COMMIT rolls back by itself
                    e.addSuppressed(alreadyRolledBack);
                }
                try {
                    connection.setAutoCommit(true);
                } catch (SQLException again) {
                    e.addSuppressed(again);
                }
                throw e;
            }
        } catch (SQLException e) {
            throw new StoreException("cannot write to " + location + ": " + firstLine(e), e);
        }
    }

    private void writeProgress(Collection<SourceProgress> progresses) throws SQLException {
        if (progresses.isEmpty()) {
            return;
        }
        if (insertProgress == null) {
            // prepared once: planning it for every batch was 3% of the writer thread
            insertProgress = connection.prepareStatement("INSERT OR REPLACE INTO imports VALUES (?, ?, ?, ?, now())");
        }
        for (SourceProgress progress : progresses) {
            insertProgress.setString(1, progress.fingerprint());
            insertProgress.setString(2, progress.name());
            insertProgress.setLong(3, progress.bytes());
            insertProgress.setLong(4, progress.lines());
            insertProgress.addBatch();
        }
        insertProgress.executeBatch();
    }

    /**
     * The hits of one batch, through {@link BatchSource}: one statement reads them column by column,
     * each string column of a 2,048-row chunk in one call. The Appender it replaces took a JNI call
     * per string and, every 2,048 rows, copied the chunk once more and planned an INSERT of its own:
     * together a third of the writer thread.
     */
    private void appendRows(List<CrawlerHit> hits, long firstId) throws SQLException {
        if (hits.isEmpty()) {
            return;
        }
        if (insertHits == null) {
            // the function hands over the time in microseconds: a TIMESTAMP vector has no setter
            // that takes them, and make_timestamp is one vectorised step
            // and its numbers as BIGINT or DOUBLE with markers for NULL, each type set by one loop
            insertHits = connection.prepareStatement("INSERT INTO hits SELECT id, make_timestamp(ts_micros),"
                    + " utc_offset_minutes::SMALLINT, ip, method, url, status::SMALLINT,"
                    + " if(bytes_or_negative < 0, NULL, bytes_or_negative), if(isnan(duration_ms_or_nan), NULL, duration_ms_or_nan),"
                    + " crawler, bot_type, user_agent, referer, host FROM " + batchFunction + "()");
        }
        source = hits;
        sourceFirstId = firstId;
        try {
            insertHits.execute();
        } finally {
            source = null;
        }
    }

    /**
     * Writes verdicts: those of addresses first seen in this batch unless the address already has
     * one (a provisional verdict must not overwrite a final one that arrived first), and those that
     * changed over whatever was there. Runs inside the batch's transaction, after a statement has
     * begun it, so the Appender's rows belong to it too.
     */
    private void writeVerdicts(Collection<StoredVerdict> first, Collection<StoredVerdict> changed) throws SQLException {
        if (first.isEmpty() && changed.isEmpty()) {
            return;
        }
        // a statement before the Appender: DuckDB's Appender joins the open transaction only once
        // a statement has begun it, and appending first would commit its rows on their own
        // (prepared once, as every statement a batch runs: planned again each time, they added up)
        if (clearVerdictStaging == null) {
            clearVerdictStaging = connection.prepareStatement("DELETE FROM verdict_staging");
        }
        clearVerdictStaging.execute();
        try (DuckDBAppender appender = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "verdict_staging")) {
            stage(appender, first, false);
            stage(appender, changed, true);
        }
        if (insertFirstVerdicts == null) {
            insertFirstVerdicts = connection.prepareStatement("INSERT OR IGNORE INTO verdicts "
                    + "SELECT ip, crawler, verification, reason, now() FROM verdict_staging WHERE NOT changed");
            insertChangedVerdicts = connection.prepareStatement("INSERT OR REPLACE INTO verdicts "
                    + "SELECT ip, crawler, verification, reason, now() FROM verdict_staging WHERE changed");
        }
        if (!first.isEmpty()) {
            insertFirstVerdicts.executeUpdate();
        }
        if (!changed.isEmpty()) {
            insertChangedVerdicts.executeUpdate();
        }
    }

    private static void stage(DuckDBAppender appender, Collection<StoredVerdict> verdicts, boolean changed) throws SQLException {
        for (StoredVerdict row : verdicts) {
            appender.beginRow()
                    .append(row.ip())
                    .append(row.crawler())
                    .append(row.verdict().verification().name())
                    .append(row.verdict().reason())
                    .append(changed)
                    .endRow();
        }
    }

    @Override
    public long count(HitFilter filter) {
        List<Object> params = new ArrayList<>();
        String sql = "SELECT count(*)" + FROM + "WHERE " + filter.where(VERDICT, params);
        return query(sql, params, rs -> {
            rs.next();
            return rs.getLong(1);
        });
    }

    @Override
    public List<StoredHit> page(HitFilter filter, long offset, int limit) {
        List<Object> params = new ArrayList<>();
        String sql = COLUMNS + FROM + "WHERE " + filter.where(VERDICT, params) + ORDER + " LIMIT ? OFFSET ?";
        params.add(limit);
        params.add(offset);
        return query(sql, params, rs -> {
            List<StoredHit> rows = new ArrayList<>(limit);
            while (rs.next()) {
                rows.add(row(rs));
            }
            return rows;
        });
    }

    @Override
    public void forEach(HitFilter filter, Consumer<StoredHit> rows) {
        List<Object> params = new ArrayList<>();
        String sql = COLUMNS + FROM + "WHERE " + filter.where(VERDICT, params) + ORDER;
        query(sql, params, rs -> {
            while (rs.next()) {
                rows.accept(row(rs));
            }
            return null;
        });
    }

    @Override
    public List<StoredVerdict> verdicts(Verification verification) {
        return query("SELECT ip, crawler, verification, reason FROM verdicts WHERE verification = ? ORDER BY ip, crawler",
                List.of(verification.name()), rs -> {
                    List<StoredVerdict> rows = new ArrayList<>();
                    while (rs.next()) {
                        rows.add(new StoredVerdict(rs.getString(1), rs.getString(2),
                                new Verdict(Verification.valueOf(rs.getString(3)), rs.getString(4))));
                    }
                    return rows;
                });
    }

    @Override
    public long size() {
        return query("SELECT count(*) FROM hits", List.of(), rs -> {
            rs.next();
            return rs.getLong(1);
        });
    }

    private static StoredHit row(ResultSet rs) throws SQLException {
        double duration = rs.getDouble(8);
        Double durationMs = rs.wasNull() ? null : duration;
        return new StoredHit(rs.getLong(1), rs.getLong(2), rs.getInt(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getInt(7), durationMs, rs.getString(9), rs.getString(10), rs.getString(11),
                rs.getString(12), rs.getString(13), rs.getString(14));
    }

    /**
     * A table function over the batch being written ({@link #source}): DuckDB asks it for chunks of
     * up to 2,048 rows and it fills their vectors, numbers in place, strings a column at a time
     * ({@link DuckDBWritableVector#setStringUtf8Batch}: one JNI call per column and chunk). One
     * scan at a time ({@code setMaxThreads(1)}), so chunks come in order and ids follow the rows.
     *
     * <p>Why a chunk is first read row by row into arrays and then handed over a column at a time
     * through three small loops ({@link #setLongs}, {@link #setDoubles}, {@link #utf8}): each
     * setter of a {@link DuckDBWritableVector} checks the row and the type and takes a lock, and the
     * JIT inlines all of it where it is called. With six setters and six string encodings in one
     * per-row loop, C2 compiled one 50 KB method twice (on stack replacement, as the loop runs
     * 2,048 times a call, then whole), 0.68 s of compile time in a 5M-line import (JFR). A loop
     * that C2 compiles on stack replacement it compiles whole as well, so each loop stays small:
     * here each holds one setter or one encoding, and serves every column of its kind. The
     * SMALLINTs go as BIGINTs and the nulls of the size and the duration as their own markers,
     * turned back by the statement that reads the function ({@link #appendRows}), a vectorised
     * step per chunk.
     */
    private final class BatchSource implements DuckDBTableFunction<Object, BatchSource.Cursor, Object> {

        /** The BIGINT columns, in the order of the function's columns, and their places in it. */
        private static final int ID = 0, MICROS = 1, OFFSET = 2, STATUS = 3, SIZE = 4;
        private static final int[] LONG_COLUMNS = {0, 1, 2, 6, 7};
        private static final int DURATION_COLUMN = 8;
        /** The string columns, in the order of the function's columns, and their places in it. */
        private static final int IP = 0, METHOD = 1, URL = 2, CRAWLER = 3, BOT_TYPE = 4, USER_AGENT = 5, REFERER = 6, HOST = 7;
        private static final int[] STRING_COLUMNS = {3, 4, 5, 9, 10, 11, 12, 13};
        /** The string columns whose values recur as the same string (see {@link Cursor#seen}). */
        private static final boolean[] RECURRING = flags(STRING_COLUMNS.length, IP, METHOD, USER_AGENT);
        private static final int SEEN_SLOTS = 1024;

        private static boolean[] flags(int length, int... set) {
            boolean[] flags = new boolean[length];
            for (int index : set) {
                flags[index] = true;
            }
            return flags;
        }

        /** Where one statement's scan is, and the arrays it fills for each chunk. */
        static final class Cursor {
            int next;
            /** The length of the arrays below: the rows of the chunk being filled. */
            int rows = -1;
            final long[][] longs = new long[LONG_COLUMNS.length][];
            double[] durations;
            /** The strings of the hits, then their UTF-8 bytes; the crawler's only as bytes. */
            final String[][] texts = new String[STRING_COLUMNS.length][];
            final byte[][][] strings = new byte[STRING_COLUMNS.length][][];
            /**
             * A crawler's name and bot type, encoded once: few crawlers, every row has one. By
             * identity (a Crawler is a record, whose hash walks its lists); get and put, as
             * computeIfAbsent, a default method, was compiled on its own besides.
             */
            final Map<Crawler, byte[][]> crawlers = new IdentityHashMap<>();
            /**
             * The bytes of strings met before, by identity, in a table where the newest wins its slot:
             * the combined parser gives each distinct agent and address one string (its
             * RecurringText), so a crawler's agent is encoded once rather than once a hit.
             */
            final String[] seen = new String[SEEN_SLOTS];
            final byte[][] seenBytes = new byte[SEEN_SLOTS][];

            /** Makes the arrays {@code rows} long: setStringUtf8Batch takes a whole array. */
            void size(int rows) {
                if (this.rows == rows) {
                    return;
                }
                this.rows = rows;
                for (int c = 0; c < longs.length; c++) {
                    longs[c] = new long[rows];
                }
                durations = new double[rows];
                for (int c = 0; c < strings.length; c++) {
                    texts[c] = new String[rows];
                    strings[c] = new byte[rows][];
                }
            }

            /** Reads the hits {@code from} on into the arrays, row by row. */
            void read(List<CrawlerHit> hits, int from, long firstId) {
                long[] ids = longs[ID], micros = longs[MICROS], offsets = longs[OFFSET], statuses = longs[STATUS],
                        sizes = longs[SIZE];
                String[] ips = texts[IP], methods = texts[METHOD], urls = texts[URL], agents = texts[USER_AGENT],
                        referers = texts[REFERER], hosts = texts[HOST];
                byte[][] crawlerNames = strings[CRAWLER], botTypes = strings[BOT_TYPE];
                for (int i = 0; i < rows; i++) {
                    CrawlerHit crawlerHit = hits.get(from + i);
                    Hit hit = crawlerHit.hit();
                    ids[i] = firstId + i;
                    micros[i] = hit.epochMillis() * 1000;
                    offsets[i] = (short) hit.offsetMinutes();
                    statuses[i] = (short) hit.status();
                    sizes[i] = hit.bytes(); // negative for none: NULL
                    durations[i] = hit.durationMs(); // NaN for none: NULL
                    ips[i] = hit.ip();
                    methods[i] = hit.method();
                    urls[i] = hit.url();
                    agents[i] = hit.userAgent();
                    referers[i] = hit.referer();
                    hosts[i] = hit.host();
                    byte[][] crawler = crawler(crawlerHit.crawler());
                    crawlerNames[i] = crawler[0];
                    botTypes[i] = crawler[1];
                }
            }

            private byte[][] crawler(Crawler crawler) {
                byte[][] encoded = crawlers.get(crawler);
                if (encoded == null) {
                    encoded = new byte[][] {crawler.name().getBytes(StandardCharsets.UTF_8),
                            crawler.botType().name().getBytes(StandardCharsets.UTF_8)};
                    crawlers.put(crawler, encoded);
                }
                return encoded;
            }
        }

        @Override
        public Object bind(DuckDBTableFunctionBindInfo info) {
            info.addResultColumn("id", DuckDBColumnType.BIGINT)
                    .addResultColumn("ts_micros", DuckDBColumnType.BIGINT)
                    .addResultColumn("utc_offset_minutes", DuckDBColumnType.BIGINT)
                    .addResultColumn("ip", DuckDBColumnType.VARCHAR)
                    .addResultColumn("method", DuckDBColumnType.VARCHAR)
                    .addResultColumn("url", DuckDBColumnType.VARCHAR)
                    .addResultColumn("status", DuckDBColumnType.BIGINT)
                    .addResultColumn("bytes_or_negative", DuckDBColumnType.BIGINT)
                    .addResultColumn("duration_ms_or_nan", DuckDBColumnType.DOUBLE)
                    .addResultColumn("crawler", DuckDBColumnType.VARCHAR)
                    .addResultColumn("bot_type", DuckDBColumnType.VARCHAR)
                    .addResultColumn("user_agent", DuckDBColumnType.VARCHAR)
                    .addResultColumn("referer", DuckDBColumnType.VARCHAR)
                    .addResultColumn("host", DuckDBColumnType.VARCHAR);
            return Boolean.TRUE; // no bind data is needed, but the driver wants some
        }

        @Override
        public Cursor init(DuckDBTableFunctionInitInfo info) {
            info.setMaxThreads(1);
            return new Cursor();
        }

        @Override
        public long apply(DuckDBTableFunctionCallInfo info, DuckDBDataChunkWriter out) {
            Cursor cursor = info.getInitData();
            List<CrawlerHit> hits = source;
            int from = cursor.next;
            int rows = (int) Math.min(out.capacity(), hits.size() - from);
            if (rows <= 0) {
                return 0;
            }
            cursor.size(rows);
            cursor.read(hits, from, sourceFirstId + from);
            for (int c = 0; c < LONG_COLUMNS.length; c++) {
                setLongs(out.vector(LONG_COLUMNS[c]), cursor.longs[c], rows);
            }
            setDoubles(out.vector(DURATION_COLUMN), cursor.durations, rows);
            for (int c = 0; c < STRING_COLUMNS.length; c++) {
                if (RECURRING[c]) {
                    utf8Recurring(cursor.texts[c], cursor.strings[c], rows, cursor);
                } else if (c != CRAWLER && c != BOT_TYPE) {
                    utf8(cursor.texts[c], cursor.strings[c], rows);
                }
                out.vector(STRING_COLUMNS[c]).setStringUtf8Batch(0, cursor.strings[c]); // a null element is a NULL
            }
            cursor.next = from + rows;
            return rows;
        }

        private static void setLongs(DuckDBWritableVector vector, long[] values, int rows) {
            for (int i = 0; i < rows; i++) {
                vector.setLong(i, values[i]);
            }
        }

        private static void setDoubles(DuckDBWritableVector vector, double[] values, int rows) {
            for (int i = 0; i < rows; i++) {
                vector.setDouble(i, values[i]);
            }
        }

        /**
         * Each string's UTF-8 bytes, or null for null: String.getBytes is an intrinsic, a copy for
         * ASCII. The strings are dropped as they are encoded, so a cursor holds no hit's text
         * beyond its chunk.
         */
        private static void utf8(String[] values, byte[][] utf8, int rows) {
            for (int i = 0; i < rows; i++) {
                String value = values[i];
                utf8[i] = value == null ? null : value.getBytes(StandardCharsets.UTF_8);
                values[i] = null;
            }
        }

        /** {@link #utf8}, encoding a string met before only once (by identity: equal strings that are not the same are encoded again). */
        private static void utf8Recurring(String[] values, byte[][] utf8, int rows, Cursor cursor) {
            String[] seen = cursor.seen;
            byte[][] seenBytes = cursor.seenBytes;
            for (int i = 0; i < rows; i++) {
                String value = values[i];
                if (value == null) {
                    utf8[i] = null;
                    continue;
                }
                int slot = System.identityHashCode(value) & (SEEN_SLOTS - 1);
                byte[] bytes;
                if (seen[slot] == value) {
                    bytes = seenBytes[slot];
                } else {
                    bytes = value.getBytes(StandardCharsets.UTF_8);
                    seen[slot] = value;
                    seenBytes[slot] = bytes;
                }
                utf8[i] = bytes;
                values[i] = null;
            }
        }
    }

    /** What goes to the store in one transaction. */
    static final class Batch {
        final List<CrawlerHit> hits = new ArrayList<>();
        /** The latest time of the hits added. */
        private long latestMillis = Long.MIN_VALUE;
        private boolean inTimeOrder = true;
        final Map<String, StoredVerdict> newVerdicts = new LinkedHashMap<>();
        final Map<String, StoredVerdict> changedVerdicts = new LinkedHashMap<>();
        /** The latest position per log; only the latest is worth writing. */
        final Map<String, SourceProgress> progress = new LinkedHashMap<>();
        /** The id of the first hit, given when the batch goes to the writer. */
        long firstId;
        /** Whether the writer commits after this batch (decided when it goes to the writer). */
        boolean commit;

        boolean isEmpty() {
            return hits.isEmpty() && newVerdicts.isEmpty() && changedVerdicts.isEmpty() && progress.isEmpty();
        }

        /** Adds a hit, noting whether every hit so far came no earlier than the one before it. */
        void add(CrawlerHit hit) {
            long millis = hit.hit().epochMillis();
            if (millis < latestMillis) {
                inTimeOrder = false;
            } else {
                latestMillis = millis;
            }
            hits.add(hit);
        }

        /** Whether no hit came earlier than one added before it (hits of one instant are in order). */
        boolean inTimeOrder() {
            return inTimeOrder;
        }

        /**
         * Puts the hits in time order, as far as one batch goes: nginx logs a request when it ends
         * and Apache stamps it with its start, so a log's lines are only nearly in order; DuckDB
         * keeps min and max per row group, which paging by time relies on. A stable sort: hits of
         * one instant keep their log order. Skipped when they came in order, as they almost always
         * do: the check rides on the appends, while the sort's TimSort.countRunAndMakeAscending
         * (with the comparator inlined) was compiled by C2 three times in an import, for nothing.
         */
        void sortByTime() {
            if (!inTimeOrder) {
                hits.sort(BY_TIME);
            }
        }
    }

    private interface Rows<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private <T> T query(String sql, List<Object> params, Rows<T> rows) {
        flush();
        try (Connection c = connection.duplicate(); PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < params.size(); i++) {
                st.setObject(i + 1, params.get(i));
            }
            try (ResultSet rs = st.executeQuery()) {
                return rows.read(rs);
            }
        } catch (SQLException e) {
            throw new StoreException("query on " + location + " failed: " + firstLine(e), e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            flush();
        } finally {
            writer.shutdown();
            closeConnection();
        }
    }

    /** Closes the prepared statements, to be prepared again when next needed; failures go to {@code failure}. */
    private void closeStatements(SQLException failure) {
        for (PreparedStatement st : new PreparedStatement[] {clearVerdictStaging, insertFirstVerdicts, insertChangedVerdicts, insertProgress,
                insertHits}) {
            try {
                if (st != null) {
                    st.close();
                }
            } catch (SQLException e) {
                failure.addSuppressed(e);
            }
        }
        clearVerdictStaging = null;
        insertFirstVerdicts = null;
        insertChangedVerdicts = null;
        insertProgress = null;
        insertHits = null;
    }

    private void closeConnection() {
        try {
            SQLException failure = new SQLException("cannot close its statements");
            closeStatements(failure);
            connection.close();
            if (failure.getSuppressed().length > 0) {
                throw failure;
            }
        } catch (SQLException e) {
            throw new StoreException("cannot close " + location + ": " + firstLine(e), e);
        }
    }

    private static String firstLine(Exception e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

}
