package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.MinuteChange;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoredHit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The report's reads on ClickHouse, each at a snapshot ({@link ClickHouseSnapshots}): the rows
 * whose batches it holds, whose claims' verdicts at it are among those asked for. Reads go to the
 * server {@code --db} names, through the Distributed table when the store spans a cluster; a page
 * reads the minutes its rows fall in (the primary key's first column), sorted by the report's key
 * (time, writer, number), then its rows' verdicts from the first shard.
 */
final class ClickHouseHitReader implements HitReader {

    private static final String COLUMNS = "SELECT n, ts_ms, utc_offset_minutes, ip, method, url, status, duration_ms, crawler, bot_type,"
            + " claim, user_agent, host";
    private static final String MINUTE = "intDiv(ts_ms, 60000)";
    /** Times beyond these are no bound: a page of the whole view. */
    private static final long NO_BOUND = Long.MAX_VALUE / 4;

    private final ClickHouseHttp http;
    private final ClickHouseCluster cluster;
    private final String db;
    private final String hits;
    private final ClickHouseSnapshots snapshots;
    private final ClickHouseVerdicts verdicts;
    private final Runnable beforeRead;

    /** @param beforeRead commits what this process appended, so its reads see it */
    ClickHouseHitReader(ClickHouseHttp http, ClickHouseCluster cluster, String db, ClickHouseSnapshots snapshots,
            ClickHouseVerdicts verdicts, Runnable beforeRead) {
        this.http = http;
        this.cluster = cluster;
        this.db = db;
        this.hits = db + (cluster.distributed() ? ".hits" : ".hits_local");
        this.snapshots = snapshots;
        this.verdicts = verdicts;
        this.beforeRead = beforeRead;
    }

    @Override
    public Snapshot snapshot() {
        beforeRead.run();
        return snapshots.newest().snapshot();
    }

    @Override
    public boolean serves(Snapshot snapshot) {
        return snapshots.of(snapshot) != null;
    }

    @Override
    public MinuteCounts minuteCounts(HitFilter filter, Snapshot snapshot) {
        ClickHouseSnapshots.View view = view(snapshot);
        String sql = "SELECT " + MINUTE + " AS m, count() FROM " + hits + " WHERE " + where(filter, view) + " GROUP BY m";
        long[][] counts = minutes(http.query(cluster.entry(), sql));
        return MinuteCounts.of(counts[0], counts[1]);
    }

    @Override
    public MinuteChange minuteChange(HitFilter filter, Snapshot from, Snapshot to) {
        ClickHouseSnapshots.View before = snapshots.of(from);
        ClickHouseSnapshots.View after = snapshots.of(to);
        if (before == null || after == null || !after.contains(before)) {
            return null;
        }
        Map<Long, Long> change = new HashMap<>();
        if (after.total() == before.total()) {
            return MinuteChange.NONE;
        }
        // hits whose batches came after: in the view as it is after
        add(change, http.query(cluster.entry(), "SELECT " + MINUTE + " AS m, count() FROM " + hits + " WHERE " + where(filter, after)
                + " AND NOT (" + before.visible() + ") GROUP BY m"));
        // hits there before whose claims got a verdict after: in the view after, less in it before
        String wantedAfter = verdicts.filter(filter.effectiveVerifications(), after);
        if (wantedAfter != null) {
            String wantedBefore = verdicts.filter(filter.effectiveVerifications(), before);
            String changed = "claim IN (SELECT claim FROM " + db + ".verdict_log_local WHERE " + after.visible() + " AND NOT ("
                    + before.visible() + "))";
            add(change, http.query(cluster.entry(), "SELECT " + MINUTE + " AS m, toInt64(countIf(" + wantedAfter + ")) - toInt64(countIf(" + wantedBefore + "))"
                    + " FROM " + hits + " WHERE " + ClickHouseFilter.where(filter) + " AND " + before.visible() + " AND " + changed
                    + " GROUP BY m"));
        }
        change.values().removeIf(n -> n == 0);
        long[] minutes = new long[change.size()];
        long[] counts = new long[change.size()];
        int i = 0;
        for (Map.Entry<Long, Long> e : change.entrySet()) {
            minutes[i] = e.getKey();
            counts[i++] = e.getValue();
        }
        return new MinuteChange(minutes, counts);
    }

    @Override
    public List<StoredHit> rows(HitFilter filter, Snapshot snapshot, long fromMillis, long toMillis, long skip, int limit) {
        ClickHouseSnapshots.View view = view(snapshot);
        StringBuilder sql = new StringBuilder(COLUMNS).append(" FROM ").append(hits).append(" WHERE ").append(where(filter, view));
        if (fromMillis > -NO_BOUND) {
            sql.append(" AND ts_ms >= ").append(fromMillis);
        }
        if (toMillis < NO_BOUND) {
            sql.append(" AND ts_ms < ").append(toMillis);
        }
        sql.append(" ORDER BY ts_ms DESC, writer DESC, n DESC");
        if (limit < Integer.MAX_VALUE || skip > 0) {
            sql.append(" LIMIT ").append(skip).append(", ").append(limit);
        }
        ClickHouseTsv.Reader r = new ClickHouseTsv.Reader(http.query(cluster.entry(), sql.toString()));
        List<Row> rows = new ArrayList<>(Math.min(limit, 1024));
        while (r.nextRow()) {
            rows.add(new Row(r.number(), r.number(), (int) r.number(), r.text(), r.text(), r.text(), (int) r.number(), r.decimal(),
                    r.text(), r.text(), r.unsigned(), r.text(), r.text()));
        }
        long[] claims = rows.stream().mapToLong(Row::claim).distinct().toArray();
        Map<Long, Verdict> verdictOf = verdicts.at(claims, view);
        List<StoredHit> hitsFound = new ArrayList<>(rows.size());
        for (Row row : rows) {
            Verdict verdict = verdictOf.getOrDefault(row.claim(), ClickHouseVerdicts.NOT_CHECKED);
            hitsFound.add(new StoredHit(row.n(), row.epochMillis(), row.offsetMinutes(), row.ip(), row.method(), row.url(), row.status(),
                    row.durationMs(), row.crawler(), row.botType(), verdict.verification().name(), verdict.reason(), row.userAgent(),
                    row.host()));
        }
        return hitsFound;
    }

    /** A row as read, before its verdict is looked up. */
    private record Row(long n, long epochMillis, int offsetMinutes, String ip, String method, String url, int status, Double durationMs,
            String crawler, String botType, long claim, String userAgent, String host) {
    }

    @Override
    public long size() {
        ClickHouseSnapshots.View view = view(snapshot());
        ClickHouseTsv.Reader r = new ClickHouseTsv.Reader(http.query(cluster.entry(), "SELECT count() FROM " + hits + " WHERE "
                + view.visible()));
        return r.nextRow() ? r.number() : 0;
    }

    private ClickHouseSnapshots.View view(Snapshot snapshot) {
        ClickHouseSnapshots.View view = snapshots.of(snapshot);
        if (view == null) {
            throw new IllegalArgumentException("snapshot " + snapshot.token() + " is not one this store made");
        }
        return view;
    }

    /** The view's condition at a snapshot: the filter, the rows it holds, the verdicts asked for. */
    private String where(HitFilter filter, ClickHouseSnapshots.View view) {
        String verdict = verdicts.filter(filter.effectiveVerifications(), view);
        return ClickHouseFilter.where(filter) + " AND " + view.visible() + (verdict == null ? "" : " AND " + verdict);
    }

    private static long[][] minutes(byte[] answer) {
        ClickHouseTsv.Reader r = new ClickHouseTsv.Reader(answer);
        long[] minutes = new long[1024];
        long[] counts = new long[1024];
        int n = 0;
        while (r.nextRow()) {
            if (n == minutes.length) {
                minutes = Arrays.copyOf(minutes, n * 2);
                counts = Arrays.copyOf(counts, n * 2);
            }
            minutes[n] = r.number();
            counts[n++] = r.number();
        }
        return new long[][] {Arrays.copyOf(minutes, n), Arrays.copyOf(counts, n)};
    }

    private static void add(Map<Long, Long> change, byte[] answer) {
        long[][] counts = minutes(answer);
        for (int i = 0; i < counts[0].length; i++) {
            change.merge(counts[0][i], counts[1][i], Long::sum);
        }
    }
}
