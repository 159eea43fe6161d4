package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.ingest.FileStamp;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.HitWriter;
import dev.crawlerrors.store.PositionMovedException;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.Threads;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The writer of a ClickHouse store as the pipeline sees it, around the commits that make a batch
 * count: appends go to {@link ClickHouseHitWriter}, and what waits there is committed within a
 * second by a thread of this class when nobody appends or reads (a re-check's verdict in a quiet
 * server), or at once by {@link #flush()} and before every read. How far each log was read is
 * answered from {@code commits} and from what this process appended and has not committed yet.
 */
final class ClickHouseCommits implements HitWriter {

    private final ClickHouseHitWriter writer;
    private final ClickHouseHttp http;
    private final ClickHouseCluster cluster;
    private final String db;
    private final ScheduledExecutorService committer = Executors.newSingleThreadScheduledExecutor(Threads.daemons("clickhouse-committer"));
    /** A failure of the committer's, told to the next caller. */
    private volatile StoreException committerFailure;

    ClickHouseCommits(ClickHouseHitWriter writer, ClickHouseHttp http, ClickHouseCluster cluster, String db) {
        this.writer = writer;
        this.http = http;
        this.cluster = cluster;
        this.db = db;
    }

    /**
     * Starts committing every second what waits in the writer, after {@code leftovers}: the removal
     * of what writers killed before they committed left behind (never counted, and tried again by
     * the next writer's start when it fails: a user without ALTER cannot remove them).
     */
    void start(Runnable leftovers) {
        committer.execute(() -> {
            try {
                leftovers.run();
            } catch (RuntimeException e) {
                // they never count, and the next writer's start tries again
            }
        });
        committer.scheduleWithFixedDelay(this::commitQuietly, 1, 1, TimeUnit.SECONDS);
    }

    @Override
    public void append(List<CrawlerHit> hits) {
        rethrowCommitterFailure();
        writer.append(hits);
    }

    @Override
    public void append(List<CrawlerHit> hits, SourceProgress from, SourceProgress through) {
        rethrowCommitterFailure();
        writer.append(hits, from, through);
    }

    @Override
    public long appendedMark() {
        return writer.appendedMark();
    }

    @Override
    public long committedMark() {
        return writer.committedMark();
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
                + " max(bytes), argMax(lines, bytes), argMax(ifNull(check_hash, ''), bytes) FROM " + db + ".commits WHERE prefix IN ("
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
                + " fingerprint, name, bytes, lines, check_hash FROM " + db + ".commits WHERE file_key IN ("
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

    /** Commits what was appended; the logs whose lines another writer had moved on meanwhile are told (see {@link HitWriter#flush}). */
    @Override
    public void flush() {
        rethrowCommitterFailure();
        writer.flush();
        List<PositionMovedException.Refused> refused = writer.takeRefused();
        if (!refused.isEmpty()) {
            throw PositionMovedException.atCommit(refused);
        }
    }

    /** Commits what this process appended, if anything waits: a read then sees it. */
    void commitIfDirty() {
        rethrowCommitterFailure();
        if (writer.pending()) {
            writer.flush(); // waits for a flush the committer runs, too
        }
    }

    /** Stops the committer and commits what waits. */
    void close() {
        committer.shutdown();
        try {
            committer.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        writer.close();
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
}
