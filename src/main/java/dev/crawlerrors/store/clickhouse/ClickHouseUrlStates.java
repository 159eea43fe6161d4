package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.SitemapStore;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.UrlHistory;
import dev.crawlerrors.store.UrlHit;
import dev.crawlerrors.store.UrlKey;
import dev.crawlerrors.store.UrlPage;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.store.UrlSort;
import dev.crawlerrors.store.UrlState;
import dev.crawlerrors.store.UrlStateReading;
import dev.crawlerrors.text.Threads;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The URLs' states on ClickHouse. Each hit is written beside it to {@code url_log_local} on its
 * shard, ordered by its URL's number ({@link UrlKey#number()}), so a URL's history is a read of a
 * few granules. A fold adds the hits of the batches committed since the last fold's snapshot to
 * the touched URLs' kept states ({@link ClickHouseUrlFold}) and writes them to {@code url_states}
 * on the first shard under the new snapshot's total, then records the fold in {@code url_folds}: a read takes each URL's row
 * of the highest total up to the fold it reads, so folds of several processes, or a fold killed
 * half-way, never show half a fold. A URL whose scope has no hit left gets a row without a status.
 * A signed hit's history row names its crawler as its claim is recorded, with the claim's group
 * (so that its claim is its verdict's); its scope, and what a view by crawler takes, is the name.
 */
final class ClickHouseUrlStates extends UrlStateReading {

    private static final String STATE_COLUMNS = ClickHouseUrlFold.STATE_COLUMNS;
    /** Claims whose verdicts moved that a read lists at most (the statement's size); beyond, the view waits for a fold. */
    private static final int MOVED_CLAIMS = 2_000;
    private static final String HISTORY = "k, host, url, ts_ms, " + ClickHouseHitReader.ID + ", status, claim, crawler, bot_type, ip";

    private final ClickHouseHttp http;
    private final ClickHouseCluster cluster;
    private final String db;
    private final String log;
    /** The hits in time order ({@code url_times_local}), every shard's. */
    private final String times;
    private final ClickHouseSnapshots snapshots;
    private final ClickHouseVerdicts verdicts;
    private final ClickHouseUrlFold fold;
    private final ExecutorService background = Executors.newSingleThreadExecutor(Threads.daemons("url-state-fold"));
    private final AtomicBoolean foldAsked = new AtomicBoolean();
    /** The snapshot of the newest fold, as last read. */
    private volatile ClickHouseSnapshots.View folded;
    private final SitemapStore sitemaps;

    ClickHouseUrlStates(ClickHouseHttp http, ClickHouseCluster cluster, String db, ClickHouseSnapshots snapshots,
            ClickHouseVerdicts verdicts, SitemapStore sitemaps) {
        this.http = http;
        this.sitemaps = sitemaps;
        this.cluster = cluster;
        this.db = db;
        this.log = db + (cluster.distributed() ? ".url_log" : ".url_log_local");
        this.times = db + (cluster.distributed() ? ".url_times" : ".url_times_local");
        this.snapshots = snapshots;
        this.verdicts = verdicts;
        this.fold = new ClickHouseUrlFold(http, cluster, db, verdicts, this);
        this.folded = lastFold();
    }

    /** The snapshot of the newest fold any process recorded. */
    private ClickHouseSnapshots.View lastFold() {
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT total, fence, arrayStringConcat(arrayMap(w"
                + " -> toString(w), writers), ','), arrayStringConcat(arrayMap(s -> toString(s), seqs), ',') FROM " + db
                + ".url_folds ORDER BY total DESC, made DESC LIMIT 1"));
        if (!rows.nextRow()) {
            return ClickHouseSnapshots.View.EMPTY;
        }
        long total = rows.unsigned();
        long fence = rows.unsigned();
        return new ClickHouseSnapshots.View(total, fence, numbers(rows.text()), numbers(rows.text()));
    }

    private static long[] numbers(String list) {
        return list == null || list.isEmpty() ? new long[0]
                : java.util.Arrays.stream(list.split(",")).mapToLong(Long::parseUnsignedLong).toArray();
    }

    /** The snapshot a read names, as this store's snapshots know it. */
    private ClickHouseSnapshots.View view(Snapshot at) {
        ClickHouseSnapshots.View view = snapshots.of(at);
        if (view == null) {
            throw new IllegalArgumentException("snapshot " + at.token() + " is not one this store made");
        }
        return view;
    }

    @Override
    public void fold() {
        synchronized (this) {
            ClickHouseSnapshots.View from = lastFold();
            ClickHouseSnapshots.View to = snapshots.newest();
            if (to.total() <= from.total()) {
                folded = from;
                return;
            }
            fold.fold(from, to);
            ClickHouseTsv.Writer row = new ClickHouseTsv.Writer(256);
            row.unsigned(to.total()).tab().unsigned(to.fence()).tab().field(array(to.writers())).tab().field(array(to.seqs())).endRow();
            ClickHouseHttp.await(http.insert(cluster.meta(), db + ".url_folds (total, fence, writers, seqs)", row));
            folding.writeLock().lock();
            try {
                folded = to;
            } finally {
                folding.writeLock().unlock();
            }
        }
    }

    private static String array(long[] values) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < values.length; i++) {
            sb.append(i == 0 ? "" : ",").append(Long.toUnsignedString(values[i]));
        }
        return sb.append(']').toString();
    }

    @Override
    protected SitemapStore sitemaps() {
        return sitemaps;
    }

    @Override
    public void catchUp() {
        if (folded.total() >= snapshots.newest().total() || !foldAsked.compareAndSet(false, true)) {
            return;
        }
        background.execute(() -> {
            try {
                fold();
            } catch (RuntimeException e) {
                // a read asked for it; the next one asks again
            } finally {
                foldAsked.set(false);
            }
        });
    }

    /** Stops the background fold: what a store's close does. */
    void close() {
        background.shutdownNow();
    }

    @Override
    protected boolean foldReaches(Snapshot at) {
        return at.hits() >= folded.total();
    }

    @Override
    protected Object keptFold() {
        return folded.total();
    }

    @Override
    protected Set<Long> changed(Snapshot at, int max) {
        ClickHouseSnapshots.View newest = lastFold();
        if (newest.total() > folded.total()) {
            folded = newest; // another process folded further
        }
        ClickHouseSnapshots.View view = view(at);
        if (view.total() == folded.total()) {
            return new LinkedHashSet<>();
        }
        return differing(folded, view, max);
    }

    /**
     * The URLs whose histories differ between two snapshots (rows of batches in one and not the
     * other, or hits of a claim whose verdict moved in between); null when more than {@code max}.
     */
    private Set<Long> differing(ClickHouseSnapshots.View a, ClickHouseSnapshots.View b, int max) {
        List<Long> moved = fold.movedClaims(a, b);
        if (moved.size() > Math.min(max, MOVED_CLAIMS)) {
            return null;
        }
        String sql = "SELECT DISTINCT k FROM " + log + " WHERE (" + a.visible() + ") != (" + b.visible() + ")"
                + (moved.isEmpty() ? "" : " OR claim IN (" + ClickHouseUrlFold.claims(moved) + ")") + " LIMIT " + (max + 1);
        Set<Long> keys = new LinkedHashSet<>();
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(cluster.entry(), sql));
        while (rows.nextRow()) {
            keys.add(rows.number());
        }
        return keys.size() > max ? null : keys;
    }

    @Override
    protected UrlPage kept(UrlQuery q, String scope, Set<Long> excluded, long offset, int limit) {
        String from = from(q, scope, excluded);
        ClickHouseTsv.Reader count = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT count() " + from));
        long total = count.nextRow() ? count.number() : 0;
        List<UrlState> rows = new ArrayList<>();
        if (limit > 0 && offset < total) {
            states("SELECT k, host, url, " + STATE_COLUMNS + " " + from + " ORDER BY " + orderBy(q) + " LIMIT " + offset + ", " + limit,
                    rows::add);
        }
        return new UrlPage(total, rows);
    }

    @Override
    protected void forEachKept(UrlQuery q, String scope, Set<Long> excluded, Consumer<UrlState> rows) {
        states("SELECT k, host, url, " + STATE_COLUMNS + " " + from(q, scope, excluded) + " ORDER BY " + orderBy(q), rows);
    }

    private void states(String sql, Consumer<UrlState> each) {
        ClickHouseTsv.Reader r = new ClickHouseTsv.Reader(http.query(cluster.meta(), sql));
        while (r.nextRow()) {
            each.accept(ClickHouseUrlFold.state(r));
        }
    }

    /** The kept states of a scope, each URL's of the newest fold read, that a query takes by URL and state, less {@code excluded}. */
    private String from(UrlQuery q, String scope, Set<Long> excluded) {
        List<String> parts = new ArrayList<>();
        parts.add("last_status IS NOT NULL");
        if (!excluded.isEmpty()) {
            parts.add("k NOT IN (" + list(excluded) + ")");
        }
        urlConditions(q, parts);
        if (!q.states().isEmpty()) {
            List<String> states = new ArrayList<>();
            for (UrlState.State state : q.states()) {
                states.add(switch (state) {
                    case broken -> "last_status >= 400";
                    case redirected -> "(last_status BETWEEN 300 AND 399 AND last_status != 304)";
                    case ok -> "(last_status < 300 OR last_status = 304)";
                });
            }
            parts.add("(" + String.join(" OR ", states) + ")");
        }
        if (q.fixedOnly()) {
            parts.add("fixed_since != " + UrlState.NONE);
        }
        if (q.inconsistentOnly()) {
            parts.add("flips >= 2");
        }
        if (!q.filter().statuses().isEmpty()) {
            List<String> statuses = new ArrayList<>();
            for (StatusRange range : q.filter().statuses()) {
                statuses.add("last_status BETWEEN " + range.low() + " AND " + range.high());
            }
            parts.add("(" + String.join(" OR ", statuses) + ")");
        }
        return "FROM (SELECT * FROM " + db + ".url_states WHERE scope = " + ClickHouseSql.quote(scope) + " AND version <= "
                + folded.total() + " ORDER BY k, version DESC LIMIT 1 BY k) WHERE " + String.join(" AND ", parts);
    }

    /** A query's conditions on a URL's name: its host, prefix and shape, and whether a sitemap lists it. */
    private void urlConditions(UrlQuery q, List<String> parts) {
        if (q.filter().host() != null) {
            parts.add("host = " + ClickHouseSql.quote(q.filter().host()));
        }
        if (q.filter().urlPrefix() != null) {
            parts.add("startsWith(url, " + ClickHouseSql.quote(q.filter().urlPrefix()) + ")");
        }
        if (q.filter().urlPattern() != null) {
            parts.add(ClickHouseFilter.pattern(q.filter().urlPattern()));
        }
        if (q.filter().inSitemap() != null) {
            parts.add(ClickHouseSitemaps.condition(db, q.filter().inSitemap()));
        }
    }

    private static String orderBy(UrlQuery q) {
        String first = switch (q.sort()) {
            case errors -> "error_hits DESC";
            case last_error -> "last_error DESC";
            case first_error -> "first_error DESC";
            case last_crawled -> "last_crawled DESC";
        };
        return first + ", k";
    }

    private static String list(Collection<Long> keys) {
        return ClickHouseUrlFold.list(keys);
    }

    @Override
    protected void histories(Collection<Long> keys, Snapshot at, boolean addresses, Consumer<UrlHistory> each) {
        if (keys.isEmpty()) {
            return;
        }
        ClickHouseSnapshots.View view = view(at);
        read("SELECT " + HISTORY + " FROM " + log + " WHERE k IN (" + list(keys) + ") AND " + view.visible()
                + " ORDER BY k, ts_ms, writer, n", view, addresses, each);
    }

    @Override
    protected Set<Long> hostsOf(String url, Snapshot at) {
        Set<Long> keys = new LinkedHashSet<>();
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(cluster.entry(), "SELECT DISTINCT k FROM " + log + " WHERE url = "
                + ClickHouseSql.quote(url) + " AND " + view(at).visible()));
        while (rows.nextRow()) {
            keys.add(rows.number());
        }
        return keys;
    }

    @Override
    protected void histories(UrlQuery q, Snapshot at, Consumer<UrlHistory> each) {
        ClickHouseSnapshots.View view = view(at);
        List<String> parts = rangeAndCrawlers(q, view);
        urlConditions(q, parts);
        read("SELECT " + HISTORY + " FROM " + log + " WHERE " + String.join(" AND ", parts) + " ORDER BY k, ts_ms, writer, n", view, false,
                each);
    }

    /** The conditions on a history's rows that {@code q}'s time range and crawlers make, those at {@code view} only. */
    private static List<String> rangeAndCrawlers(UrlQuery q, ClickHouseSnapshots.View view) {
        List<String> parts = new ArrayList<>();
        parts.add(view.visible());
        if (q.filter().from() != null) {
            parts.add("ts_ms >= " + q.filter().from().toEpochMilli());
        }
        if (q.filter().to() != null) {
            parts.add("ts_ms < " + q.filter().to().toEpochMilli());
        }
        if (!q.filter().crawlers().isEmpty()) {
            parts.add(crawlers(q.filter().crawlers()));
        }
        return parts;
    }

    /**
     * The condition on a history's {@code crawler} that takes the hits of {@code names}: recorded
     * under a name, or for a signed hit under a name and its group ({@link CrawlerHit#signedClaim}).
     */
    static String crawlers(Collection<String> names) {
        List<String> sorted = names.stream().sorted().toList();
        StringBuilder sql = new StringBuilder("(crawler IN (").append(ClickHouseSql.quoted(sorted)).append(")");
        for (String name : sorted) {
            sql.append(" OR startsWith(crawler, ").append(ClickHouseSql.quote(name + CrawlerHit.GROUP)).append(")");
        }
        return sql.append(")").toString();
    }

    /** The crawler's name a history's {@code crawler} holds: a signed hit's is followed by its claim's group. */
    static String crawlerOf(String recorded) {
        return CrawlerHit.crawlerOf(recorded);
    }

    /**
     * The histories of a time range's hits by number, from {@code url_times}: the range's rows of
     * the host, heads and crawlers asked, each URL's together; no name is read.
     */
    @Override
    protected boolean numberedHistories(UrlQuery q, Snapshot at, BiConsumer<Long, List<UrlHit>> each) {
        if (q.filter().from() == null && q.filter().to() == null) {
            return false;
        }
        ClickHouseSnapshots.View view = view(at);
        List<String> parts = rangeAndCrawlers(q, view);
        if (q.filter().host() != null) {
            parts.add("host = " + ClickHouseSql.quote(q.filter().host()));
        }
        if (q.filter().urlPrefix() != null && !q.filter().urlPrefix().isEmpty()) {
            parts.add("startsWith(head, " + ClickHouseSql.quote(q.filter().urlPrefix()) + ")");
        }
        ClickHouseTsv.Reader r = new ClickHouseTsv.Reader(http.query(cluster.entry(), "SELECT k, ts_ms, " + ClickHouseHitReader.ID
                + ", status, claim, crawler, bot_type FROM " + times + " WHERE " + String.join(" AND ", parts)
                + " ORDER BY k, ts_ms, writer, n"));
        List<Object[]> rows = new ArrayList<>();
        Set<Long> claims = new LinkedHashSet<>();
        while (r.nextRow()) {
            Object[] row = {r.number(), r.number(), r.number(), (int) r.number(), r.unsigned(), r.text(), r.text()};
            claims.add((Long) row[4]);
            rows.add(row);
        }
        Map<Long, dev.crawlerrors.crawler.Verdict> found = verdicts.at(claims.stream().mapToLong(Long::longValue).toArray(), view);
        ByNumber urls = new ByNumber(each);
        for (Object[] row : rows) {
            long claim = (Long) row[4];
            urls.add((Long) row[0], new UrlHit((Long) row[1], (Long) row[2], (Integer) row[3], claim, crawlerOf((String) row[5]),
                    (String) row[6], null,
                    found.getOrDefault(claim, ClickHouseVerdicts.NOT_CHECKED).verification()));
        }
        urls.end();
        return true;
    }

    /** States of URLs, with their names read by number from the histories (ordered by it). */
    @Override
    protected List<UrlState> named(List<UrlState> states) {
        if (states.isEmpty()) {
            return states;
        }
        Map<Long, UrlKey> names = new java.util.HashMap<>();
        ClickHouseTsv.Reader r = new ClickHouseTsv.Reader(http.query(cluster.entry(), "SELECT k, any(host), any(url) FROM " + log
                + " WHERE k IN (" + list(states.stream().map(UrlState::key).toList()) + ") GROUP BY k"));
        while (r.nextRow()) {
            names.put(r.number(), new UrlKey(r.text(), r.text()));
        }
        List<UrlState> named = new ArrayList<>(states.size());
        for (UrlState state : states) {
            UrlKey key = names.get(state.key());
            named.add(key == null ? state : state.named(key.host(), key.url()));
        }
        return named;
    }

    /** Reads histories (each URL's rows together, in time order), with each hit's verdict at {@code view}. */
    private void read(String sql, ClickHouseSnapshots.View view, boolean addresses, Consumer<UrlHistory> each) {
        ClickHouseTsv.Reader r = new ClickHouseTsv.Reader(http.query(cluster.entry(), sql));
        List<Object[]> rows = new ArrayList<>();
        Set<Long> claims = new LinkedHashSet<>();
        while (r.nextRow()) {
            Object[] row = {r.number(), r.text(), r.text(), r.number(), r.number(), (int) r.number(), r.unsigned(), r.text(), r.text(),
                r.text()};
            claims.add((Long) row[6]);
            rows.add(row);
        }
        Map<Long, dev.crawlerrors.crawler.Verdict> found = verdicts.at(claims.stream().mapToLong(Long::longValue).toArray(), view);
        UrlKey key = null;
        long number = 0;
        List<UrlHit> hits = new ArrayList<>();
        for (Object[] row : rows) {
            long k = (Long) row[0];
            if (key == null || k != number) {
                if (key != null) {
                    each.accept(new UrlHistory(key, hits));
                    hits = new ArrayList<>();
                }
                key = new UrlKey((String) row[1], (String) row[2]);
                number = k;
            }
            long claim = (Long) row[6];
            Verification verdict = found.getOrDefault(claim, ClickHouseVerdicts.NOT_CHECKED).verification();
            hits.add(new UrlHit((Long) row[3], (Long) row[4], (Integer) row[5], claim, crawlerOf((String) row[7]), (String) row[8],
                    addresses ? (String) row[9] : null, verdict));
        }
        if (key != null) {
            each.accept(new UrlHistory(key, hits));
        }
    }
}
