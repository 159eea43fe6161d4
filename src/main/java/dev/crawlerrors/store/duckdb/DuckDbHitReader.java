package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.BreakdownCount;
import dev.crawlerrors.store.DurationCount;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.MinuteChange;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.TimeCount;
import dev.crawlerrors.store.UrlCount;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The report's reads on DuckDB, each at a snapshot: the hits numbered up to the snapshot's, whose
 * claims' verdicts as of the snapshot are among those asked for. No read joins the verdicts: a
 * hit's verdict is looked up by its claim's number ({@link DuckDbClaims}).
 */
final class DuckDbHitReader implements HitReader {

    private static final String COLUMNS = "SELECT h.id, epoch_ms(h.ts), h.utc_offset_minutes, h.ip, h.method, h.url, h.status,"
            + " h.duration_ms, h.crawler, h.bot_type, h.claim_id, h.user_agent, h.host";
    private static final String MINUTE = "epoch_ms(h.ts) // 60000";
    /** Claims changed between two snapshots beyond which counting the view again is cheaper than correcting it. */
    private static final int MAX_CHANGED_CLAIMS = 2_000;
    /** Claims a condition lists by number at most; beyond, the statement selects them itself. */
    private static final int MAX_LISTED_CLAIMS = 100;
    /** Times beyond these are no bound: a page of the whole view. */
    private static final long NO_BOUND = Long.MAX_VALUE / 4;

    private final DuckDbQuery query;
    private final DuckDbClaims claims;
    private final DuckDbHitWriter writer;
    private final DuckDbTallies tallies;
    private final dev.crawlerrors.store.UrlStates urlStates;
    private final DuckDbSitemaps sitemaps;
    private final DuckDbListedHits listedHits;
    private final DuckDbUrlPrefixes prefixes;

    DuckDbHitReader(DuckDbQuery query, DuckDbClaims claims, DuckDbHitWriter writer, dev.crawlerrors.store.UrlStates urlStates,
            DuckDbSitemaps sitemaps) {
        this.urlStates = urlStates;
        this.sitemaps = sitemaps;
        this.listedHits = new DuckDbListedHits(query, sitemaps);
        this.query = query;
        this.claims = claims;
        this.writer = writer;
        this.tallies = new DuckDbTallies(query, this, sitemaps);
        this.prefixes = new DuckDbUrlPrefixes(query, DuckDbUrlPrefixes.DEFAULT_BYTES);
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
        return writer.snapshot();
    }

    @Override
    public Snapshot committed() {
        return writer.committed();
    }

    @Override
    public boolean serves(Snapshot snapshot) {
        return writer.snapshot().covers(snapshot) && snapshot.verdicts() >= claims.horizon();
    }

    @Override
    public MinuteCounts minuteCounts(HitFilter filter, Snapshot snapshot) {
        MinuteCounts byNumber = prefixCounts(filter, snapshot);
        if (byNumber != null) {
            return byNumber;
        }
        List<Object> params = new ArrayList<>();
        String sql = "SELECT " + MINUTE + ", count(*) FROM hits h WHERE " + DuckDbFilter.where(filter, params)
                + " AND h.id <= ? AND " + claims(filter, snapshot) + " GROUP BY 1";
        params.add(snapshot.hits());
        return query.run(sql, params, DuckDbHitReader::counts);
    }

    /**
     * The minute counts of a view with a URL prefix, from the hits of the URLs the prefix matches
     * ({@link DuckDbUrlPrefixes}) read by number from the URL histories, which hold each hit's time,
     * status, claim and bot type: what DuckDB reads is the row groups of those numbers, not every
     * hit's URL. The hits after those the URLs cover are matched by their text, as before (the
     * newest row groups only). Null when the URLs are not known (not read yet, too many, or more than
     * {@link DuckDbUrlPrefixes#MOST_NUMBERS} for the prefix), or the
     * view asks what the histories do not hold (a URL shape, {@code in_sitemap}).
     */
    private MinuteCounts prefixCounts(HitFilter filter, Snapshot snapshot) {
        if (filter.urlPrefix() == null || filter.urlPattern() != null || filter.inSitemap() != null) {
            return null;
        }
        DuckDbUrlPrefixes.Matches matches = prefixes.find(filter.host(), filter.urlPrefix(), snapshot.hits());
        if (matches == null) {
            return null;
        }
        long covered = Math.min(matches.coveredHits(), snapshot.hits());
        Map<Long, Long> counts = new HashMap<>();
        if (matches.numbers().length > 0) {
            List<Object> params = new ArrayList<>();
            String where = histories(filter, snapshot, covered, matches.numbers(), params);
            List<Object> twice = new ArrayList<>(params);
            twice.addAll(params);
            query.run("SELECT m, count(*) FROM (SELECT t // 60000 AS m FROM url_log WHERE " + where
                    + " UNION ALL SELECT t // 60000 AS m FROM url_tail WHERE " + where + ") GROUP BY 1", twice, rs -> add(rs, counts));
        }
        if (snapshot.hits() > covered) {
            List<Object> params = new ArrayList<>();
            String sql = "SELECT " + MINUTE + ", count(*) FROM hits h WHERE " + DuckDbFilter.where(filter, params)
                    + " AND h.id > ? AND h.id <= ? AND " + claims(filter, snapshot) + " GROUP BY 1";
            params.add(covered);
            params.add(snapshot.hits());
            query.run(sql, params, rs -> add(rs, counts));
        }
        long[] minutes = new long[counts.size()];
        long[] perMinute = new long[counts.size()];
        int n = 0;
        for (Map.Entry<Long, Long> minute : counts.entrySet()) {
            minutes[n] = minute.getKey();
            perMinute[n++] = minute.getValue();
        }
        return MinuteCounts.of(minutes, perMinute);
    }

    /**
     * The condition of {@code filter} on the URL histories' rows ({@code url_log}, {@code url_tail}:
     * {@code k}, {@code t}, {@code i}, {@code s}, {@code c}, {@code b}) of the URLs {@code numbers}
     * and the hits up to {@code covered}: as {@link DuckDbFilter#where} says it of the hits, the bot
     * type by its place in {@link dev.crawlerrors.crawler.BotType} and the crawler by its claims.
     */
    private String histories(HitFilter filter, Snapshot snapshot, long covered, long[] numbers, List<Object> params) {
        List<String> parts = new ArrayList<>();
        if (numbers.length == 1) {
            parts.add("k = ?"); // a constant: DuckDB reads only the row groups whose numbers hold it
            params.add(numbers[0]);
        } else {
            parts.add("k IN (SELECT unnest(?))");
            params.add(DuckDbQuery.Array.numbers(numbers));
        }
        parts.add("i <= ?");
        params.add(covered);
        List<String> status = new ArrayList<>();
        for (dev.crawlerrors.store.StatusRange range : filter.effectiveStatuses()) {
            if (range.low() == range.high()) {
                status.add("s = ?");
                params.add(range.low());
            } else {
                status.add("s BETWEEN ? AND ?");
                params.add(range.low());
                params.add(range.high());
            }
        }
        parts.add("(" + String.join(" OR ", status) + ")");
        if (!filter.botTypes().isEmpty() && !filter.everyBotType()) {
            parts.add("b IN (" + places(filter.botTypes()) + ")");
        }
        if (!filter.hiddenBotTypes().isEmpty()) {
            parts.add("b NOT IN (" + places(filter.hiddenBotTypes()) + ")");
        }
        if (!filter.crawlers().isEmpty()) {
            parts.add("c IN (" + DuckDbFilter.claimsOf(filter.crawlers(), params) + ")");
        }
        if (filter.from() != null) {
            parts.add("t >= ?");
            params.add(filter.from().toEpochMilli());
        }
        if (filter.to() != null) {
            parts.add("t < ?");
            params.add(filter.to().toEpochMilli());
        }
        parts.add(claims(filter, snapshot).replace("h.claim_id", "c"));
        return String.join(" AND ", parts);
    }

    /** The places of {@code types} in {@link dev.crawlerrors.crawler.BotType}, as the histories keep a hit's type. */
    private static String places(Set<dev.crawlerrors.crawler.BotType> types) {
        return types.stream().map(t -> Integer.toString(t.ordinal())).collect(java.util.stream.Collectors.joining(", "));
    }

    /** The URLs kept in order for prefixes, and the bytes they take: for metrics. */
    List<Long> prefixFootprint() {
        return prefixes.footprint();
    }

    @Override
    public MinuteChange minuteChange(HitFilter filter, Snapshot from, Snapshot to) {
        int[] changed = claims.changedBetween(from.verdicts(), to.verdicts());
        if (changed.length > MAX_CHANGED_CLAIMS) {
            return null;
        }
        Map<Long, Long> change = new HashMap<>();
        if (to.hits() > from.hits()) {
            List<Object> params = new ArrayList<>();
            String sql = "SELECT " + MINUTE + ", count(*) FROM hits h WHERE " + DuckDbFilter.where(filter, params)
                    + " AND h.id > ? AND h.id <= ? AND " + claims(filter, to) + " GROUP BY 1";
            params.add(from.hits());
            params.add(to.hits());
            query.run(sql, params, rs -> add(rs, change));
        }
        if (changed.length > 0) {
            // the hits of the snapshot before whose claims' verdicts changed: in the view after, minus in it before
            List<Object> params = new ArrayList<>();
            String sql = "SELECT " + MINUTE + ", count(*) FILTER (WHERE " + claims(filter, to) + ") - count(*) FILTER (WHERE "
                    + claims(filter, from) + ") FROM hits h WHERE " + DuckDbFilter.where(filter, params) + " AND h.id <= ? AND "
                    + new DuckDbClaims.ClaimSet(true, changed).sql() + " GROUP BY 1";
            params.add(from.hits());
            query.run(sql, params, rs -> add(rs, change));
        }
        return MinuteChange.of(change);
    }

    @Override
    public boolean sameVerdicts(Snapshot from, Snapshot to) {
        return from.verdicts() == to.verdicts() || claims.changedBetween(from.verdicts(), to.verdicts()).length == 0;
    }

    @Override
    public List<StoredHit> rows(HitFilter filter, Snapshot snapshot, long fromMillis, long toMillis, long skip, int limit) {
        if (limit > KEYED_ROWS) {
            return scannedRows(filter, snapshot, fromMillis, toMillis, skip, limit);
        }
        // a read of a sitemap changes in_sitemap= pages, and makes no new snapshot: such a page is kept per read
        PageKey key = new PageKey(filter, snapshot, filter.inSitemap() == null ? 0 : sitemaps.reads(), fromMillis, toMillis, skip, limit);
        List<StoredHit> kept = pages.get(key);
        if (kept != null) {
            return kept;
        }
        DuckDbClaims.ClaimSet shown = claims.select(filter.effectiveVerifications(), snapshot.verdicts());
        List<StoredHit> rows = List.copyOf(shown.claims().length > MAX_LISTED_CLAIMS
                ? pickedRows(filter, snapshot, fromMillis, toMillis, skip, limit, shown)
                : scannedRows(filter, snapshot, fromMillis, toMillis, skip, limit));
        pages.put(key, rows);
        return rows;
    }

    /** A page's place: its view, snapshot, times and rows. What it holds never changes. */
    private record PageKey(HitFilter filter, Snapshot snapshot, long sitemapReads, long fromMillis, long toMillis, long skip, int limit) {
    }

    /**
     * Pages read lately, shared by every reader: a snapshot's pages never change, and most readers
     * open the same few (the first page, the one after). At most {@link #KEPT_ROWS} rows in all,
     * the least recently used page out first. A page not kept costs what it did.
     */
    private static final class KeptPages {

        private final LinkedHashMap<PageKey, List<StoredHit>> pages = new LinkedHashMap<>(64, 0.75f, true);
        private long rows;

        synchronized List<StoredHit> get(PageKey key) {
            return pages.get(key);
        }

        synchronized void put(PageKey key, List<StoredHit> page) {
            List<StoredHit> before = pages.put(key, page);
            rows += page.size() - (before == null ? 0 : before.size());
            var eldest = pages.entrySet().iterator();
            while (rows > KEPT_ROWS && eldest.hasNext()) {
                var entry = eldest.next();
                rows -= entry.getValue().size();
                eldest.remove();
            }
        }
    }

    /** Rows of the pages kept ({@link KeptPages}): 256 pages of 100. */
    static final int KEPT_ROWS = 25_600;

    private final KeptPages pages = new KeptPages();

    /** The rows of a page read in one statement, the claims' condition in it. */
    private List<StoredHit> scannedRows(HitFilter filter, Snapshot snapshot, long fromMillis, long toMillis, long skip, int limit) {
        List<Object> params = new ArrayList<>();
        StringBuilder sql = new StringBuilder(COLUMNS).append(" FROM hits h WHERE ")
                .append(DuckDbFilter.where(filter, params, bound(fromMillis), bound(toMillis), listedHits)).append(" AND h.id <= ? AND ").append(claims(filter, snapshot));
        params.add(snapshot.hits());
        timeBounds(sql, params, fromMillis, toMillis);
        sql.append(" ORDER BY h.ts DESC, h.id DESC LIMIT ? OFFSET ?");
        params.add((long) limit);
        params.add(skip);
        long version = snapshot.verdicts();
        return query.run(sql.toString(), params, rs -> {
            List<StoredHit> rows = new ArrayList<>(Math.min(limit, 1024));
            while (rs.next()) {
                rows.add(row(rs, version));
            }
            return rows;
        });
    }

    /** A page's time as {@link DuckDbFilter#where(HitFilter, List, long, long)} takes it: {@code NO_BOUND} as no bound. */
    private static long bound(long millis) {
        return millis <= -NO_BOUND ? Long.MIN_VALUE : millis >= NO_BOUND ? Long.MAX_VALUE : millis;
    }

    /** The page's times, from {@code fromMillis} (inclusive) to {@code toMillis}, each unless it is {@code NO_BOUND}. */
    private static void timeBounds(StringBuilder sql, List<Object> params, long fromMillis, long toMillis) {
        if (fromMillis > -NO_BOUND) {
            sql.append(" AND h.ts >= epoch_ms(?)");
            params.add(fromMillis);
        }
        if (toMillis < NO_BOUND) {
            sql.append(" AND h.ts < epoch_ms(?)");
            params.add(toMillis);
        }
    }

    /**
     * A page's rows when the claims the view takes are too many to list in the statement: the rows
     * of the page's times in the view's order, a few more than the page, in one statement without
     * the claims' condition; the claims are checked here against the snapshot's verdicts (cheaper
     * than the condition as DuckDB would run it, a subquery of the verdicts and their log for every
     * page: BENCHMARKS.md, "The report at scale"), and only the rows kept are made into hits. One
     * statement, not the keys then the rows by number: each read of a row group's text columns
     * costs DuckDB their dictionaries again (BENCHMARKS.md, "Fresh random pages in one read").
     * A sparse view (the spoofed hits, a thousandth of the store) would read most of the store's
     * rows that way, each made into a row of the result only to be dropped: 20-40 s for one page
     * of 3M hits. After {@link #PICKED_READS} statements too few, the page is read with the
     * claims' condition in the statement instead ({@link #scannedRows}), exact alike.
     */
    private List<StoredHit> pickedRows(HitFilter filter, Snapshot snapshot, long fromMillis, long toMillis, long skip, int limit,
            DuckDbClaims.ClaimSet shown) {
        List<Object> params = new ArrayList<>();
        StringBuilder sql = new StringBuilder(COLUMNS).append(" FROM hits h WHERE ")
                .append(DuckDbFilter.where(filter, params, bound(fromMillis), bound(toMillis), listedHits)).append(" AND h.id <= ?");
        params.add(snapshot.hits());
        timeBounds(sql, params, fromMillis, toMillis);
        sql.append(" ORDER BY h.ts DESC, h.id DESC LIMIT ?");
        String rowsSql = sql.toString();
        long version = snapshot.verdicts();
        long wanted = skip + limit;
        // a few more than the page: the hits of claims the view leaves out are read and dropped here
        long read = wanted + wanted / 8 + 64;
        int reads = 0;
        while (true) {
            List<Object> withLimit = new ArrayList<>(params);
            withLimit.add(read);
            long reading = read;
            List<StoredHit> rows = query.run(rowsSql, withLimit, rs -> pick(rs, shown, skip, limit, reading, version));
            if (rows != null) {
                return rows;
            }
            if (++reads == PICKED_READS) {
                return scannedRows(filter, snapshot, fromMillis, toMillis, skip, limit);
            }
            read *= 4;
        }
    }

    /**
     * Statements {@link #pickedRows} runs at most before the page is read with the claims'
     * condition in the statement: a few more rows than the page, then four times that (a view
     * of fewer than one row in about five read goes to {@link #scannedRows}).
     */
    static final int PICKED_READS = 2;

    /** Pages of at most this many rows are read by {@link #pickedRows}; an export's slices in one statement. */
    static final int KEYED_ROWS = 1_000;

    /**
     * Reads rows in the view's order, keeps those of the claims {@code shown} takes, skips
     * {@code skip} of them and makes hits of the next {@code limit}; null when the statement's
     * {@code read} rows held too few (it ran out of rows before {@code read}: the view has no more).
     */
    private List<StoredHit> pick(ResultSet rs, DuckDbClaims.ClaimSet shown, long skip, int limit, long read, long version)
            throws SQLException {
        List<StoredHit> rows = new ArrayList<>(Math.min(limit, 128));
        long seen = 0;
        long rowsRead = 0;
        while (rows.size() < limit && rs.next()) {
            rowsRead++;
            int claim = rs.getInt(11);
            if (!shown.takes(claim, rs.wasNull()) || seen++ < skip) {
                continue;
            }
            rows.add(row(rs, version));
        }
        return rows.size() == limit || rowsRead < read ? rows : null;
    }

    /**
     * The condition on claims that keeps the verdicts {@code filter} asks for, as of {@code snapshot}.
     * A short list of claim numbers is written into the statement; a long one is not (DuckDB checks a
     * literal list row by row, so a long list slows every page), and the
     * claims are selected by the statement itself, from the verdicts table as committed and, for
     * the claims whose verdict changed after the snapshot, from their log: exact whatever was
     * committed since.
     */
    private String claims(HitFilter filter, Snapshot snapshot) {
        return claims(filter.effectiveVerifications(), snapshot);
    }

    /** The condition on claims whose verdict as of {@code snapshot} is one of {@code shown} (see above). */
    String claims(Set<Verification> shown, Snapshot snapshot) {
        DuckDbClaims.ClaimSet set = claims.select(shown, snapshot.verdicts());
        if (set.claims().length <= MAX_LISTED_CLAIMS) {
            return set.sql();
        }
        String verifications = shown.stream().map(v -> "'" + v.name() + "'")
                .collect(java.util.stream.Collectors.joining(", "));
        long version = snapshot.verdicts();
        return "h.claim_id IN (SELECT claim_id FROM verdicts WHERE version <= " + version + " AND verification IN (" + verifications + ")"
                + " UNION ALL SELECT claim_id FROM (SELECT l.claim_id, l.verification, row_number() OVER (PARTITION BY l.claim_id"
                + " ORDER BY l.version DESC) AS newest FROM verdict_log l WHERE l.version <= " + version
                + " AND l.claim_id IN (SELECT claim_id FROM verdicts WHERE version > " + version + "))"
                + " WHERE newest = 1 AND verification IN (" + verifications + "))";
    }

    @Override
    public List<TimeCount> countByTime(HitFilter filter, HitWindow window, long bucketMillis) {
        return tallies.byTime(filter, window, bucketMillis);
    }

    @Override
    public List<BreakdownCount> countByCrawler(HitFilter filter, HitWindow window) {
        return tallies.byCrawler(filter, window);
    }

    @Override
    public void countByMinute(HitWindow window, boolean byUrl, Consumer<dev.crawlerrors.store.MinuteCell> cells) {
        tallies.byMinute(window, byUrl, cells);
    }

    @Override
    public void countBySitemap(HitWindow window, Consumer<dev.crawlerrors.store.MinuteCell> cells) {
        tallies.bySitemap(window, cells);
    }

    /** As {@link #countBySitemap}, every hit joined with the listed numbers in SQL (the count before the function's; for tests). */
    void countBySitemapJoined(HitWindow window, Consumer<dev.crawlerrors.store.MinuteCell> cells) {
        tallies.bySitemapJoined(window, cells);
    }

    @Override
    public List<DurationCount> countByDuration(HitFilter filter, HitWindow window) {
        return tallies.byDuration(filter, window);
    }

    @Override
    public void forEachUrl(HitFilter filter, HitWindow window, Consumer<UrlCount> urls) {
        tallies.forEachUrl(filter, window, urls);
    }

    /** The claims whose verdict as of {@code snapshot} is one of {@code shown}, as {@link #claims(Set, Snapshot)} writes them in SQL. */
    DuckDbClaims.ClaimSet claimSet(Set<Verification> shown, Snapshot snapshot) {
        return claims.select(shown, snapshot.verdicts());
    }

    /**
     * A hit's verdict as of {@code snapshot}, as a column: the claims of each verdict as
     * {@link #claims(Set, Snapshot)} selects them, so counts grouped by verdict need no join.
     */
    String verdict(Snapshot snapshot) {
        return "CASE WHEN " + claims(Set.of(Verification.verified), snapshot) + " THEN 'verified' WHEN "
                + claims(Set.of(Verification.spoofed), snapshot) + " THEN 'spoofed' ELSE 'unverified' END";
    }

    /** One hit by its number, whatever its status or verdict, with its verdict as of {@code snapshot}. */
    @Override
    public Optional<StoredHit> hit(long id, Snapshot snapshot) {
        if (id < 1 || id > snapshot.hits()) {
            return Optional.empty();
        }
        long version = snapshot.verdicts();
        return query.run(COLUMNS + " FROM hits h WHERE h.id = ?", List.of(id), rs -> rs.next() ? Optional.of(row(rs, version)) : Optional.empty());
    }

    private StoredHit row(ResultSet rs, long version) throws SQLException {
        double duration = rs.getDouble(8);
        Double durationMs = rs.wasNull() ? null : duration;
        Verdict verdict = claims.verdict(rs.getInt(11), version);
        return new StoredHit(rs.getLong(1), rs.getLong(2), rs.getInt(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getInt(7), durationMs, rs.getString(9), rs.getString(10), verdict.verification().name(),
                verdict.reason(), rs.getString(12), rs.getString(13));
    }

    private static MinuteCounts counts(ResultSet rs) throws SQLException {
        long[] minutes = new long[1024];
        long[] counts = new long[1024];
        int n = 0;
        while (rs.next()) {
            if (n == minutes.length) {
                minutes = java.util.Arrays.copyOf(minutes, n * 2);
                counts = java.util.Arrays.copyOf(counts, n * 2);
            }
            minutes[n] = rs.getLong(1);
            counts[n++] = rs.getLong(2);
        }
        return MinuteCounts.of(java.util.Arrays.copyOf(minutes, n), java.util.Arrays.copyOf(counts, n));
    }

    private static Void add(ResultSet rs, Map<Long, Long> change) throws SQLException {
        while (rs.next()) {
            change.merge(rs.getLong(1), rs.getLong(2), Long::sum);
        }
        return null;
    }
}
