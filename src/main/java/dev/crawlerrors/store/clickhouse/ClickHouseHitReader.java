package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.BreakdownCount;
import dev.crawlerrors.store.DurationBuckets;
import dev.crawlerrors.store.DurationCount;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.MinuteCell;
import dev.crawlerrors.store.MinuteChange;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.TimeCount;
import dev.crawlerrors.store.UrlCount;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The report's reads on ClickHouse, each at a snapshot ({@link ClickHouseSnapshots}): the rows
 * whose batches it holds, whose claims' verdicts at it are among those asked for. Reads go to the
 * server {@code --db} names, through the Distributed table when the store spans a cluster; a page
 * reads the minutes its rows fall in (the primary key's first column), sorted by the report's key
 * (time, writer, number), then its rows' verdicts from the first shard.
 */
final class ClickHouseHitReader implements HitReader {

    /**
     * A hit's id, the address of its own page: its writer's number {@code n} below, the low 31 bits
     * of its writer (random) above, so that two writers' hits of the same number have ids of their
     * own. A writer takes a new id every few minutes, long before its numbers pass 32 bits.
     */
    static final String ID = "bitOr(bitShiftLeft(bitAnd(writer, 2147483647), 32), n)";
    private static final String COLUMNS = "SELECT " + ID + ", ts_ms, utc_offset_minutes, ip, method, url, status, duration_ms, crawler, bot_type,"
            + " claim, user_agent, host";
    private static final String MINUTE = "intDiv(ts_ms, 60000)";
    /** {@link DurationBuckets#bucket} in ClickHouse's SQL (numbers as Java writes them, whatever the locale). */
    private static final String DURATION_BUCKET = "toInt32(if(ifNull(duration_ms, 0) >= " + DurationBuckets.FLOOR_MS + ", least("
            + DurationBuckets.LAST + ", 1 + floor(log(ifNull(duration_ms, 0) / " + DurationBuckets.FLOOR_MS + ") / log("
            + DurationBuckets.RATIO + "))), 0))";
    /** Claims whose verdicts changed between two snapshots that are looked up among the earlier one's hits, at most. */
    private static final int MAX_CHANGED_CLAIMS = 10_000;
    /** Times beyond these are no bound: a page of the whole view. */
    private static final long NO_BOUND = Long.MAX_VALUE / 4;

    private final ClickHouseHttp http;
    private final ClickHouseCluster cluster;
    private final String db;
    private final String hits;
    /** The hits' counts by minute, batch, status, bot type, crawler and claim (ClickHouseSchema's {@code minute_counts}). */
    private final String minuteCounts;
    private final ClickHouseSnapshots snapshots;
    private final ClickHouseVerdicts verdicts;
    private final Runnable beforeRead;
    private final dev.crawlerrors.store.UrlStates urlStates;
    private final dev.crawlerrors.store.SitemapStore sitemaps;

    /** @param beforeRead commits what this process appended, so its reads see it */
    ClickHouseHitReader(ClickHouseHttp http, ClickHouseCluster cluster, String db, ClickHouseSnapshots snapshots,
            ClickHouseVerdicts verdicts, Runnable beforeRead, dev.crawlerrors.store.UrlStates urlStates,
            dev.crawlerrors.store.SitemapStore sitemaps) {
        this.urlStates = urlStates;
        this.sitemaps = sitemaps;
        this.http = http;
        this.cluster = cluster;
        this.db = db;
        this.hits = db + (cluster.distributed() ? ".hits" : ".hits_local");
        this.minuteCounts = db + (cluster.distributed() ? ".minute_counts" : ".minute_counts_local");
        this.snapshots = snapshots;
        this.verdicts = verdicts;
        this.beforeRead = beforeRead;
    }

    /**
     * Not yet: the rows' contract on a two-shard cluster hung in its case of snapshots that move
     * while the rows are copied (the writer's flush waiting, the cause not found), so a ClickHouse
     * store's pages are read from it as before.
     */
    @Override
    public boolean defaultRowsHeld() {
        return false;
    }

    @Override
    public dev.crawlerrors.store.UrlStates urlStates() {
        return urlStates;
    }

    @Override
    public dev.crawlerrors.store.SitemapStore sitemaps() {
        return sitemaps;
    }

    @Override
    public Snapshot snapshot() {
        beforeRead.run();
        return snapshots.newest().snapshot();
    }

    /**
     * The newest snapshot as last read, read again at most once a {@value #COMMITTED_LOOK_MS} ms and
     * without committing this process's buffered rows: serve looks every few milliseconds for a new
     * snapshot to render its first page ahead, which on ClickHouse is a query of the first shard.
     */
    @Override
    public Snapshot committed() {
        Looked last = looked;
        long now = System.nanoTime();
        if (last != null && now - last.at() < COMMITTED_LOOK_MS * 1_000_000L) {
            return last.snapshot();
        }
        Snapshot newest = snapshots.newest().snapshot();
        looked = new Looked(newest, now);
        return newest;
    }

    /** How often {@link #committed} asks the store. */
    static final long COMMITTED_LOOK_MS = 1_000;

    private record Looked(Snapshot snapshot, long at) {
    }

    private volatile Looked looked;

    @Override
    public boolean serves(Snapshot snapshot) {
        return snapshots.of(snapshot) != null;
    }

    /**
     * Where a count of the hits {@code filter} matches is read, by minute: the per-minute counts
     * when they answer it (a filter of statuses, bot types, crawlers, verdicts and whole minutes:
     * a few rows a minute, a batch and a claim, instead of every hit), else the hits. The two give
     * the same numbers; {@code m} is the minute, {@code n} the hits of a row.
     */
    private Counted counted(HitFilter filter) {
        String byMinute = ClickHouseFilter.minuteWhere(filter);
        return byMinute != null ? new Counted(minuteCounts, "minute", "sum(hits)", byMinute) : onHits(filter);
    }

    private Counted onHits(HitFilter filter) {
        // whether a sitemap lists a hit's URL is asked of the shard's own copy of the sitemaps (ClickHouseSitemaps)
        return new Counted(hits, MINUTE, "count()", ClickHouseFilter.where(filter)
                + (filter.inSitemap() == null ? "" : " AND " + ClickHouseSitemaps.condition(db, filter.inSitemap())));
    }

    /** A table of hits or counts: its minute, its count of hits and the filter as a condition on it. */
    private record Counted(String table, String minute, String count, String where) {
    }

    @Override
    public MinuteCounts minuteCounts(HitFilter filter, Snapshot snapshot) {
        ClickHouseSnapshots.View view = view(snapshot);
        Counted from = counted(filter);
        String sql = "SELECT " + from.minute() + " AS m, " + from.count() + " FROM " + from.table() + " WHERE " + where(from, filter, view)
                + " GROUP BY m";
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
        Counted read = counted(filter);
        add(change, http.query(cluster.entry(), "SELECT " + read.minute() + " AS m, " + read.count() + " FROM " + read.table() + " WHERE "
                + where(read, filter, after) + " AND NOT (" + before.visible() + ") GROUP BY m"));
        // hits there before whose claims got a verdict after: in the view after, less in it before
        String wantedAfter = verdicts.filter(filter.effectiveVerifications(), after);
        if (wantedAfter != null) {
            String wantedBefore = verdicts.filter(filter.effectiveVerifications(), before);
            String changed = "claim IN (SELECT claim FROM " + db + ".verdict_log_local WHERE " + after.visible() + " AND NOT ("
                    + before.visible() + "))";
            String one = read.table().equals(hits) ? "1" : "hits";
            add(change, http.query(cluster.entry(), "SELECT " + read.minute() + " AS m, toInt64(sumIf(" + one + ", " + wantedAfter + "))"
                    + " - toInt64(sumIf(" + one + ", " + wantedBefore + ")) FROM " + read.table() + " WHERE " + read.where() + " AND "
                    + before.visible() + " AND " + changed + " GROUP BY m"));
        }
        return MinuteChange.of(change);
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

    private ClickHouseSnapshots.View view(Snapshot snapshot) {
        ClickHouseSnapshots.View view = snapshots.of(snapshot);
        if (view == null) {
            throw new IllegalArgumentException("snapshot " + snapshot.token() + " is not one this store made");
        }
        return view;
    }

    /** The view's condition at a snapshot: the filter, the rows it holds, the verdicts asked for. */
    private String where(HitFilter filter, ClickHouseSnapshots.View view) {
        return where(onHits(filter), filter, view);
    }

    /** The same, on the hits or the counts {@code from} reads. */
    private String where(Counted from, HitFilter filter, ClickHouseSnapshots.View view) {
        String verdict = verdicts.filter(filter.effectiveVerifications(), view);
        return from.where() + " AND " + view.visible() + (verdict == null ? "" : " AND " + verdict);
    }

    /**
     * Whether no hit of {@code from} has another verdict at {@code to}: the verdicts recorded
     * between them (every snapshot here has verdict number 0, so the default cannot tell) are all
     * of claims none of whose hits {@code from} holds.
     */
    @Override
    public boolean sameVerdicts(Snapshot from, Snapshot to) {
        ClickHouseSnapshots.View before = snapshots.of(from);
        ClickHouseSnapshots.View after = snapshots.of(to);
        if (before == null || after == null || !after.contains(before)) {
            return false;
        }
        if (after.total() == before.total()) {
            return true;
        }
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT DISTINCT claim FROM " + db
                + ".verdict_log_local WHERE " + after.visible() + " AND NOT (" + before.visible() + ") LIMIT " + (MAX_CHANGED_CLAIMS + 1)));
        StringBuilder claims = new StringBuilder();
        int n = 0;
        while (rows.nextRow()) {
            if (++n > MAX_CHANGED_CLAIMS) {
                return false;
            }
            claims.append(n == 1 ? "" : ",").append(Long.toUnsignedString(rows.unsigned()));
        }
        if (n == 0) {
            return true;
        }
        ClickHouseTsv.Reader hit = new ClickHouseTsv.Reader(http.query(cluster.entry(), "SELECT count() FROM " + minuteCounts + " WHERE "
                + before.visible() + " AND claim IN (" + claims + ")"));
        return hit.nextRow() && hit.number() == 0;
    }

    /**
     * One hit by its id ({@link #ID}), with its verdict at {@code snapshot}; should two writers'
     * low bits ever be alike, the newest of their hits of that number is the one answered.
     */
    @Override
    public Optional<StoredHit> hit(long id, Snapshot snapshot) {
        ClickHouseSnapshots.View view = snapshots.of(snapshot);
        if (id < 1 || view == null || view.total() == 0) {
            return Optional.empty();
        }
        String sql = COLUMNS + " FROM " + hits + " WHERE n = " + (id & 0xFFFF_FFFFL) + " AND bitAnd(writer, 2147483647) = " + (id >>> 32) + " AND " + view.visible() + " ORDER BY ts_ms DESC, writer DESC LIMIT 1";
        ClickHouseTsv.Reader r = new ClickHouseTsv.Reader(http.query(cluster.entry(), sql));
        if (!r.nextRow()) {
            return Optional.empty();
        }
        Row row = new Row(r.number(), r.number(), (int) r.number(), r.text(), r.text(), r.text(), (int) r.number(), r.decimal(),
                r.text(), r.text(), r.unsigned(), r.text(), r.text());
        Verdict verdict = verdicts.at(new long[] {row.claim()}, view).getOrDefault(row.claim(), ClickHouseVerdicts.NOT_CHECKED);
        return Optional.of(new StoredHit(row.n(), row.epochMillis(), row.offsetMinutes(), row.ip(), row.method(), row.url(), row.status(),
                row.durationMs(), row.crawler(), row.botType(), verdict.verification().name(), verdict.reason(), row.userAgent(),
                row.host()));
    }

    @Override
    public List<TimeCount> countByTime(HitFilter filter, HitWindow window, long bucketMillis) {
        ClickHouseSnapshots.View view = view(window.snapshot());
        Counted from = bucketMillis % ClickHouseFilter.MINUTE_MILLIS == 0 ? counted(filter) : onHits(filter);
        String millis = from.table().equals(hits) ? "ts_ms" : "minute * " + ClickHouseFilter.MINUTE_MILLIS;
        String sql = "SELECT intDiv(" + millis + ", " + bucketMillis + ") * " + bucketMillis + " AS b, status, " + verdict(view) + " AS v, "
                + from.count() + " FROM " + from.table() + " WHERE " + where(from, filter, window) + " GROUP BY b, status, v";
        ClickHouseTsv.Reader r = new ClickHouseTsv.Reader(http.query(cluster.entry(), sql));
        List<TimeCount> rows = new ArrayList<>();
        while (r.nextRow()) {
            rows.add(new TimeCount(r.number(), (int) r.number(), r.text(), r.number()));
        }
        return rows;
    }

    @Override
    public List<BreakdownCount> countByCrawler(HitFilter filter, HitWindow window) {
        ClickHouseSnapshots.View view = view(window.snapshot());
        Counted from = counted(filter);
        String sql = "SELECT crawler, bot_type, " + verdict(view) + " AS v, status, " + from.count() + " FROM " + from.table() + " WHERE "
                + where(from, filter, window) + " GROUP BY crawler, bot_type, v, status";
        ClickHouseTsv.Reader r = new ClickHouseTsv.Reader(http.query(cluster.entry(), sql));
        List<BreakdownCount> rows = new ArrayList<>();
        while (r.nextRow()) {
            rows.add(new BreakdownCount(r.text(), r.text(), r.text(), (int) r.number(), r.number()));
        }
        return rows;
    }

    @Override
    public void countByMinute(HitWindow window, boolean byUrl, Consumer<MinuteCell> cells) {
        ClickHouseSnapshots.View view = view(window.snapshot());
        // host and URL are the hits' alone; the rest is in the per-minute counts
        Counted from = byUrl ? onHits(MinuteCell.EVERY_HIT) : counted(MinuteCell.EVERY_HIT);
        String head = "extract(url, " + ClickHouseSql.quote(MinuteCell.URL_HEAD) + ")";
        String url = byUrl ? ", host, if(" + head + " != '', " + head + ", if(startsWith(url, '/'), '/', '')) AS head" : "";
        String sql = "SELECT " + from.minute() + " AS m, status, bot_type, crawler, " + verdict(view) + " AS v" + url + ", " + from.count()
                + " FROM " + from.table() + " WHERE " + where(from, MinuteCell.EVERY_HIT, window) + " GROUP BY m, status, bot_type, crawler, v"
                + (byUrl ? ", host, head" : "");
        http.queryRows(cluster.entry(), sql, r -> {
            while (r.nextRow()) {
                cells.accept(byUrl
                        ? new MinuteCell(r.number(), (int) r.number(), r.text(), r.text(), r.text(), r.text(), r.text(), r.number())
                        : new MinuteCell(r.number(), (int) r.number(), r.text(), r.text(), r.text(), r.number()));
            }
        });
    }

    @Override
    public void countBySitemap(HitWindow window, Consumer<MinuteCell> cells) {
        ClickHouseSnapshots.View view = view(window.snapshot());
        Counted from = onHits(MinuteCell.EVERY_HIT);
        String sql = "SELECT " + from.minute() + " AS m, status, bot_type, crawler, " + verdict(view) + " AS v, "
                + ClickHouseSitemaps.condition(db, true) + " AS l, " + from.count() + " FROM " + from.table() + " WHERE "
                + where(from, MinuteCell.EVERY_HIT, window) + " GROUP BY m, status, bot_type, crawler, v, l";
        http.queryRows(cluster.entry(), sql, r -> {
            while (r.nextRow()) {
                cells.accept(MinuteCell.listed(r.number(), (int) r.number(), r.text(), r.text(), r.text(), r.number() != 0, r.number()));
            }
        });
    }

    @Override
    public List<DurationCount> countByDuration(HitFilter filter, HitWindow window) {
        ClickHouseSnapshots.View view = view(window.snapshot());
        String sql = "SELECT status, " + verdict(view) + " AS v, " + DURATION_BUCKET + " AS d, count() FROM " + hits + " WHERE "
                + where(filter, window) + " AND duration_ms IS NOT NULL GROUP BY status, v, d";
        ClickHouseTsv.Reader r = new ClickHouseTsv.Reader(http.query(cluster.entry(), sql));
        List<DurationCount> rows = new ArrayList<>();
        while (r.nextRow()) {
            rows.add(new DurationCount((int) r.number(), r.text(), (int) r.number(), r.number()));
        }
        return rows;
    }

    @Override
    public void forEachUrl(HitFilter filter, HitWindow window, Consumer<UrlCount> urls) {
        String sql = "SELECT url, status, bot_type, count(), min(ts_ms), max(ts_ms), count(duration_ms), countIf(ifNull(duration_ms, 0) >= "
                + DurationBuckets.SLOW_MS + "), max(location), maxIf(host, location IS NOT NULL) FROM " + hits + " WHERE " + where(filter, window)
                + " GROUP BY url, status, bot_type";
        // streamed: a view of millions of URLs is never held whole
        http.queryRows(cluster.entry(), sql, r -> {
            while (r.nextRow()) {
                urls.accept(new UrlCount(r.text(), (int) r.number(), r.text(), r.number(), r.number(), r.number(), r.number(), r.number(),
                        r.text(), r.text()));
            }
        });
    }

    /** The view's condition over {@code window}: the hits its snapshot holds and the one it starts after does not. */
    private String where(HitFilter filter, HitWindow window) {
        return where(onHits(filter), filter, window);
    }

    private String where(Counted from, HitFilter filter, HitWindow window) {
        String where = where(from, filter, view(window.snapshot()));
        if (window.afterHits() == 0) {
            return where;
        }
        return where + " AND NOT (" + view(new Snapshot(window.afterHits(), 0)).visible() + ")";
    }

    /** A hit's verdict at {@code view}, as a column, so that counts grouped by verdict need no join. */
    private String verdict(ClickHouseSnapshots.View view) {
        return "multiIf(" + verdicts.filter(Set.of(Verification.verified), view) + ", 'verified', "
                + verdicts.filter(Set.of(Verification.spoofed), view) + ", 'spoofed', 'unverified')";
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
