package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.ingest.FileStamp;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.BatchInFlight;
import dev.crawlerrors.store.PositionMovedException;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoredVerdict;
import dev.crawlerrors.store.UrlKey;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Threads;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The store's writes on ClickHouse: appends are buffered and sent in batches on a thread of the
 * writer's own, so an import parses on while the last batch travels. A batch goes out as one
 * INSERT per shard and table, all at once (its verdicts to every shard, each hit to its address's
 * shard), and is then committed by one row on the first shard, with how far its logs were read
 * ({@link ClickHouseSnapshots} says why that makes a batch count whole or not at all). Hits are
 * numbered per writer in the order appended, which is log order, so hits of one instant keep it.
 * A failed write is tried once more under a new writer; what the first try left never counts.
 */
final class ClickHouseHitWriter {

    /** Rows buffered before a batch goes out: ClickHouse takes few large inserts better than many small ones. */
    static final int FLUSH_ROWS = 100_000;
    private static final long FLUSH_NANOS = 1_000_000_000L;
    private static final int KNOWN_CLAIMS = 1_000_000;
    private static final String HIT_COLUMNS = "(ts_ms, writer, seq, n, utc_offset_minutes, ip, method, url, status, bytes,"
            + " duration_ms, crawler, bot_type, user_agent, referer, host, location, signature)";
    private static final String URL_LOG_COLUMNS = "(k, host, url, ts_ms, writer, seq, n, status, ip, crawler, bot_type)";
    private static final String VERDICT_COLUMNS = "(ip, crawler, verification, reason, version, writer, seq)";
    private static final String COMMIT_COLUMNS = "(writer, seq, closed, fingerprint, name, bytes, lines, prefix, check_hash, file_key,"
            + " file_size, file_modified_nanos, claimed)";

    /** Which verdict changes of a batch their claims have already, as committed: they record nothing. */
    @FunctionalInterface
    interface RecordedVerdicts {
        Set<String> of(Map<String, ClickHouseBatch.VerdictRow> changes);
    }

    private final ClickHouseHttp http;
    private final ClickHouseCluster cluster;
    private final String db;
    private final RecordedVerdicts recorded;
    private final ClickHouseLogClaims claims;

    // the appending side, under this object's lock
    private ClickHouseBatch buffered = new ClickHouseBatch();
    private long lastFlush = System.nanoTime();
    /**
     * Claims this process has recorded a verdict for: a claim met again brings none. Another process
     * may record its own first verdict for the same claim; the earliest first verdict wins and any
     * later change beats every first verdict ({@link ClickHouseVerdicts#version}), so it does no harm.
     */
    private final Set<String> knownClaims = new HashSet<>();
    private volatile boolean dirty;
    /** Verdicts handed over without the lock ({@link #updateVerdicts}), taken into the next batch. */
    private final java.util.Queue<StoredVerdict> queuedVerdicts = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /**
     * Progress appended that no commit has covered yet, by log key and by file identity: what
     * {@code #imported} and {@code #importedFiles} add to what the store holds, so that an import of
     * thousands of small logs does not commit once a log to find its own progress. Entries go once
     * the batch that carries them is committed (or failed), unless a later one took their place.
     */
    private final Map<String, SourceProgress> uncommittedProgress = new ConcurrentHashMap<>();
    private final Map<String, SourceProgress> uncommittedFiles = new ConcurrentHashMap<>();
    /**
     * Logs whose lines were refused as their batch was committed (another writer had moved them on,
     * or claimed where they start), not told yet: the appender of one is told at its next append of
     * it, else at the next {@link #takeRefused} (the store's flush). Set by the writer's thread.
     */
    private final Map<String, PositionMovedException.Refused> refused = new ConcurrentHashMap<>();
    /** Whether a flush is under way: what it writes is not committed yet, though no longer dirty. */
    private volatile boolean flushing;
    private volatile Future<?> writing;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(Threads.daemons("clickhouse-writer"));

    // the writer thread's
    /** This writer's id; 0 before the first batch, and after a failure. */
    private long writer;
    private long lastWriter;
    /** The last batch committed under {@link #writer}, and the number of its last hit. */
    private long seq;
    private long n;
    private long registeredNanos;
    /** Batches handed to the writer's thread, numbered from 1 (appending side). */
    private long started;
    /** The last of them committed with all before it; stops at a batch that failed. */
    private volatile long committedInOrder;
    private volatile boolean failedOnce;
    /** Batches committed by this process. */
    private final java.util.concurrent.atomic.AtomicLong commits = new java.util.concurrent.atomic.AtomicLong();

    ClickHouseHitWriter(ClickHouseHttp http, ClickHouseCluster cluster, String db, RecordedVerdicts recorded) {
        this.http = http;
        this.cluster = cluster;
        this.db = db;
        this.recorded = recorded;
        this.claims = new ClickHouseLogClaims(http, cluster.meta(), db);
    }

    synchronized void append(List<CrawlerHit> hits) {
        buffered.startRun(null);
        add(hits);
    }

    private void add(List<CrawlerHit> hits) {
        dirty = true;
        for (CrawlerHit hit : hits) {
            if (knownClaims.add(hit.claim())) {
                buffered.verdicts.putIfAbsent(hit.claim(), new ClickHouseBatch.VerdictRow(hit.hit().ip(), hit.claimCrawler(),
                        hit.verdict(), ClickHouseVerdicts.version(false)));
                if (knownClaims.size() > KNOWN_CLAIMS) {
                    knownClaims.clear(); // a bound: a claim met again records its first verdict again, which changes nothing
                }
            }
            buffered.hits.add(hit);
        }
        if (buffered.hits.size() >= FLUSH_ROWS || System.nanoTime() - lastFlush >= FLUSH_NANOS) {
            startWriting();
        }
    }

    /**
     * Appends hits with their log's position, to be recorded by compare-and-set: against what this
     * process appended of the log and has not committed, at once, and against what every writer
     * committed and claims, when the batch goes out ({@link ClickHouseLogClaims}).
     *
     * @throws PositionMovedException when this process has the log elsewhere, or when lines of it
     *                                appended before were refused as they were committed
     */
    synchronized void append(List<CrawlerHit> hits, SourceProgress from, SourceProgress through) {
        String key = through.fingerprint();
        if (refused.containsKey(key)) {
            // the batch being written may hold lines of it too, from before it was told: refused with the rest (see dropRefused)
            awaitWriting();
        }
        PositionMovedException.Refused earlier = refused.remove(key);
        if (earlier != null) {
            // what is buffered of the log went on from the refused lines: refused with them
            List<CrawlerHit> buffer = buffered.hitsOf(key);
            buffered.drop(java.util.Set.of(key));
            SourceProgress end = uncommittedProgress.remove(key);
            if (end != null && end.file() != null) {
                uncommittedFiles.remove(end.file().key(), end);
            }
            // told even when it reads on from where the store has the log: it counted the refused hits as stored
            List<CrawlerHit> taken = new ArrayList<>(earlier.hits());
            taken.addAll(buffer);
            throw PositionMovedException.atCommit(List.of(new PositionMovedException.Refused(key, earlier.storedUpTo(), earlier.storeHas(),
                    taken)));
        }
        SourceProgress appended = uncommittedProgress.get(key);
        if (appended != null) {
            PositionMovedException.check(from, appended);
        }
        buffered.from.putIfAbsent(key, from);
        buffered.progress.put(key, through);
        uncommittedProgress.put(key, through);
        if (through.file() != null) {
            uncommittedFiles.put(through.file().key(), through);
        }
        buffered.startRun(key);
        add(hits);
    }

    /** The logs whose lines were refused and whose appenders were not told yet: told now, by the caller. */
    synchronized List<PositionMovedException.Refused> takeRefused() {
        List<PositionMovedException.Refused> told = new ArrayList<>();
        for (String key : List.copyOf(refused.keySet())) {
            PositionMovedException.Refused log = refused.remove(key);
            if (log != null) {
                told.add(log);
            }
        }
        return told;
    }

    /** The progress appended and not yet committed of the logs whose key begins with one of {@code prefixes}. */
    List<SourceProgress> uncommitted(Set<String> prefixes) {
        List<SourceProgress> found = new ArrayList<>();
        for (SourceProgress progress : uncommittedProgress.values()) {
            if (prefixes.contains(progress.prefix())) {
                found.add(progress);
            }
        }
        return found;
    }

    /** The files among {@code keys} appended as read to their end and not yet committed. */
    List<SourceProgress> uncommittedFiles(Set<String> keys) {
        List<SourceProgress> found = new ArrayList<>();
        for (SourceProgress progress : uncommittedFiles.values()) {
            if (keys.contains(progress.file().key())) {
                found.add(progress);
            }
        }
        return found;
    }

    /**
     * Buffers a verdict that changed. One the claim has already records nothing: the same one
     * buffered is dropped here, the same one committed when its batch goes out ({@link #write}).
     */
    synchronized void updateVerdict(String ip, String crawler, Verdict verdict) {
        String key = CrawlerHit.claimKey(ip, crawler);
        ClickHouseBatch.VerdictRow buffer = buffered.verdicts.get(key);
        if (buffer != null && buffer.verdict().equals(verdict)) {
            return;
        }
        dirty = true;
        knownClaims.add(key);
        buffered.verdicts.put(key, new ClickHouseBatch.VerdictRow(ip, crawler, verdict, ClickHouseVerdicts.version(true)));
    }

    /**
     * Queues verdicts for the next batch without taking this writer's lock, which an append holds
     * while the batch before is written: signatures settled beside the reader are recorded so.
     */
    void updateVerdicts(List<StoredVerdict> verdicts) {
        queuedVerdicts.addAll(verdicts);
        dirty = true;
    }

    /** The batch the last hit appended goes out with: the one buffered, or the one just started. */
    synchronized long appendedMark() {
        return buffered.isEmpty() ? started : started + 1;
    }

    /** The last batch committed with every batch before it: a batch that failed stops it there. */
    long committedMark() {
        return committedInOrder;
    }

    /** How many batches this process has committed. */
    long commits() {
        return commits.get();
    }

    /**
     * Whether something appended or updated is not yet committed: buffered, being written, or in
     * a flush another thread runs. (Read in this order against the order flush sets them.)
     */
    boolean pending() {
        return dirty || flushing || writing != null;
    }

    /** Sends what is buffered, and waits until it and every batch before it are committed. */
    synchronized void flush() {
        flushing = true;
        try {
            dirty = false; // before: what is appended while this commits makes the store dirty again
            startWriting();
            awaitWriting();
        } finally {
            flushing = false;
        }
    }

    /** Commits what is buffered and ends this writer: its rows all count, whatever happens to its id. */
    synchronized void close() {
        try {
            flush();
            Future<?> closing = thread.submit(this::closeWriter);
            writing = closing;
            awaitWriting();
        } finally {
            thread.shutdown();
        }
    }

    private void startWriting() {
        lastFlush = System.nanoTime();
        awaitWriting();
        for (StoredVerdict queued; (queued = queuedVerdicts.poll()) != null; ) {
            updateVerdict(queued.ip(), queued.crawler(), queued.verdict());
        }
        if (buffered.isEmpty()) {
            return;
        }
        ClickHouseBatch batch = buffered;
        buffered = new ClickHouseBatch();
        long number = ++started;
        writing = thread.submit(() -> {
            try {
                write(batch);
                if (!failedOnce && committedInOrder == number - 1) {
                    committedInOrder = number;
                }
            } catch (RuntimeException e) {
                failedOnce = true;
                throw e;
            } finally {
                forgetUncommitted(batch); // committed, or failed: the store says which
            }
            return null;
        });
    }

    private void awaitWriting() {
        Future<?> current = writing;
        if (current == null) {
            return;
        }
        writing = null;
        try {
            BatchInFlight.await(current);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof StoreException store ? store
                    : new StoreException("cannot write to ClickHouse: " + Failures.firstLine(cause), cause);
        }
    }

    /** The batch's progress leaves what is looked at in memory, unless newer took its place. */
    private void forgetUncommitted(ClickHouseBatch batch) {
        for (SourceProgress progress : batch.progress.values()) {
            uncommittedProgress.remove(progress.fingerprint(), progress);
            if (progress.file() != null) {
                uncommittedFiles.remove(progress.file().key(), progress);
            }
        }
    }

    /**
     * Writes and commits one batch (writer thread); a failure is tried once more under a new writer.
     * Its logs are claimed once its rows are sent, just before its commit ({@link ClickHouseLogClaims}):
     * when some are refused whose hits went out, the rest is sent again under a new writer (the
     * first one's rows never count), and claimed again.
     */
    private void write(ClickHouseBatch batch) {
        dropRecordedVerdicts(batch);
        if (batch.isEmpty()) {
            return; // only re-checks that changed nothing: no commit, so no new snapshot
        }
        for (int attempt = 1; ; attempt++) {
            try {
                dropRefused(batch);
                if (batch.isEmpty()) {
                    return;
                }
                ensureWriter();
                long batchSeq = seq + 1;
                long firstN = n + 1;
                sendRows(batch, batchSeq, firstN);
                if (!claimLogs(batch)) {
                    claims.withdraw(batch);
                    writer = 0;
                    attempt--; // no failure: a smaller batch
                    continue;
                }
                commit(batch, batchSeq);
                commits.incrementAndGet();
                seq = batchSeq;
                n = firstN + batch.hits.size() - 1;
                return;
            } catch (RuntimeException e) {
                claims.withdrawQuietly(batch, e); // claimed again, if tried again
                writer = 0; // given up: what it wrote of this batch never counts, nor does it commit again
                if (attempt == 2 || e instanceof Ambiguous) {
                    throw e instanceof StoreException store ? store
                            : new StoreException(e instanceof Ambiguous ? e.getMessage() : "cannot write to ClickHouse: " + e.getMessage(), e);
                }
            }
        }
    }

    /**
     * Leaves out the batch's verdict changes that their claims have already, as the batches before
     * it committed them (this thread committed every batch before this one). When that cannot be
     * asked, they are written: a verdict recorded twice changes no figure.
     */
    private void dropRecordedVerdicts(ClickHouseBatch batch) {
        Map<String, ClickHouseBatch.VerdictRow> changes = new LinkedHashMap<>();
        batch.verdicts.forEach((key, row) -> {
            if (ClickHouseVerdicts.isChange(row.version())) {
                changes.put(key, row);
            }
        });
        if (changes.isEmpty()) {
            return;
        }
        try {
            batch.verdicts.keySet().removeAll(recorded.of(changes));
        } catch (RuntimeException e) {
            // written as they are
        }
    }

    /**
     * Takes out of the batch the logs whose lines were refused and whose appenders were not told yet:
     * its lines of them went on from the refused ones, appended before the appender knew, and are
     * refused with them, even where the store has the log now (another writer stored up to there).
     * So a refusal covers every line the writer took of its log from where it starts, and the
     * appender reads on once, from where the store has the log.
     */
    private void dropRefused(ClickHouseBatch batch) {
        if (refused.isEmpty()) {
            return;
        }
        Set<String> keys = new HashSet<>();
        for (String key : batch.from.keySet()) {
            if (refused.containsKey(key)) {
                keys.add(key);
            }
        }
        if (keys.isEmpty()) {
            return;
        }
        for (String key : keys) {
            List<CrawlerHit> hits = batch.hitsOf(key);
            refused.computeIfPresent(key, (k, older) -> {
                List<CrawlerHit> all = new ArrayList<>(older.hits());
                all.addAll(hits);
                return new PositionMovedException.Refused(k, older.storedUpTo(), older.storeHas(), all);
            });
            SourceProgress end = batch.progress.get(key);
            if (end != null) {
                uncommittedProgress.remove(key, end);
                if (end.file() != null) {
                    uncommittedFiles.remove(end.file().key(), end);
                }
            }
        }
        batch.drop(keys);
    }

    /**
     * Claims the batch's logs, takes out those another writer moved on or claims, and notes them for
     * their appenders; false when hits of theirs were among the rows sent.
     */
    private boolean claimLogs(ClickHouseBatch batch) {
        Map<String, SourceProgress> ends = new HashMap<>(batch.progress);
        List<PositionMovedException.Refused> lost = claims.claim(batch);
        boolean sentNone = true;
        for (PositionMovedException.Refused log : lost) {
            refused.merge(log.key(), log, (older, newer) -> {
                List<CrawlerHit> hits = new ArrayList<>(older.hits());
                hits.addAll(newer.hits());
                return new PositionMovedException.Refused(log.key(), older.storedUpTo(), newer.storeHas(), hits);
            });
            SourceProgress end = ends.get(log.key());
            uncommittedProgress.remove(log.key(), end);
            if (end.file() != null) {
                uncommittedFiles.remove(end.file().key(), end);
            }
            sentNone &= log.hits().isEmpty();
        }
        return sentNone;
    }

    /** Sends the batch's verdicts to every shard and its hits to theirs, all at once, and waits for them all. */
    private void sendRows(ClickHouseBatch batch, long batchSeq, long firstN) {
        List<CompletableFuture<Void>> inserts = new ArrayList<>();
        if (!batch.verdicts.isEmpty()) {
            ClickHouseTsv.Writer rows = new ClickHouseTsv.Writer(batch.verdicts.size() * 128);
            for (ClickHouseBatch.VerdictRow v : batch.verdicts.values()) {
                rows.field(v.ip()).tab().field(v.crawler()).tab().field(v.verdict().verification().name()).tab()
                        .field(v.verdict().reason()).tab().unsigned(v.version()).tab().unsigned(writer).tab().field(batchSeq).endRow();
            }
            for (ClickHouseCluster.Shard shard : cluster.shards()) {
                inserts.add(http.insert(shard.http(), db + ".verdict_log_local " + VERDICT_COLUMNS, rows));
            }
        }
        if (!batch.hits.isEmpty()) {
            List<ClickHouseCluster.Shard> shards = cluster.shards();
            ClickHouseTsv.Writer[] rows = new ClickHouseTsv.Writer[shards.size()];
            ClickHouseTsv.Writer[] urlRows = new ClickHouseTsv.Writer[shards.size()];
            long number = firstN;
            for (CrawlerHit crawlerHit : batch.hits) {
                Hit hit = crawlerHit.hit();
                int shard = cluster.shardOf(hit.ip());
                if (rows[shard] == null) {
                    rows[shard] = new ClickHouseTsv.Writer(batch.hits.size() * 256 / shards.size());
                    urlRows[shard] = new ClickHouseTsv.Writer(batch.hits.size() * 128 / shards.size());
                }
                urlRow(urlRows[shard], crawlerHit, batchSeq, number);
                row(rows[shard], crawlerHit, batchSeq, number++);
            }
            for (int i = 0; i < rows.length; i++) {
                if (rows[i] != null) {
                    inserts.add(http.insert(shards.get(i).http(), db + ".hits_local " + HIT_COLUMNS, rows[i]));
                    inserts.add(http.insert(shards.get(i).http(), db + ".url_log_local " + URL_LOG_COLUMNS, urlRows[i]));
                }
            }
        }
        RuntimeException failure = null;
        for (CompletableFuture<Void> insert : inserts) {
            try {
                ClickHouseHttp.await(insert);
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * A hit as its URL's history keeps it ({@link ClickHouseUrlStates}), on the same shard, counted with the same batch: its
     * crawler as its claim is recorded ({@link CrawlerHit#claimCrawler}), so that the claim the table computes is its verdict's.
     */
    private void urlRow(ClickHouseTsv.Writer rows, CrawlerHit crawlerHit, long batchSeq, long number) {
        Hit hit = crawlerHit.hit();
        String host = hit.host() == null ? "" : hit.host();
        rows.field(UrlKey.number(host, hit.url())).tab().field(host).tab().field(hit.url()).tab().field(hit.epochMillis()).tab()
                .unsigned(writer).tab().field(batchSeq).tab().field(number).tab().field(hit.status()).tab().field(hit.ip()).tab()
                .field(crawlerHit.claimCrawler()).tab().field(crawlerHit.crawler().botType().name()).endRow();
    }

    private void row(ClickHouseTsv.Writer rows, CrawlerHit crawlerHit, long batchSeq, long number) {
        Hit hit = crawlerHit.hit();
        rows.field(hit.epochMillis()).tab().unsigned(writer).tab().field(batchSeq).tab().field(number).tab()
                .field(hit.offsetMinutes()).tab().field(hit.ip()).tab().field(hit.method() == null ? "" : hit.method()).tab()
                .field(hit.url()).tab().field(hit.status()).tab();
        if (hit.bytes() < 0) {
            rows.nul();
        } else {
            rows.field(hit.bytes());
        }
        rows.tab();
        if (hit.hasDuration()) {
            rows.field(hit.durationMs());
        } else {
            rows.nul();
        }
        rows.tab().field(crawlerHit.crawler().name()).tab().field(crawlerHit.crawler().botType().name()).tab()
                .field(hit.userAgent()).tab().field(hit.referer()).tab().field(hit.host()).tab().field(hit.location()).tab()
                .field(CrawlerHit.groupOf(crawlerHit.claimCrawler())).endRow();
    }

    /**
     * Commits a batch: one INSERT of one row, and one per log read, on the first shard. An error
     * ClickHouse answers with, or a refused connection, means it did not happen, and the batch is
     * written again; a connection lost after sending may have committed it or not, which is asked;
     * if that cannot be told, the import stops rather than risk counting the batch twice.
     */
    private void commit(ClickHouseBatch batch, long batchSeq) {
        ClickHouseTsv.Writer rows = new ClickHouseTsv.Writer(256);
        commitRow(rows, batchSeq, false, null, 0);
        for (SourceProgress p : batch.progress.values()) {
            commitRow(rows, batchSeq, false, p, batch.claimed.getOrDefault(p.fingerprint(), 0L));
        }
        try {
            ClickHouseHttp.await(http.insert(cluster.meta(), db + ".commits " + COMMIT_COLUMNS, rows));
        } catch (ClickHouseException e) {
            throw e;
        } catch (RuntimeException e) {
            if (refused(e)) {
                throw e;
            }
            if (!committed(batchSeq)) {
                throw new Ambiguous("ClickHouse at " + cluster.meta() + " may or may not have committed a batch: "
                        + Failures.firstLine(e) + "; run the import again once it answers (it reads on from what was committed)", e);
            }
        }
    }

    private boolean committed(long batchSeq) {
        try {
            ClickHouseTsv.Reader r = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT count() FROM " + db
                    + ".commits WHERE writer = " + ClickHouseSql.unsigned(writer) + " AND seq = " + batchSeq
                    + " AND fingerprint = ''"));
            return r.nextRow() && r.number() > 0;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static boolean refused(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return true;
            }
        }
        return false;
    }

    /**
     * A row of {@code commits}: the batch's own ({@code progress} null), or how far one of its logs
     * was read, with when its claim was made (0: a file's stamp where the log was, which claims nothing).
     */
    private void commitRow(ClickHouseTsv.Writer rows, long batchSeq, boolean closed, SourceProgress progress, long claimed) {
        rows.unsigned(writer).tab().field(batchSeq).tab().field(closed ? 1 : 0).tab();
        if (progress == null) {
            rows.field("").tab().field("").tab().field(0).tab().field(0).tab().field("").tab().nul().tab().field("").tab().field(0).tab()
                    .field(0).tab().field(0).endRow();
            return;
        }
        rows.field(progress.fingerprint()).tab().field(progress.name()).tab().field(progress.bytes()).tab().field(progress.lines()).tab()
                .field(progress.prefix()).tab();
        if (progress.check() == null) {
            rows.nul();
        } else {
            rows.field(progress.check());
        }
        rows.tab();
        FileStamp file = progress.file();
        if (file == null) {
            rows.field("").tab().field(0).tab().field(0);
        } else {
            rows.field(file.key()).tab().field(file.size()).tab().field(file.modifiedNanos());
        }
        rows.tab().field(claimed).endRow();
    }

    /** A writer id for the next batch: a new one at first, after a failure, and when the current one is half its lease old. */
    private void ensureWriter() {
        if (writer != 0 && System.nanoTime() - registeredNanos < ClickHouseSnapshots.ROTATE_SECONDS * 1_000_000_000L) {
            return;
        }
        if (writer != 0) {
            closeWriter();
        }
        long serverSeconds = ClickHouseSnapshots.serverSeconds(http, cluster.meta());
        long id = (serverSeconds << 32) | (ThreadLocalRandom.current().nextInt() & 0xFFFF_FFFFL);
        // later than the last one: a writer's hits of one instant come after the last writer's
        if (Long.compareUnsigned(id, lastWriter) <= 0) {
            id = lastWriter + 1;
        }
        writer = id;
        seq = 0;
        n = 0;
        ClickHouseTsv.Writer rows = new ClickHouseTsv.Writer(64);
        commitRow(rows, 0, false, null, 0);
        ClickHouseHttp.await(http.insert(cluster.meta(), db + ".commits " + COMMIT_COLUMNS, rows));
        lastWriter = id;
        registeredNanos = System.nanoTime();
    }

    /** Marks the writer closed: every batch it wrote is committed, so all its rows count once it is past the fence. */
    private void closeWriter() {
        if (writer == 0) {
            return;
        }
        try {
            ClickHouseTsv.Writer rows = new ClickHouseTsv.Writer(64);
            commitRow(rows, seq + 1, true, null, 0);
            ClickHouseHttp.await(http.insert(cluster.meta(), db + ".commits " + COMMIT_COLUMNS, rows));
        } catch (RuntimeException e) {
            // left unclosed: snapshots go on listing it, which costs a little and loses nothing
        } finally {
            writer = 0;
        }
    }

    /** A commit whose outcome cannot be known: never written again, lest it count twice. */
    static final class Ambiguous extends RuntimeException {
        Ambiguous(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
