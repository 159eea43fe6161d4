package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.ingest.FileStamp;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.BatchInFlight;
import dev.crawlerrors.store.PositionMovedException;
import dev.crawlerrors.store.HitWriter;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.Snapshot;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBFunctions;

/**
 * The store's writes: hits, the verdicts they bring, and how far each log has been read.
 * Appends are buffered and written in batches on the writer's own thread, so an import parses the
 * next chunks while DuckDB writes the last ones. A transaction spans batches until it holds
 * {@link #COMMIT_ROWS} rows, is {@link #COMMIT_NANOS} old, or is flushed: {@link #flush()} (and
 * every read, and close) commits and waits until what was appended is committed. Hits and the
 * progress that covers them are always in the same transaction.
 */
final class DuckDbHitWriter implements HitWriter {

    private final DuckDBConnection connection;
    private final String location;
    private final DuckDbFailures failures;
    private final DuckDbVerdicts verdicts;
    private final DuckDbQuery query;
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

    /** The number of every claim the store knows (committed, or buffered to be), by claim key. */
    private final Map<String, Integer> claimIds = new HashMap<>();
    /**
     * Claims lately found in {@link #claimIds}, by identity, in slots by their hash, with their
     * numbers: the hits of a claim carry one key string, so a claim met again skips the map (whose
     * lookup was a sixth of the import's time on the reading thread after parsing, 83 of 505 samples).
     */
    private final String[] claimsLately = new String[1024];
    private final int[] claimIdsLately = new int[1024];
    private int nextClaim;
    private long nextVersion;
    /** Every committed verdict, with its history, for the readers. */
    private final DuckDbClaims claims;
    /** What the open transaction holds: the largest hit number and the verdicts written (writer side). */
    private long uncommittedMaxId;
    private final List<DuckDbClaimVerdict> uncommittedVerdicts = new ArrayList<>();
    /**
     * Verdicts handed to the writer and not yet in {@link #claims}, by claim: with the buffered ones
     * and the committed ones, what a new verdict is compared with ({@link #updateVerdict}).
     */
    private final Map<Integer, DuckDbClaimVerdict> unpublishedVerdicts = new java.util.concurrent.ConcurrentHashMap<>();
    /** The newest snapshot: what the last commit made visible. */
    private volatile Snapshot committed;
    /** Whether something was appended or updated that no commit has covered yet (appending side). */
    private volatile boolean dirty;
    /** What appends and verdict updates gathered since the last batch went to the writer. */
    private DuckDbBatch buffered = new DuckDbBatch();
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
    private PreparedStatement insertProgress;
    /** Reads the batch being written through {@link #batchSource}; prepared when first needed. */
    private PreparedStatement insertHits;
    /** The batch being written, as a table function, and its name in this store's connection. */
    private final DuckDbBatchSource batchSource = new DuckDbBatchSource();
    private final String batchFunction;
    /** Each batch's hits as their URLs' histories keep them, written beside them. */
    private final DuckDbUrlTail urlTail;
    /** Numbers the table functions: two stores open in one process each register their own. */
    private static final AtomicLong SOURCES = new AtomicLong();
    private long nextId;
    private final long commitRows;
    /** Rows handed to the writer in the transaction it has open, if any (appending side). */
    private long uncommittedRows;
    /** Logs' progress and files handed to the writer in the transaction it has open (appending side). */
    private long uncommittedLogs;
    /**
     * Logs' progress after which a transaction commits though nobody flushed: until it commits, what
     * it holds is kept in memory too ({@link #uncommittedProgress}), and an import of 50,000 small
     * logs holds few hits and many logs.
     */
    static final long COMMIT_LOGS = 10_000;
    /** When the first batch of the open transaction went to the writer; 0 when none is open (appending side). */
    private long uncommittedSince;
    /** Whether the writer thread has a transaction open (writer side). */
    private boolean inTransaction;
    /**
     * Whether no log's progress is committed (since open: a new store, or one that only ever took
     * hits without a log, such as the drain's). Then {@link #imported} knows its answer without a
     * query. On a new store that query was an import's first, before its first line: the logs'
     * planning took 38-50 ms with it and 26-34 ms without (four alternating pairs of an
     * instrumented import, the logs' fingerprints included).
     */
    private volatile boolean noProgressCommitted;
    /**
     * Progress appended that no commit has covered yet, by log key and by file identity: what
     * {@link #imported} and {@link #importedFiles} add to what the store holds. They used to commit
     * first, so the reader would find it; an import of 5,000 small logs committed 5,000 times (each
     * an fsync), and that was nine tenths of its time. Entries go once their commit is done (or
     * rolled back), unless a later one took their place.
     */
    private final Map<String, SourceProgress> uncommittedProgress = new ConcurrentHashMap<>();
    /** How many logs in {@link #uncommittedProgress} have each prefix: most asked about have none. */
    private final Map<String, Integer> uncommittedPrefixes = new ConcurrentHashMap<>();
    /** The prefixes of the logs whose progress is committed, as a filter that rules most logs out without a query. */
    private final DuckDbRecordedPrefixes recordedPrefixes;
    /**
     * Queries {@link #imported} made while the filter was not complete: at the fourth, every
     * committed prefix is read into it. A nightly run over a directory asks about its few new logs
     * in a query or two, and a store of millions of logs is not read for them.
     */
    private int prefixQueries;
    static final int PREFIX_QUERIES_BEFORE_LOADING = 4;
    private final Map<String, SourceProgress> uncommittedFiles = new ConcurrentHashMap<>();
    /** The progress and files written in the transaction the writer has open (writer side). */
    private final List<SourceProgress> transactionProgress = new ArrayList<>();
    private final List<SourceProgress> transactionFiles = new ArrayList<>();
    private PreparedStatement insertFile;
    private PreparedStatement clearProgress;
    private PreparedStatement clearFiles;
    /** Where a batch's progress and files are appended before one statement each moves them (this connection's own). */
    private static final String STAGING = """
            CREATE TEMPORARY TABLE IF NOT EXISTS progress_staging (
              fingerprint VARCHAR, name VARCHAR, bytes_imported BIGINT, lines_imported BIGINT, prefix VARCHAR, check_hash VARCHAR);
            CREATE TEMPORARY TABLE IF NOT EXISTS file_staging (
              file_key VARCHAR, size BIGINT, modified_nanos BIGINT, fingerprint VARCHAR, name VARCHAR, bytes_imported BIGINT,
              lines_imported BIGINT, check_hash VARCHAR)""";

    DuckDbHitWriter(DuckDBConnection connection, String location, DuckDbFailures failures, long commitRows, DuckDbVerdicts verdicts,
            DuckDbQuery query, DuckDbClaims claims) throws SQLException {
        this.connection = connection;
        this.location = location;
        this.failures = failures;
        this.commitRows = commitRows;
        this.verdicts = verdicts;
        this.query = query;
        this.claims = claims;
        try (Statement st = connection.createStatement()) {
            // Registered here, outside any transaction: registered in a batch's transaction, the
            // function went with it when that transaction rolled back.
            batchFunction = "crawl_errors_batch_" + SOURCES.incrementAndGet();
            st.execute(STAGING);
            DuckDBFunctions.tableFunction().withName(batchFunction).withFunction(batchSource).register(connection);
            urlTail = new DuckDbUrlTail(connection);
            // and whether any log's progress is stored: an import asks for it before it reads a line
            try (ResultSet rs = st.executeQuery("SELECT coalesce(max(id), 0), (SELECT count(*) FROM imports) FROM hits")) {
                rs.next();
                nextId = rs.getLong(1) + 1;
                noProgressCommitted = rs.getLong(2) == 0;
                recordedPrefixes = new DuckDbRecordedPrefixes(rs.getLong(2));
            }
            loadClaims(st);
            committed = new Snapshot(nextId - 1, nextVersion - 1);
            firstIdSinceOpen = nextId;
        }
    }

    /** The numbers of the claims recorded, and where numbering goes on. */
    private void loadClaims(Statement st) throws SQLException {
        claimIds.clear();
        java.util.Arrays.fill(claimsLately, null);
        try (ResultSet rs = st.executeQuery("SELECT ip, crawler, claim_id FROM verdicts")) {
            while (rs.next()) {
                claimIds.put(CrawlerHit.claimKey(rs.getString(1), rs.getString(2)), rs.getInt(3));
            }
        }
        try (ResultSet rs = st.executeQuery("SELECT coalesce((SELECT max(claim_id) FROM verdicts), 0),"
                + " coalesce((SELECT max(version) FROM verdict_log), 0)")) {
            rs.next();
            nextClaim = Math.max(nextClaim, rs.getInt(1) + 1);
            nextVersion = Math.max(nextVersion, rs.getLong(2) + 1);
        }
    }

    /** The number the first hit appended after the store opened takes: what a close asks to know whether hits came. */
    private long firstIdSinceOpen;

    /** What the writer adds beside each batch for the URLs' states. */
    DuckDbUrlTail urlTail() {
        return urlTail;
    }

    /** Whether hits were committed since the store opened. */
    boolean wroteSinceOpen() {
        return committed.hits() >= firstIdSinceOpen;
    }

    /**
     * Runs {@code task} on the writer's thread, with everything appended so far committed and no
     * transaction open, and waits for it: its failure is this call's. It may use the writer's
     * connection as it likes, and must leave no transaction open.
     */
    synchronized <T> T exclusive(java.util.function.Function<Snapshot, T> task) {
        flush();
        Future<T> running = writer.submit(() -> task.apply(committed));
        writing = running;
        try {
            BatchInFlight.await(running);
            return running.resultNow();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException runtime ? runtime : new StoreException("cannot write to " + location + ": " + cause, cause);
        } finally {
            writing = null;
        }
    }

    /** Runs {@code task} on the writer's thread after what is queued there now, without waiting (a failure is the task's to report). */
    void later(java.util.function.Consumer<Snapshot> task) {
        try {
            writer.execute(() -> {
                if (!inTransaction) { // between two batches of one transaction: the next request runs it
                    task.accept(committed);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // the store is closing: its close folds what it wrote
        }
    }

    /** The newest snapshot, after committing what was appended and not yet committed. */
    Snapshot snapshot() {
        if (dirty) {
            flush();
        }
        return committed;
    }

    @Override
    public synchronized void append(List<CrawlerHit> hits) {
        dirty = true;
        for (CrawlerHit hit : hits) {
            buffered.add(hit, claim(hit)); // one loop: a loop of its own was one more method for C2 to compile, twice
        }
        if (buffered.hits.size() >= FLUSH_ROWS || System.nanoTime() - lastFlush >= FLUSH_NANOS) {
            startWriting(false);
        }
    }

    /**
     * The number of the hit's claim, numbering it when it is new. A hit's verdict is recorded only
     * when its claim has none yet: a later verdict (a DNS check completing on another thread)
     * arrives through updateVerdict and must not be overwritten by the provisional one the hit was
     * identified with.
     */
    private int claim(CrawlerHit hit) {
        String key = hit.claim();
        int slot = key.hashCode() & (claimsLately.length - 1);
        if (claimsLately[slot] == key) {
            return claimIdsLately[slot];
        }
        Integer known = claimIds.get(key);
        int id;
        if (known == null) {
            id = nextClaim++;
            claimIds.put(key, id);
            buffered.verdicts.put(key, new DuckDbClaimVerdict(id, hit.hit().ip(), hit.claimCrawler(), hit.verdict(), nextVersion++));
        } else {
            id = known;
        }
        claimsLately[slot] = key;
        claimIdsLately[slot] = id;
        return id;
    }

    /**
     * Appends hits with their log's position, by compare-and-set: only when the position the store
     * has of the log, counting what was appended and not committed yet, is {@code from}. Every
     * writer of this store's file writes through this one (DuckDB lets one process write it, and
     * imports beside serve write through its socket), and under this lock, so the comparison and
     * the append are one step: of two writers of one log, the second is refused and reads on.
     *
     * @throws PositionMovedException when the log is elsewhere now; nothing is appended
     */
    @Override
    public synchronized void append(List<CrawlerHit> hits, SourceProgress from, SourceProgress through) {
        PositionMovedException.check(from, position(from.fingerprint()));
        // buffered before the hits, under the same lock, so the flush that writes them writes it too
        buffered.progress.put(through.fingerprint(), through);
        if (uncommittedProgress.put(through.fingerprint(), through) == null) {
            uncommittedPrefixes.merge(through.prefix(), 1, Integer::sum);
        }
        if (through.file() != null) {
            buffered.files.put(through.file().key(), through);
            uncommittedFiles.put(through.file().key(), through);
        }
        append(hits);
    }

    /**
     * Where the store has the log {@code key} now: as last appended, when that is not committed yet,
     * else as committed; null when it has none. What is appended is looked at first: an entry leaves
     * it only once its commit is done, so a read of the store after finds it there (the readers see
     * the newest commit), and the filter of prefixes holds its prefix by then.
     */
    private SourceProgress position(String key) {
        SourceProgress appended = uncommittedProgress.get(key);
        if (appended != null) {
            return appended;
        }
        if (noProgressCommitted || !recordedPrefixes.mayHold(SourceProgress.prefixOf(key))) {
            return null;
        }
        return query.run("SELECT fingerprint, name, bytes_imported, lines_imported, check_hash FROM imports WHERE fingerprint = ?",
                List.of(key), rs -> rs.next() ? new SourceProgress(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4),
                        rs.getString(5), null) : null);
    }

    /**
     * The progress recorded of the logs whose key begins with one of {@code prefixes}: what is
     * committed, and what was appended since, without committing it.
     */
    @Override
    public List<SourceProgress> imported(Collection<String> prefixes) {
        if (prefixes.isEmpty()) {
            return List.of();
        }
        // what is appended is looked at before the store: an entry committed in between is in the store by then
        Map<String, SourceProgress> found = new HashMap<>();
        Set<String> wanted = prefixes instanceof Set<String> set ? set : new HashSet<>(prefixes);
        if (holdsAnyUncommitted(wanted)) {
            for (SourceProgress progress : uncommittedProgress.values()) {
                if (wanted.contains(progress.prefix())) {
                    found.put(progress.fingerprint(), progress);
                }
            }
        }
        List<String> asked = noProgressCommitted ? List.of() : mayBeCommitted(wanted);
        if (!asked.isEmpty()) {
            List<SourceProgress> stored = query.run("SELECT fingerprint, name, bytes_imported, lines_imported, check_hash"
                    + " FROM imports WHERE prefix IN (SELECT unnest(?::VARCHAR[]))", List.of(DuckDbQuery.Array.strings(asked)), rs -> {
                        List<SourceProgress> rows = new ArrayList<>();
                        while (rs.next()) {
                            rows.add(new SourceProgress(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4),
                                    rs.getString(5), null));
                        }
                        return rows;
                    });
            for (SourceProgress progress : stored) {
                found.merge(progress.fingerprint(), progress, DuckDbHitWriter::furthest);
            }
        }
        return new ArrayList<>(found.values());
    }

    private boolean holdsAnyUncommitted(Set<String> prefixes) {
        if (uncommittedPrefixes.isEmpty()) {
            return false;
        }
        for (String prefix : prefixes) {
            if (uncommittedPrefixes.containsKey(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** Of {@code prefixes}, those the store may have committed, by the filter (read whole at the {@value #PREFIX_QUERIES_BEFORE_LOADING}th query). */
    private List<String> mayBeCommitted(Set<String> prefixes) {
        if (!recordedPrefixes.complete() && ++prefixQueries >= PREFIX_QUERIES_BEFORE_LOADING) {
            query.run("SELECT prefix FROM imports", List.of(), rs -> {
                while (rs.next()) {
                    recordedPrefixes.add(rs.getString(1));
                }
                return null;
            });
            recordedPrefixes.loaded(); // what commits while it was read, its commit added
        }
        List<String> asked = new ArrayList<>();
        for (String prefix : prefixes) {
            if (recordedPrefixes.mayHold(prefix)) {
                asked.add(prefix);
            }
        }
        return asked;
    }

    /**
     * {@link dev.crawlerrors.store.HitWriter#unchangedLines}: a re-run over 50,000 unchanged files
     * decoded all eight columns of every recorded file to compare the stamps. Now, when the store
     * records no more than {@value #SCAN_RECORDED_FILES} times as many files as are asked about, it reads the four
     * columns that tell of all of them in one pass; otherwise (a nightly run over a few years of
     * logs) it hands the stamps to a query that compares them, which costs some 3 us a stamp in
     * DuckDB's list parameters (50,000 files: 43-125 ms a pass against 163-255 ms, warm).
     */
    @Override
    public long[] unchangedLines(List<FileStamp> stamps) {
        long[] lines = new long[stamps.size()];
        Arrays.fill(lines, -1);
        // what was appended since the last commit is newer than what the store holds
        int[] asked = new int[stamps.size()];
        int count = 0;
        for (int i = 0; i < lines.length; i++) {
            FileStamp stamp = stamps.get(i);
            SourceProgress appended = stamp == null || uncommittedFiles.isEmpty() ? null : uncommittedFiles.get(stamp.key());
            if (appended != null) {
                lines[i] = appended.file().equals(stamp) ? appended.lines() : -1;
            } else if (stamp != null) {
                asked[count++] = i;
            }
        }
        if (count == 0 || noProgressCommitted) {
            return lines;
        }
        long recorded = query.run("SELECT count(*) FROM import_files", List.of(), rs -> rs.next() ? rs.getLong(1) : 0L);
        if (recorded <= (long) SCAN_RECORDED_FILES * count) {
            scanFiles(stamps, asked, count, lines);
        } else {
            compareFiles(stamps, asked, count, lines);
        }
        return lines;
    }

    /** {@link #unchangedLines} by files recorded, at most so many times as many as the files asked about. */
    static final int SCAN_RECORDED_FILES = 4;

    /** Compares the stamps at {@code asked[0, count)} with every recorded file's, read in one pass. */
    private void scanFiles(List<FileStamp> stamps, int[] asked, int count, long[] lines) {
        Map<String, Integer> wanted = new HashMap<>(count * 2);
        for (int j = 0; j < count; j++) {
            wanted.put(stamps.get(asked[j]).key(), asked[j]);
        }
        query.run("SELECT file_key, size, modified_nanos, lines_imported FROM import_files", List.of(), rs -> {
            while (rs.next()) {
                noteUnchanged(rs, stamps, wanted, lines);
            }
            return null;
        });
    }

    /** A method of its own, run for each recorded file: compiled early (see LogFiles.expand). */
    private static void noteUnchanged(ResultSet rs, List<FileStamp> stamps, Map<String, Integer> wanted, long[] lines) throws SQLException {
        Integer i = wanted.get(rs.getString(1));
        if (i != null) {
            FileStamp stamp = stamps.get(i);
            if (stamp.size() == rs.getLong(2) && stamp.modifiedNanos() == rs.getLong(3)) {
                lines[i] = rs.getLong(4);
            }
        }
    }

    /** Compares the stamps at {@code asked[0, count)} in a query that is handed them. */
    private void compareFiles(List<FileStamp> stamps, int[] asked, int count, long[] lines) {
        String[] keys = new String[count];
        Long[] sizes = new Long[count];
        Long[] modified = new Long[count];
        for (int j = 0; j < count; j++) {
            FileStamp stamp = stamps.get(asked[j]);
            keys[j] = stamp.key();
            sizes[j] = stamp.size();
            modified[j] = stamp.modifiedNanos();
        }
        query.run("SELECT w.i, f.lines_imported FROM (SELECT unnest(?::VARCHAR[]) AS k, unnest(?::BIGINT[]) AS s,"
                + " unnest(?::BIGINT[]) AS m, unnest(range(?)) AS i) w"
                + " JOIN import_files f ON f.file_key = w.k AND f.size = w.s AND f.modified_nanos = w.m",
                List.of(new DuckDbQuery.Array("VARCHAR", keys), new DuckDbQuery.Array("BIGINT", sizes), new DuckDbQuery.Array("BIGINT", modified),
                        (long) count), rs -> {
                    while (rs.next()) {
                        lines[asked[(int) rs.getLong(1)]] = rs.getLong(2);
                    }
                    return null;
                });
    }

    /**
     * The files among {@code keys} (file identities, {@link dev.crawlerrors.ingest.FileStamp#key()})
     * recorded as read to their end, with the stamp they had then.
     */
    @Override
    public List<SourceProgress> importedFiles(Collection<String> keys) {
        if (keys.isEmpty()) {
            return List.of();
        }
        Map<String, SourceProgress> found = new HashMap<>();
        Set<String> wanted = keys instanceof Set<String> set ? set : new HashSet<>(keys);
        for (SourceProgress progress : uncommittedFiles.values()) {
            if (wanted.contains(progress.file().key())) {
                found.put(progress.file().key(), progress);
            }
        }
        if (!noProgressCommitted) {
            List<SourceProgress> stored = query.run("SELECT file_key, size, modified_nanos, fingerprint, name, bytes_imported,"
                    + " lines_imported, check_hash FROM import_files WHERE file_key IN (SELECT unnest(?::VARCHAR[]))",
                    List.of(DuckDbQuery.Array.strings(keys)), rs -> {
                        List<SourceProgress> rows = new ArrayList<>();
                        while (rs.next()) {
                            rows.add(new SourceProgress(rs.getString(4), rs.getString(5), rs.getLong(6), rs.getLong(7), rs.getString(8),
                                    new FileStamp(rs.getString(1), rs.getLong(2), rs.getLong(3))));
                        }
                        return rows;
                    });
            for (SourceProgress progress : stored) {
                found.putIfAbsent(progress.file().key(), progress); // what was appended since is newer
            }
        }
        return new ArrayList<>(found.values());
    }

    /** Whether any log's progress is committed, or was appended since the store opened. */
    @Override
    public boolean recordsProgress() {
        return !noProgressCommitted || !uncommittedProgress.isEmpty();
    }

    /** Of two records of one log, the one read further (a log's progress only grows). */
    private static SourceProgress furthest(SourceProgress a, SourceProgress b) {
        return b.bytes() > a.bytes() ? b : a;
    }

    /**
     * Buffers a verdict that changed, to be written with the next batch. One the claim has already
     * (a re-check that found what the last check found) records nothing: a new verdict number would
     * move the snapshot, and every page and count would be read again for nothing.
     */
    synchronized void updateVerdict(String ip, String crawler, Verdict verdict) {
        String key = CrawlerHit.claimKey(ip, crawler);
        Integer id = claimIds.get(key);
        if (id != null && verdict.equals(latestVerdict(key, id))) {
            return;
        }
        dirty = true;
        if (id == null) {
            id = nextClaim++;
            claimIds.put(key, id);
        }
        buffered.verdicts.put(key, new DuckDbClaimVerdict(id, ip, crawler, verdict, nextVersion++));
    }

    /** The claim's latest verdict: buffered, handed to the writer, or committed; null when it has none. */
    private Verdict latestVerdict(String key, int claim) {
        DuckDbClaimVerdict latest = buffered.verdicts.get(key);
        if (latest == null) {
            latest = unpublishedVerdicts.get(claim);
        }
        return latest != null ? latest.verdict() : claims.latest(claim);
    }

    /**
     * Writes what is buffered and commits, and waits until it and every batch before it are
     * committed: when this returns, what was appended is in the store (and in every query).
     */
    @Override
    public synchronized void flush() {
        dirty = false; // before: what is appended while this commits makes the store dirty again
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
        DuckDbBatch batch = buffered;
        buffered = new DuckDbBatch();
        for (DuckDbClaimVerdict verdict : batch.verdicts.values()) {
            unpublishedVerdicts.put(verdict.claim(), verdict);
        }
        batch.firstId = nextId;
        nextId += batch.hits.size();
        uncommittedRows += batch.hits.size();
        uncommittedLogs += batch.progress.size() + batch.files.size();
        batch.commit = commit || uncommittedRows >= commitRows || uncommittedLogs >= COMMIT_LOGS
                || (open && now - uncommittedSince >= COMMIT_NANOS);
        if (batch.commit) {
            uncommittedRows = 0;
            uncommittedLogs = 0;
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
        try {
            BatchInFlight.await(current);
        } catch (ExecutionException e) {
            // the writer rolled the open transaction back: the next batch begins a new one, and
            // the verdicts it held are gone with it, so the next hit of each claim brings its own
            uncommittedRows = 0;
            uncommittedLogs = 0;
            uncommittedSince = 0;
            unpublishedVerdicts.clear();
            try (Statement st = connection.createStatement()) {
                loadClaims(st);
            } catch (SQLException again) {
                e.addSuppressed(again);
            }
            Throwable cause = e.getCause();
            throw cause instanceof StoreException store ? store
                    : new StoreException("cannot write to " + location + ": " + cause, cause);
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
    private void write(DuckDbBatch batch) {
        try {
            if (!inTransaction) {
                connection.setAutoCommit(false); // the next statement begins the transaction
                inTransaction = true;
            }
            try {
                batch.sortByTime();
                writeProgress(batch.progress.values());
                writeFiles(batch.files.values());
                verdicts.write(batch.verdicts.values());
                appendRows(batch);
                if (!batch.hits.isEmpty()) {
                    urlTail.write(batch.hits, batch.claims, batch.firstId);
                }
                uncommittedVerdicts.addAll(batch.verdicts.values());
                if (!batch.hits.isEmpty()) {
                    uncommittedMaxId = Math.max(uncommittedMaxId, batch.firstId + batch.hits.size() - 1);
                }
                if (batch.commit) {
                    connection.commit();
                    for (SourceProgress progress : transactionProgress) {
                        recordedPrefixes.add(progress.prefix()); // before they leave uncommittedProgress (see imported)
                    }
                    inTransaction = false;
                    connection.setAutoCommit(true);
                    publish();
                    if (!transactionProgress.isEmpty()) {
                        noProgressCommitted = false;
                    }
                    forgetUncommitted();
                }
            } catch (SQLException e) {
                inTransaction = false;
                forgetUncommitted(); // rolled back: not recorded after all
                uncommittedVerdicts.clear();
                uncommittedMaxId = 0;
                urlTail.forget();
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
            throw failures.of("cannot write to", e);
        }
    }

    /** After a commit: its verdicts join the claims' histories, and its snapshot becomes the newest. */
    private void publish() {
        long version = committed.verdicts();
        uncommittedVerdicts.sort(java.util.Comparator.comparingLong(DuckDbClaimVerdict::version));
        for (DuckDbClaimVerdict v : uncommittedVerdicts) {
            claims.record(v.claim(), v.version(), v.verdict().verification(), v.verdict().reason());
            unpublishedVerdicts.remove(v.claim(), v); // after: the claim's latest is always in one of the two
            version = Math.max(version, v.version());
        }
        committed = new Snapshot(Math.max(committed.hits(), uncommittedMaxId), version);
        uncommittedVerdicts.clear();
        uncommittedMaxId = 0;
    }

    /** The appended progress the open transaction covered leaves {@link #uncommittedProgress}, unless newer took its place. */
    private void forgetUncommitted() {
        for (SourceProgress progress : transactionProgress) {
            if (uncommittedProgress.remove(progress.fingerprint(), progress)) {
                uncommittedPrefixes.computeIfPresent(progress.prefix(), (prefix, n) -> n == 1 ? null : n - 1);
            }
        }
        for (SourceProgress progress : transactionFiles) {
            uncommittedFiles.remove(progress.file().key(), progress);
        }
        transactionProgress.clear();
        transactionFiles.clear();
    }

    /**
     * Records how far each log got, and the files read to their end. Through an Appender into this
     * connection's staging tables, then one statement each: executed a row at a time, as a batch of
     * a prepared statement is, 5,000 small logs' rows took the writer seconds.
     */
    private void writeProgress(Collection<SourceProgress> progresses) throws SQLException {
        if (progresses.isEmpty()) {
            return;
        }
        if (insertProgress == null) {
            // prepared once: planning it for every batch was 3% of the writer thread
            clearProgress = connection.prepareStatement("DELETE FROM progress_staging");
            insertProgress = connection.prepareStatement("INSERT OR REPLACE INTO imports"
                    + " (fingerprint, name, bytes_imported, lines_imported, imported_at, prefix, check_hash)"
                    + " SELECT fingerprint, name, bytes_imported, lines_imported, now(), prefix, check_hash FROM progress_staging");
        }
        clearProgress.execute(); // a statement first: the Appender joins the open transaction only once one began it
        try (DuckDBAppender appender = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "progress_staging")) {
            for (SourceProgress progress : progresses) {
                appender.beginRow().append(progress.fingerprint()).append(progress.name()).append(progress.bytes())
                        .append(progress.lines()).append(progress.prefix());
                orNull(appender, progress.check()).endRow();
            }
        }
        insertProgress.executeUpdate();
        transactionProgress.addAll(progresses);
    }

    private static DuckDBAppender orNull(DuckDBAppender appender, String value) throws SQLException {
        return value == null ? appender.appendNull() : appender.append(value);
    }

    /** Records the files read to their end, by their identity, with the stamp they had. */
    private void writeFiles(Collection<SourceProgress> files) throws SQLException {
        if (files.isEmpty()) {
            return;
        }
        if (insertFile == null) {
            clearFiles = connection.prepareStatement("DELETE FROM file_staging");
            insertFile = connection.prepareStatement("INSERT OR REPLACE INTO import_files (file_key, size, modified_nanos, fingerprint,"
                    + " name, bytes_imported, lines_imported, check_hash, imported_at)"
                    + " SELECT file_key, size, modified_nanos, fingerprint, name, bytes_imported, lines_imported, check_hash, now()"
                    + " FROM file_staging");
        }
        clearFiles.execute();
        try (DuckDBAppender appender = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "file_staging")) {
            for (SourceProgress file : files) {
                appender.beginRow().append(file.file().key()).append(file.file().size()).append(file.file().modifiedNanos())
                        .append(file.fingerprint()).append(file.name()).append(file.bytes()).append(file.lines());
                orNull(appender, file.check()).endRow();
            }
        }
        insertFile.executeUpdate();
        transactionFiles.addAll(files);
    }

    /**
     * The hits of one batch, through {@link DuckDbBatchSource}: one statement reads them column by column,
     * each string column of a 2,048-row chunk in one call. The Appender it replaces took a JNI call
     * per string and, every 2,048 rows, copied the chunk once more and planned an INSERT of its own:
     * together a third of the writer thread.
     */
    private void appendRows(DuckDbBatch batch) throws SQLException {
        if (batch.hits.isEmpty()) {
            return;
        }
        if (insertHits == null) {
            // the function hands over the time in microseconds: a TIMESTAMP vector has no setter
            // that takes them, and make_timestamp is one vectorised step
            // and its numbers as BIGINT or DOUBLE with markers for NULL, each type set by one loop
            insertHits = connection.prepareStatement("INSERT INTO hits SELECT id, make_timestamp(ts_micros),"
                    + " utc_offset_minutes::SMALLINT, ip, method, url, status::SMALLINT,"
                    + " if(bytes_or_negative < 0, NULL, bytes_or_negative), if(isnan(duration_ms_or_nan), NULL, duration_ms_or_nan),"
                    + " crawler, bot_type, user_agent, referer, host, claim_id::INTEGER, location FROM " + batchFunction + "()");
        }
        batchSource.hits = batch.hits;
        batchSource.claims = batch.claims;
        batchSource.firstId = batch.firstId;
        try {
            insertHits.execute();
        } finally {
            batchSource.hits = null;
        }
    }

    /** Commits what is buffered and stops the writer's thread. */
    synchronized void close() {
        try {
            flush();
        } finally {
            writer.shutdown();
        }
    }

    /** Closes the prepared statements, to be prepared again when next needed; failures go to {@code failure}. */
    void closeStatements(SQLException failure) {
        verdicts.closeStatements(failure);
        urlTail.closeStatement();
        for (PreparedStatement st : new PreparedStatement[] {insertProgress, insertHits, insertFile, clearProgress, clearFiles}) {
            try {
                if (st != null) {
                    st.close();
                }
            } catch (SQLException e) {
                failure.addSuppressed(e);
            }
        }
        insertProgress = null;
        insertHits = null;
        insertFile = null;
        clearProgress = null;
        clearFiles = null;
    }
}
