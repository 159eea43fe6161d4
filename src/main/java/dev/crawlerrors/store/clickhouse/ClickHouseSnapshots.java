package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.store.Snapshot;
import java.net.URI;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a snapshot means on ClickHouse, where several processes write at once and no transaction
 * spans two servers.
 *
 * <p><b>Writes.</b> Each writing process is a <i>writer</i> with an id of its own: the first
 * shard's clock (seconds) in the top 32 bits, random bits below. It writes a batch's verdicts and
 * hits to every shard that takes them, all marked with the writer and the batch's number
 * ({@code seq}, 1, 2, ... per writer), and then <i>commits</i> the batch: one row in
 * {@code commits} on the first shard, with how far the batch's logs were read. A batch's rows
 * count only once that row exists, so a batch counts whole or not at all, hits, verdicts and log
 * positions together, whichever server or process fails when: a killed import leaves rows that
 * never count, and the next import reads on from the last committed position, so nothing is lost
 * or counted twice. A writer that failed to write a batch stops, and the batch is written again
 * under a new writer, so its first attempt's rows never count either.
 *
 * <p><b>Snapshots.</b> A snapshot is, for every writer, the last batch it had committed: a row
 * counts in it when {@code seq <= that batch}. The commits live on one server, whose reads see
 * them in the order they landed, so two snapshots read there are one inside the other, and the sum
 * of every writer's last committed batch ({@code total}) grows with each commit and names one
 * snapshot: a page's link carries it ({@code at=TOTAL.0}). Each snapshot's list is stored in
 * {@code snapshots} under its total, so every report server answers the links of every other, and
 * within one snapshot no row shows twice or is skipped while writers go on. Verdicts are in the
 * same batches, so one number orders both.
 *
 * <p><b>Keeping the list short.</b> A writer's id is a lease: ClickHouse itself refuses its commits
 * once the id is {@value #LEASE_SECONDS} s old ({@code throwIf} in a column of {@code commits}), and
 * a writer takes a new id every {@value #ROTATE_SECONDS} s. So a writer older than the lease and a
 * margin (the <i>fence</i>) never commits again, and a snapshot need not list it: below the fence
 * every row of a writer that closed counts, and only writers that never closed (killed, or given
 * up after a failure, whose last batch may have left rows) are listed with their last batch. A
 * snapshot lists the writers of the last minutes and those, however many processes ran before.
 */
final class ClickHouseSnapshots {

    /** How long a writer id may commit, from the time in it. */
    static final int LEASE_SECONDS = 600;
    /** The age at which a writer takes a new id, well within its lease. */
    static final long ROTATE_SECONDS = 300;
    /**
     * Beyond the lease, before a writer is taken as done: a commit checked just before its lease
     * ended lands within milliseconds (one row), and this process's idea of the server's clock may
     * be off by a second or two.
     */
    static final long FENCE_MARGIN_SECONDS = 120;
    /** Snapshots older than this may be dropped (the whole day's partition goes at once). */
    static final int KEEP_DAYS = 2;
    private static final String MAX = "18446744073709551615";
    private static final int VIEWS_KEPT = 256;
    /**
     * How long the newest snapshot read is taken as the newest, unless this process committed since:
     * readers at once share one read of the commits instead of each making its own.
     */
    private static final long NEWEST_REUSE_NANOS = 100_000_000L;

    /**
     * One snapshot, resolved: every writer listed with the last batch it holds of it; an unlisted
     * writer below the fence counts whole (it closed), one above it not at all (it came later).
     */
    record View(long total, long fence, long[] writers, long[] seqs) {

        static final View EMPTY = new View(0, 0, new long[0], new long[0]);

        Snapshot snapshot() {
            return new Snapshot(total, 0);
        }

        /** The condition on a row's {@code writer} and {@code seq} that keeps the rows this snapshot holds. */
        String visible() {
            if (total == 0) {
                return "0";
            }
            String unlisted = "if(writer < " + ClickHouseSql.unsigned(fence) + ", toUInt64(" + MAX + "), toUInt64(0))";
            if (writers.length == 0) {
                return "seq <= " + unlisted;
            }
            StringBuilder sb = new StringBuilder(writers.length * 48 + 128).append("seq <= transform(writer, [");
            for (int i = 0; i < writers.length; i++) {
                sb.append(i == 0 ? "toUInt64(" : ", ").append(ClickHouseSql.unsigned(writers[i])).append(i == 0 ? ")" : "");
            }
            sb.append("], [");
            for (int i = 0; i < seqs.length; i++) {
                sb.append(i == 0 ? "toUInt64(" : ", ").append(seqs[i]).append(i == 0 ? ")" : "");
            }
            return sb.append("], ").append(unlisted).append(')').toString();
        }

        /** The last batch of {@code writer} this snapshot holds ({@code -1} for all of them). */
        long seqOf(long writer) {
            int i = Arrays.binarySearch(writers, writer);
            if (i >= 0) {
                return seqs[i];
            }
            return Long.compareUnsigned(writer, fence) < 0 ? -1 : 0;
        }

        /** Whether every row of {@code other} is in this snapshot too. */
        boolean contains(View other) {
            if (other.total == 0) {
                return true;
            }
            if (total < other.total || Long.compareUnsigned(other.fence, fence) > 0) {
                return false;
            }
            for (long w : other.writers) {
                if (Long.compareUnsigned(seqOf(w), other.seqOf(w)) < 0) {
                    return false;
                }
            }
            for (long w : writers) {
                if (Long.compareUnsigned(seqOf(w), other.seqOf(w)) < 0) {
                    return false;
                }
            }
            return true;
        }
    }

    private final ClickHouseHttp http;
    private final URI meta;
    private final String db;
    /** The first shard's clock minus this process's, in milliseconds. */
    private final long serverOffsetMillis;
    /** Writers below this are done: their last batches are summed in {@link #totalBelow}, those that never closed listed in {@link #crashed}. */
    private long fence;
    private long totalBelow;
    private final TreeMap<Long, Long> crashed = new TreeMap<>(Long::compareUnsigned);
    /** This process's commits so far: a snapshot read before the last of them is not the newest. */
    private final java.util.function.LongSupplier ownCommits;
    private volatile Newest newest;

    /** The newest snapshot as last read, when, and after how many of this process's commits. */
    private record Newest(View view, long readAt, long ownCommits) {
    }
    private final Map<Long, View> views = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, View> eldest) {
            return size() > VIEWS_KEPT;
        }
    };

    /** @param clockAheadSeconds 0; more, for a test, to take writers as done before their time */
    ClickHouseSnapshots(ClickHouseHttp http, URI meta, String db, java.util.function.LongSupplier ownCommits, long clockAheadSeconds) {
        this.ownCommits = ownCommits;
        this.http = http;
        this.meta = meta;
        this.db = db;
        long before = System.currentTimeMillis();
        long server = serverSeconds(http, meta);
        this.serverOffsetMillis = server * 1000 - (before + System.currentTimeMillis()) / 2 + clockAheadSeconds * 1000;
    }

    /** The first shard's clock, seconds since the epoch. */
    static long serverSeconds(ClickHouseHttp http, URI meta) {
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(meta, "SELECT toUInt64(now())"));
        rows.nextRow();
        return rows.number();
    }

    /** The newest snapshot: the last batch every writer has committed, stored under its total when it is new. */
    View newest() {
        long commits = ownCommits.getAsLong();
        Newest last = newest;
        if (last != null && last.ownCommits() == commits && System.nanoTime() - last.readAt() < NEWEST_REUSE_NANOS) {
            return last.view();
        }
        long readAt = System.nanoTime();
        View view = readNewest(true);
        newest = new Newest(view, readAt, commits);
        return view;
    }

    /** The newest snapshot, read without storing it (for {@code check}, which changes nothing). */
    View newestUnrecorded() {
        return readNewest(false);
    }

    /**
     * The writers past the fence that never closed (killed, or given up after a failure), each with
     * the last batch it committed: rows of theirs beyond it were never committed and never will be.
     */
    synchronized Map<Long, Long> crashedWriters() {
        long wanted = fence();
        if (Long.compareUnsigned(wanted, fence) > 0) {
            passFence(wanted);
        }
        return new TreeMap<>(crashed);
    }

    private View readNewest(boolean record) {
        long wanted = fence();
        synchronized (this) {
            if (Long.compareUnsigned(wanted, fence) > 0) {
                passFence(wanted);
            }
        }
        long fenceNow;
        synchronized (this) {
            fenceNow = fence;
        }
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(meta, "SELECT writer, max(seq) FROM " + db
                + ".commits WHERE fingerprint = '' AND writer >= " + ClickHouseSql.unsigned(fenceNow) + " GROUP BY writer"));
        TreeMap<Long, Long> listed = new TreeMap<>(Long::compareUnsigned);
        long activeTotal = 0;
        while (rows.nextRow()) {
            long writer = rows.unsigned();
            long seq = rows.number();
            activeTotal += seq;
            if (seq > 0) {
                listed.put(writer, seq);
            }
        }
        View view;
        synchronized (this) {
            if (fence != fenceNow) {
                return readNewest(record); // another reader moved the fence meanwhile: read again against it
            }
            long total = totalBelow + activeTotal;
            if (total == 0) {
                return View.EMPTY;
            }
            View known = views.get(total);
            if (known != null) {
                return known;
            }
            listed.putAll(crashed);
            long[] writers = new long[listed.size()];
            long[] seqs = new long[listed.size()];
            int i = 0;
            for (Map.Entry<Long, Long> e : listed.entrySet()) {
                writers[i] = e.getKey();
                seqs[i++] = e.getValue();
            }
            view = new View(total, fence, writers, seqs);
        }
        if (!record) {
            return view;
        }
        store(view);
        synchronized (this) {
            views.put(view.total(), view);
        }
        return view;
    }

    /** The snapshot {@code snapshot} names, as stored by whichever process made it; null when none is known. */
    View of(Snapshot snapshot) {
        if (snapshot.verdicts() != 0) {
            return null;
        }
        if (snapshot.hits() == 0) {
            return View.EMPTY;
        }
        synchronized (this) {
            View known = views.get(snapshot.hits());
            if (known != null) {
                return known;
            }
        }
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(meta, "SELECT fence, writer, seq FROM " + db
                + ".snapshots WHERE total = " + snapshot.hits() + " ORDER BY fence DESC, writer"));
        long fenceOf = 0;
        boolean found = false;
        TreeMap<Long, Long> listed = new TreeMap<>(Long::compareUnsigned);
        while (rows.nextRow()) {
            long f = rows.unsigned();
            long writer = rows.unsigned();
            long seq = rows.number();
            if (found && f != fenceOf) {
                break; // the same snapshot listed against an older fence by another process: the newest listing suffices
            }
            found = true;
            fenceOf = f;
            if (writer != 0) {
                listed.put(writer, seq);
            }
        }
        if (!found) {
            return null;
        }
        long[] writers = listed.keySet().stream().mapToLong(Long::longValue).toArray();
        long[] seqs = listed.values().stream().mapToLong(Long::longValue).toArray();
        View view = new View(snapshot.hits(), fenceOf, writers, seqs);
        synchronized (this) {
            views.put(view.total(), view);
        }
        return view;
    }

    /** Drops the days of snapshots older than {@link #KEEP_DAYS}: a page of one that old is answered as gone. */
    void dropOld() {
        String oldest = LocalDate.now(ZoneOffset.UTC).minusDays(KEEP_DAYS).format(DateTimeFormatter.BASIC_ISO_DATE);
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(meta, "SELECT DISTINCT partition FROM system.parts WHERE database = "
                + ClickHouseSql.quote(db) + " AND table = 'snapshots' AND active AND partition < " + ClickHouseSql.quote(oldest)));
        while (rows.nextRow()) {
            String partition = rows.text();
            if (partition.matches("[0-9]{8}")) {
                http.execute(meta, "ALTER TABLE " + db + ".snapshots DROP PARTITION " + partition);
            }
        }
    }

    /** The fence now: writer ids older than their lease and the margin, by the first shard's clock. */
    private long fence() {
        long serverSeconds = (System.currentTimeMillis() + serverOffsetMillis) / 1000;
        return (serverSeconds - LEASE_SECONDS - FENCE_MARGIN_SECONDS) << 32;
    }

    /** Takes the writers between the fence and {@code to} as done. */
    private void passFence(long to) {
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(meta, "SELECT writer, max(seq), max(closed) FROM " + db
                + ".commits WHERE fingerprint = '' AND writer >= " + ClickHouseSql.unsigned(fence) + " AND writer < "
                + ClickHouseSql.unsigned(to) + " GROUP BY writer"));
        while (rows.nextRow()) {
            long writer = rows.unsigned();
            long seq = rows.number();
            boolean closed = rows.number() == 1;
            totalBelow += seq;
            if (!closed) {
                crashed.put(writer, seq);
            }
        }
        fence = to;
    }

    private void store(View view) {
        ClickHouseTsv.Writer rows = new ClickHouseTsv.Writer(64 + view.writers().length * 48);
        rows.field(view.total()).tab().unsigned(view.fence()).tab().field(0).tab().field(0).endRow();
        for (int i = 0; i < view.writers().length; i++) {
            rows.field(view.total()).tab().unsigned(view.fence()).tab().unsigned(view.writers()[i]).tab().field(view.seqs()[i]).endRow();
        }
        ClickHouseHttp.await(http.insert(meta, db + ".snapshots (total, fence, writer, seq)", rows));
    }
}
