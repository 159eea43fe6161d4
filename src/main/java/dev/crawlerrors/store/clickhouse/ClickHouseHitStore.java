package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.FileStamp;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.BreakdownCount;
import dev.crawlerrors.store.DurationCount;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.MinuteChange;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.StoredVerdict;
import dev.crawlerrors.store.TimeCount;
import dev.crawlerrors.store.UrlCount;
import dev.crawlerrors.text.Failures;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A store on ClickHouse: one server, or a cluster of shards (see {@link ClickHouseCluster}), spoken
 * to over its HTTP interface. Any number of processes may write and read it at once; its parts, a
 * class each: the writer ({@link ClickHouseHitWriter}, batches committed whole), the snapshots
 * ({@link ClickHouseSnapshots}, what a page's link holds), the verdicts ({@link ClickHouseVerdicts})
 * and the reader ({@link ClickHouseHitReader}). What this process appends is committed within a
 * second, or at once by {@link #flush()} and by every read it makes.
 */
public final class ClickHouseHitStore implements HitStore {

    private final ClickHouseLocation location;
    private final ClickHouseSettings settings;
    private final ClickHouseHttp http;
    private final ClickHouseCluster cluster;
    private final ClickHouseSnapshots snapshots;
    private final ClickHouseVerdicts verdicts;
    private final ClickHouseHitWriter writer;
    private final ClickHouseHitReader reader;
    private final ClickHouseUrlStates urlStates;
    /** Commits what waits in the writer when nobody appends or reads (a re-check's verdict in a quiet server). */
    private final ScheduledExecutorService committer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread t = new Thread(runnable, "clickhouse-committer");
        t.setDaemon(true);
        return t;
    });
    /** A failure of the committer's, told to the next caller. */
    private volatile StoreException committerFailure;

    private ClickHouseHitStore(ClickHouseLocation location, ClickHouseSettings settings, boolean afresh, long clockAheadSeconds) {
        this.location = location;
        this.settings = settings;
        this.http = new ClickHouseHttp(location.user(), location.password(), settings);
        this.cluster = ClickHouseCluster.discover(http, location);
        if (afresh) {
            ClickHouseSchema.startAfresh(http, cluster, location.database(), location.user(), location.password());
        } else {
            ClickHouseSchema.prepare(http, cluster, location.database(), location.user(), location.password());
        }
        this.writer = new ClickHouseHitWriter(http, cluster, location.database());
        this.snapshots = new ClickHouseSnapshots(http, cluster.meta(), location.database(), writer::commits, clockAheadSeconds);
        this.verdicts = new ClickHouseVerdicts(http, cluster, location.database());
        this.reader = new ClickHouseHitReader(http, cluster, location.database(), snapshots, verdicts, this::commitIfDirty);
        this.urlStates = new ClickHouseUrlStates(http, cluster, location.database(), snapshots, verdicts);
        snapshots.dropOld();
        committer.scheduleWithFixedDelay(this::commitQuietly, 1, 1, TimeUnit.SECONDS);
    }

    /**
     * Opens the store at {@code location}, creating its database and tables on every server that
     * lacks them.
     *
     * @throws StoreException saying what went wrong (unreachable, refused login, a newer schema)
     */
    public static ClickHouseHitStore open(ClickHouseLocation location, ClickHouseSettings settings) {
        return open(location, settings, false);
    }

    /**
     * Opens the store at {@code location} emptied first, for the demo: its database must hold
     * nothing or an earlier demo's store, never anything else.
     */
    public static ClickHouseHitStore openAfresh(ClickHouseLocation location, ClickHouseSettings settings) {
        return open(location, settings, true);
    }

    /** A store that reads as if the servers' clock were {@code seconds} ahead: for a test of writers past their lease. */
    static ClickHouseHitStore openWithClockAhead(ClickHouseLocation location, ClickHouseSettings settings, long seconds) {
        return new ClickHouseHitStore(location, settings, false, seconds);
    }

    private static ClickHouseHitStore open(ClickHouseLocation location, ClickHouseSettings settings, boolean afresh) {
        try {
            return new ClickHouseHitStore(location, settings, afresh, 0);
        } catch (StoreException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new StoreException("cannot open the store " + location.shown() + ": " + Failures.firstLine(e), e);
        }
    }

    /** The store, as its URL names it. */
    public ClickHouseLocation location() {
        return location;
    }

    @Override
    public String describe() {
        int shards = shards();
        return "ClickHouse store " + location.shown() + " (" + shards + (shards == 1 ? " server" : " shards") + "; a query may take "
                + settings.memoryBytes() / (1 << 20) + "MiB and " + (settings.threads() == 0 ? "the server's threads" : settings.threads()
                + (settings.threads() == 1 ? " thread" : " threads")) + " on each)";
    }

    /** How many shards hold its hits (1 for a server alone). */
    public int shards() {
        return cluster.shards().size();
    }

    private void commitIfDirty() {
        rethrowCommitterFailure();
        if (writer.pending()) {
            writer.flush(); // waits for a flush the committer runs, too
        }
    }

    private void commitQuietly() {
        try {
            if (writer.pending()) {
                writer.flush();
            }
        } catch (StoreException e) {
            committerFailure = e;
        } catch (RuntimeException e) {
            committerFailure = new StoreException("cannot write to ClickHouse: " + Failures.firstLine(e), e);
        }
    }

    private void rethrowCommitterFailure() {
        StoreException failure = committerFailure;
        if (failure != null) {
            committerFailure = null;
            throw failure;
        }
    }

    @Override
    public void append(List<CrawlerHit> hits) {
        rethrowCommitterFailure();
        writer.append(hits);
    }

    @Override
    public void append(List<CrawlerHit> hits, SourceProgress through) {
        rethrowCommitterFailure();
        writer.append(hits, through);
    }

    /**
     * The progress of the logs whose key begins with one of {@code prefixes}: what was appended and
     * not yet committed, and what is committed (every process's), the furthest read of each log.
     * Nothing is committed to answer: an import of thousands of logs asks once a window.
     */
    @Override
    public List<SourceProgress> imported(Collection<String> prefixes) {
        if (prefixes.isEmpty()) {
            return List.of();
        }
        rethrowCommitterFailure();
        // what is appended is looked at before the store: an entry committed in between is in the store by then
        Map<String, SourceProgress> found = new HashMap<>();
        for (SourceProgress progress : writer.uncommitted(new HashSet<>(prefixes))) {
            found.put(progress.fingerprint(), progress);
        }
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT fingerprint, argMax(name, bytes),"
                + " max(bytes), argMax(lines, bytes), argMax(ifNull(check_hash, ''), bytes) FROM " + location.database() + ".commits WHERE prefix IN ("
                + ClickHouseSql.quoted(new ArrayList<>(prefixes)) + ") AND fingerprint != '' GROUP BY fingerprint"));
        while (rows.nextRow()) {
            String fingerprint = rows.text();
            String name = rows.text();
            long bytes = rows.number();
            long lines = rows.number();
            String check = rows.text(); // '' for none: an aggregate of a Nullable column skips its nulls
            SourceProgress stored = new SourceProgress(fingerprint, name, bytes, lines, check.isEmpty() ? null : check, null);
            found.merge(stored.fingerprint(), stored, (a, b) -> b.bytes() > a.bytes() ? b : a);
        }
        return new ArrayList<>(found.values());
    }

    /**
     * The files among {@code keys} recorded as read to their end, each with its stamp then and the
     * progress of the log it held: the latest record of each, appended or committed.
     */
    @Override
    public List<SourceProgress> importedFiles(Collection<String> keys) {
        if (keys.isEmpty()) {
            return List.of();
        }
        rethrowCommitterFailure();
        Map<String, SourceProgress> found = new HashMap<>();
        for (SourceProgress progress : writer.uncommittedFiles(new HashSet<>(keys))) {
            found.put(progress.file().key(), progress);
        }
        // the latest record of each file: by when it was committed (to the second), then by the file's own time and length
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT file_key, file_size, file_modified_nanos,"
                + " fingerprint, name, bytes, lines, check_hash FROM " + location.database() + ".commits WHERE file_key IN ("
                + ClickHouseSql.quoted(new ArrayList<>(keys)) + ") ORDER BY file_key, committed DESC, file_modified_nanos DESC,"
                + " bytes DESC, writer DESC, seq DESC"
                + " LIMIT 1 BY file_key"));
        while (rows.nextRow()) {
            FileStamp file = new FileStamp(rows.text(), rows.number(), rows.number());
            SourceProgress stored = new SourceProgress(rows.text(), rows.text(), rows.number(), rows.number(), rows.text(), file);
            found.putIfAbsent(file.key(), stored); // what was appended since is newer
        }
        return new ArrayList<>(found.values());
    }

    /**
     * Reads what the report's first page reads, on every shard: the default view's count by minute
     * at the newest snapshot (which reads the commits, the verdicts and the counts by minute too),
     * its newest row, and the logs' progress.
     */
    @Override
    public void checkReadable() {
        try {
            Snapshot now = reader.snapshot();
            reader.minuteCounts(HitFilter.ERRORS, now);
            reader.rows(HitFilter.ERRORS, now, Long.MIN_VALUE / 4, Long.MAX_VALUE / 4, 0, 1);
            http.query(cluster.meta(), "SELECT count(), sum(bytes), max(file_key) FROM " + location.database() + ".commits");
        } catch (RuntimeException e) {
            throw new StoreException("the ClickHouse store " + location.shown() + " cannot be read: " + Failures.firstLine(e)
                    + "; check that every server of it runs and answers", e);
        }
    }

    @Override
    public void flush() {
        rethrowCommitterFailure();
        writer.flush();
    }

    @Override
    public void updateVerdict(String ip, String crawler, Verdict verdict) {
        writer.updateVerdict(ip, crawler, verdict);
    }

    @Override
    public List<StoredVerdict> verdicts(Verification verification) {
        commitIfDirty();
        return verdicts.of(verification);
    }

    @Override
    public Snapshot snapshot() {
        return reader.snapshot();
    }

    @Override
    public boolean serves(Snapshot snapshot) {
        return reader.serves(snapshot);
    }

    @Override
    public MinuteCounts minuteCounts(HitFilter filter, Snapshot snapshot) {
        return reader.minuteCounts(filter, snapshot);
    }

    @Override
    public MinuteChange minuteChange(HitFilter filter, Snapshot from, Snapshot to) {
        return reader.minuteChange(filter, from, to);
    }

    @Override
    public List<StoredHit> rows(HitFilter filter, Snapshot snapshot, long fromMillis, long toMillis, long skip, int limit) {
        return reader.rows(filter, snapshot, fromMillis, toMillis, skip, limit);
    }

    @Override
    public boolean sameVerdicts(Snapshot from, Snapshot to) {
        return reader.sameVerdicts(from, to);
    }

    @Override
    public Optional<StoredHit> hit(long id, Snapshot snapshot) {
        return reader.hit(id, snapshot);
    }

    @Override
    public List<TimeCount> countByTime(HitFilter filter, HitWindow window, long bucketMillis) {
        return reader.countByTime(filter, window, bucketMillis);
    }

    @Override
    public List<BreakdownCount> countByCrawler(HitFilter filter, HitWindow window) {
        return reader.countByCrawler(filter, window);
    }

    @Override
    public List<DurationCount> countByDuration(HitFilter filter, HitWindow window) {
        return reader.countByDuration(filter, window);
    }

    @Override
    public void forEachUrl(HitFilter filter, HitWindow window, Consumer<UrlCount> urls) {
        reader.forEachUrl(filter, window, urls);
    }

    @Override
    public long size() {
        return reader.size();
    }

    @Override
    public dev.crawlerrors.store.UrlStates urlStates() {
        return urlStates;
    }

    @Override
    public synchronized void close() {
        committer.shutdown();
        try {
            committer.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        writer.close();
        urlStates.close();
        if (writer.commits() > 0) {
            try {
                urlStates.fold(); // what this process wrote, folded before it ends
            } catch (RuntimeException e) {
                // the next fold, by any process, does it
            }
        }
    }
}
