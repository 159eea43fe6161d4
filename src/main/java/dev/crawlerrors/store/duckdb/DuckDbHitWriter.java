package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.ingest.FileStamp;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.BatchInFlight;
import dev.crawlerrors.store.PositionMovedException;
import dev.crawlerrors.store.HitWriter;
import dev.crawlerrors.store.SettledHit;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoredVerdict;
import dev.crawlerrors.text.Threads;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
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
    /**
     * Rows buffered before a flush; a flush also happens before every read. The hits of the batch
     * being filled and of the one being written are what an import holds live on its heap (as
     * objects, ~350 bytes a hit): at 50,000 a batch they outgrew the young generation's survivor
     * spaces (16 MB) and the young collections moved them to the old generation, which the serial
     * collector grows rather than collects (~100 MB of dead hits at 5,000,000 lines, 172 MB of heap
     * pages touched). At 20,000 they fit (4-9 MB survive a young collection), the old generation
     * stays at what lives long (~20 MB), and the import's peak RSS fell from ~380 to ~285 MiB at the
     * same CPU; at 10,000 it fell ~10 MiB more but the writer's statements per batch cost ~6% more
     * CPU. See BENCHMARKS.md, "The import's batches sized to the young generation".
     */
    private static final int FLUSH_ROWS = 20_000;
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

    /**
     * The number of every claim the store knows (committed, or buffered to be), by claim key; read
     * from the store when a hit or a verdict first needs it ({@link #claimIdsLoaded}), not at the
     * opening: a serve that takes no lines in never does, and its first page does not wait for it.
     */
    private final DuckDbClaimNumbers claimIds = new DuckDbClaimNumbers();
    private boolean claimIdsLoaded;
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
    /** Verdicts handed over without the lock ({@link #updateVerdicts}), taken into the next batch. */
    private final java.util.Queue<StoredVerdict> queuedVerdicts = new java.util.concurrent.ConcurrentLinkedQueue<>();
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
    private final ExecutorService writer = Executors.newSingleThreadExecutor(Threads.daemons("store-writer"));
    /** The batch being written, if any. */
    private Future<?> writing;
    /** Reads the batch being written through {@link #batchSource}; prepared when first needed. */
    private PreparedStatement insertHits;
    /** The batch being written, as a table function, and its name in this store's connection. */
    private final DuckDbBatchSource batchSource = new DuckDbBatchSource();
    /** Writes the texts of signed hits that wait in their rows short ({@code hits.sig}, {@code sig_shapes}). */
    private final DuckDbSignatureShapes shapes;
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
    /** How far each log was read: committed, and appended since. */
    private final DuckDbLedger ledger;
    /**
     * Logs' progress after which a transaction commits though nobody flushed: until it commits, what
     * it holds is kept in memory too ({@code #uncommittedProgress}), and an import of 50,000 small
     * logs holds few hits and many logs.
     */
    static final long COMMIT_LOGS = 10_000;
    /** When the first batch of the open transaction went to the writer; 0 when none is open (appending side). */
    private long uncommittedSince;
    /** Whether the writer thread has a transaction open (writer side). */
    private boolean inTransaction;
    DuckDbHitWriter(DuckDBConnection connection, String location, DuckDbFailures failures, long commitRows, DuckDbVerdicts verdicts,
            DuckDbQuery query, DuckDbClaims claims) throws SQLException {
        this.connection = connection;
        this.location = location;
        this.failures = failures;
        this.commitRows = commitRows;
        this.verdicts = verdicts;
        this.query = query;
        this.claims = claims;
        this.shapes = new DuckDbSignatureShapes(connection);
        try (Statement st = connection.createStatement()) {
            // Registered here, outside any transaction: registered in a batch's transaction, the
            // function went with it when that transaction rolled back.
            batchFunction = "crawl_errors_batch_" + SOURCES.incrementAndGet();
            DuckDBFunctions.tableFunction().withName(batchFunction).withFunction(batchSource).register(connection);
            urlTail = new DuckDbUrlTail(connection);
            // and whether any log's progress is stored: an import asks for it before it reads a line
            try (ResultSet rs = st.executeQuery("SELECT coalesce(max(id), 0), (SELECT count(*) FROM imports) FROM hits")) {
                rs.next();
                nextId = rs.getLong(1) + 1;
                ledger = new DuckDbLedger(connection, query, rs.getLong(2));
            }
            loadClaims(st);
            committed = new Snapshot(nextId - 1, nextVersion - 1);
            firstIdSinceOpen = nextId;
        }
    }

    /** Where the numbering of claims and verdicts goes on; the claims' numbers are read again when next needed. */
    private void loadClaims(Statement st) throws SQLException {
        claimIds.clear();
        claimIdsLoaded = false;
        java.util.Arrays.fill(claimsLately, null);
        try (ResultSet rs = st.executeQuery("SELECT coalesce((SELECT max(claim_id) FROM verdicts), 0),"
                + " coalesce((SELECT max(version) FROM verdict_log), 0)")) {
            rs.next();
            nextClaim = Math.max(nextClaim, rs.getInt(1) + 1);
            nextVersion = Math.max(nextVersion, rs.getLong(2) + 1);
        }
    }

    /**
     * Reads the number of every committed claim, once (under this writer's lock): committed is all
     * there is, since no claim is numbered before this has run.
     */
    private void loadClaimIds() {
        if (claimIdsLoaded) {
            return;
        }
        query.run("SELECT ip, crawler, claim_id FROM verdicts", List.of(), rs -> {
            while (rs.next()) {
                claimIds.putIfAbsent(CrawlerHit.claimKey(rs.getString(1), rs.getString(2)), rs.getInt(3));
            }
            return null;
        });
        claimIdsLoaded = true;
    }

    /** Whether the claims' numbers were read: for tests. */
    synchronized boolean claimIdsLoaded() {
        return claimIdsLoaded;
    }

    /** The number the first hit appended after the store opened takes: what a close asks to know whether hits came. */
    private long firstIdSinceOpen;
    /** The last hit committed when a commit first failed: the hits after it are not all durable. */
    private volatile long failedAt = Long.MAX_VALUE;

    /** What the writer adds beside each batch for the URLs' states. */
    DuckDbUrlTail urlTail() {
        return urlTail;
    }

    /** The number the last hit appended has, or will have once its batch goes to the writer's thread. */
    @Override
    public synchronized long appendedMark() {
        return nextId - 1 + buffered.hits.size();
    }

    /** The number of the last hit committed, before any commit failed: hits are numbered as they are appended. */
    @Override
    public long committedMark() {
        return Math.min(committed.hits(), failedAt);
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

    /** The newest snapshot committed, as it is: what was appended since stays buffered. */
    Snapshot committed() {
        return committed;
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
        loadClaimIds();
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
        int id = claimIds.putIfAbsent(key, nextClaim);
        if (id < 0) {
            id = nextClaim++;
            buffered.verdicts.put(key, new DuckDbClaimVerdict(id, hit.hit().ip(), hit.claimCrawler(), hit.verdict(), nextVersion++));
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
        PositionMovedException.check(from, ledger.position(from.fingerprint()));
        // buffered before the hits, under the same lock, so the flush that writes them writes it too
        buffered.progress.put(through.fingerprint(), through);
        if (through.file() != null) {
            buffered.files.put(through.file().key(), through);
        }
        ledger.appended(through);
        append(hits);
    }

    @Override
    public List<SourceProgress> imported(Collection<String> prefixes) {
        return ledger.imported(prefixes);
    }

    @Override
    public long[] unchangedLines(List<FileStamp> stamps) {
        return ledger.unchangedLines(stamps);
    }

    @Override
    public List<SourceProgress> importedFiles(Collection<String> keys) {
        return ledger.importedFiles(keys);
    }

    @Override
    public boolean recordsProgress() {
        return ledger.recordsProgress();
    }

    /** Never: lines are compared as they are appended, under the lock every writer of the file takes. */
    @Override
    public boolean refusesAtCommit() {
        return false;
    }


    /**
     * Buffers a verdict that changed, to be written with the next batch. One the claim has already
     * (a re-check that found what the last check found) records nothing: a new verdict number would
     * move the snapshot, and every page and count would be read again for nothing.
     */
    synchronized void updateVerdict(String ip, String crawler, Verdict verdict) {
        String key = CrawlerHit.claimKey(ip, crawler);
        loadClaimIds();
        int id = claimIds.get(key);
        if (id >= 0 && verdict.equals(latestVerdict(key, id))) {
            return;
        }
        dirty = true;
        if (id < 0) {
            id = nextClaim++;
            claimIds.putIfAbsent(key, id);
        }
        buffered.verdicts.put(key, new DuckDbClaimVerdict(id, ip, crawler, verdict, nextVersion++));
    }

    /**
     * Moves each settled hit, stored under its address's and signer's claim while its signature waited in
     * its row, to a claim of its own, with its verdict, in the next batch's transaction: the claim is given
     * the group's history first ({@link DuckDbClaims#copy}), so a reader at a snapshot before the move reads
     * the verdict the hit had then, whichever claim its row names; its hits' rows and their URL histories'
     * name the new claim, and the signature waits no longer ({@code sig} NULL). A hit met again after a
     * failed attempt (rolled back) gets the claim made for it then.
     */
    synchronized void settleWaitingHits(List<SettledHit> settled) {
        loadClaimIds();
        for (SettledHit s : settled) {
            int group = claimIds.get(CrawlerHit.claimKey(s.ip(), s.group()));
            if (group < 0) {
                continue; // a claim this store does not know: the hit waits on
            }
            String key = CrawlerHit.claimKey(s.ip(), s.crawler());
            int id = claimIds.get(key);
            List<Long> versions = new ArrayList<>();
            List<Verdict> copied;
            if (id < 0) {
                id = nextClaim++;
                claimIds.putIfAbsent(key, id);
                copied = claims.copy(group, id, versions);
            } else {
                copied = claims.history(group, versions);
            }
            for (int i = 0; i < copied.size(); i++) {
                buffered.copies.add(new DuckDbClaimVerdict(id, s.ip(), s.crawler(), copied.get(i), versions.get(i)));
            }
            buffered.verdicts.put(key, new DuckDbClaimVerdict(id, s.ip(), s.crawler(), s.verdict(), nextVersion++));
            buffered.moves.add(new long[] {s.hit(), id});
            dirty = true;
        }
    }

    /**
     * Queues verdicts for the next batch without taking this writer's lock, which an append holds
     * while the batch before is written: signatures settled beside the reader are recorded so.
     */
    void updateVerdicts(List<StoredVerdict> verdicts) {
        queuedVerdicts.addAll(verdicts);
        dirty = true;
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
        for (StoredVerdict queued; (queued = queuedVerdicts.poll()) != null; ) {
            updateVerdict(queued.ip(), queued.crawler(), queued.verdict());
        }
        boolean open = uncommittedSince != 0;
        if (buffered.isEmpty() && !(commit && open)) {
            return;
        }
        DuckDbBatch batch = buffered;
        buffered = new DuckDbBatch();
        for (DuckDbClaimVerdict verdict : batch.verdicts.values()) {
            unpublished(verdict);
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

    /**
     * A method of its own: its loop runs once a batch, too few times for the JIT to compile it, and
     * a body inlined in it ran interpreted for every claim (a signed import has a claim a line).
     */
    private void unpublished(DuckDbClaimVerdict verdict) {
        unpublishedVerdicts.put(verdict.claim(), verdict);
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
            // and what was appended after the failed batch went: its logs' positions say that the hits before them are
            // stored, and they were rolled back. Written by the next flush (a close's), they made a log's position run
            // ahead of its hits, and the same import run again skipped the lines between: 20,003 of 200,000 at 8MB.
            // Its hits also bear claim numbers of the rolled-back transaction, read again just below.
            DuckDbBatch dropped = buffered;
            buffered = new DuckDbBatch();
            ledger.dropAppended(dropped.progress.values(), dropped.files.values());
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
                ledger.writeProgress(batch.progress.values());
                ledger.writeFiles(batch.files.values());
                verdicts.write(batch.verdicts.values());
                verdicts.logCopies(batch.copies);
                move(batch.moves);
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
                    ledger.committed();
                    inTransaction = false;
                    connection.setAutoCommit(true);
                    publish();
                    ledger.forgetUncommitted();
                }
            } catch (SQLException e) {
                inTransaction = false;
                failedAt = Math.min(failedAt, committed.hits());
                ledger.forgetUncommitted(); // rolled back: not recorded after all
                uncommittedVerdicts.clear();
                uncommittedMaxId = 0;
                urlTail.forget();
                shapes.forget(); // the shapes this transaction added are gone with it
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

    /**
     * Gives hits stored before the claims {@code moves} names ({@code [hit, claim]}), in their rows and their
     * URLs' histories, and lets their signatures go: in the batch's transaction, with the claims' verdicts.
     */
    private void move(List<long[]> moves) throws SQLException {
        if (moves.isEmpty()) {
            return;
        }
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TEMP TABLE IF NOT EXISTS writer_moves (i BIGINT, c INTEGER)");
            st.execute("DELETE FROM writer_moves");
            try (org.duckdb.DuckDBAppender appender = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "writer_moves")) {
                for (long[] move : moves) {
                    appender.beginRow().append(move[0]).append((int) move[1]).endRow();
                }
            }
            st.execute("UPDATE hits SET claim_id = m.c, sig = NULL FROM writer_moves m WHERE hits.id = m.i");
            for (String table : new String[] {"url_tail", "url_log", "url_times"}) {
                st.execute("UPDATE " + table + " SET c = m.c FROM writer_moves m WHERE " + table + ".i = m.i");
            }
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
            insertHits = connection.prepareStatement("INSERT INTO hits (id, ts, utc_offset_minutes, ip, method, url, status, bytes,"
                    + " duration_ms, crawler, bot_type, user_agent, referer, host, claim_id, location, sig)"
                    + " SELECT id, make_timestamp(ts_micros),"
                    + " utc_offset_minutes::SMALLINT, ip, method, url, status::SMALLINT,"
                    + " if(bytes_or_negative < 0, NULL, bytes_or_negative), if(isnan(duration_ms_or_nan), NULL, duration_ms_or_nan),"
                    + " crawler, bot_type, user_agent, referer, host, claim_id::INTEGER, location, sig FROM " + batchFunction + "()");
        }
        batchSource.waiting = shapes.texts(batch.hits); // their shapes first, in this transaction
        batchSource.hits = batch.hits;
        batchSource.claims = batch.claims;
        batchSource.firstId = batch.firstId;
        try {
            insertHits.execute();
        } finally {
            batchSource.hits = null;
            batchSource.waiting = null;
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
        ledger.closeStatements(failure);
        try {
            if (insertHits != null) {
                insertHits.close();
            }
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
        insertHits = null;
        try {
            shapes.close();
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }
}
