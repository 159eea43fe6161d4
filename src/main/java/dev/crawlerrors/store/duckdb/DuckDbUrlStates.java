package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.UrlHistory;
import dev.crawlerrors.store.UrlHit;
import dev.crawlerrors.store.UrlKey;
import dev.crawlerrors.store.UrlPage;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.store.UrlState;
import dev.crawlerrors.store.UrlStateReading;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.duckdb.DuckDBConnection;

/**
 * The URLs' states on DuckDB, folded up to {@code store_meta}'s {@code url_fold_hits} ({@link DuckDbUrlFold}):
 * {@code url_log} holds every hit's time, number, status, claim and bot type under a number made
 * of its URL ({@code k}, a hash of the host and request target), in runs sorted by that number, so
 * that a URL's history is read from a row group or two a run; {@code url_states} holds, for every
 * URL, one row of the default view's state and one of each crawler's, with the URL's name.
 */
final class DuckDbUrlStates extends UrlStateReading {

    /** A hit's URL as a number, where {@code h} is the hits: what {@code url_states.url_key} holds. */
    static final String KEY = "(hash(coalesce(h.host, ''), h.url) >> 1)::BIGINT";
    private static final String HIT_COLUMNS = "coalesce(h.host, ''), h.url, epoch_ms(h.ts), h.id, h.status, h.claim_id, h.crawler, h.bot_type";
    private static final String KEYS = "(SELECT unnest(?::VARCHAR[]) AS host, unnest(?::VARCHAR[]) AS url)";
    /** Slices of the URLs' numbers a view made from the histories reads one at a time, so that no read holds every URL. */
    private static final int SLICES = 16;

    private final DuckDBConnection connection;
    private final DuckDbQuery query;
    private final DuckDbClaims claims;
    private final DuckDbHitWriter writer;
    private final DuckDbUrlFold fold;
    private final DuckDbClaimNames names;
    private final String location;
    /** The snapshot the kept states are folded up to. */
    private volatile Snapshot folded;
    private final AtomicBoolean foldAsked = new AtomicBoolean();
    /** The hosts of the kept states, and the fold they were read at. */
    private volatile Map.Entry<Snapshot, List<String>> hosts;

    DuckDbUrlStates(DuckDBConnection connection, DuckDbQuery query, DuckDbClaims claims, DuckDbHitWriter writer, String location)
            throws SQLException {
        this.connection = connection;
        this.query = query;
        this.claims = claims;
        this.writer = writer;
        this.location = location;
        this.names = new DuckDbClaimNames(query);
        this.fold = new DuckDbUrlFold(connection, claims, names);
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SELECT coalesce((SELECT value::BIGINT FROM store_meta WHERE key = 'url_fold_hits'), 0),"
                        + " coalesce((SELECT value::BIGINT FROM store_meta WHERE key = 'url_fold_verdicts'), 0)")) {
            rs.next();
            folded = new Snapshot(rs.getLong(1), rs.getLong(2));
        }
    }

    @Override
    public void fold() {
        writer.exclusive(this::foldTo);
    }

    @Override
    public void catchUp() {
        if (!foldAsked.compareAndSet(false, true)) {
            return;
        }
        writer.later(to -> {
            try {
                foldTo(to);
            } catch (RuntimeException e) {
                // a read asked for it; the next one asks again, and a close folds what was written
            } finally {
                foldAsked.set(false);
            }
        });
    }

    /** Folds up to {@code to} on the writer's thread (a snapshot the writer committed). */
    private Void foldTo(Snapshot to) {
        Snapshot from = folded;
        if (from.hits() >= to.hits() && from.verdicts() == to.verdicts()) {
            return null;
        }
        try {
            fold.fold(from, to, () -> {
                folding.writeLock().lock();
                try {
                    connection.commit();
                    folded = to;
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                } finally {
                    folding.writeLock().unlock();
                }
            });
        } catch (SQLException e) {
            throw new dev.crawlerrors.store.StoreException("cannot keep the URLs' states of " + location + ": "
                    + dev.crawlerrors.text.Failures.firstLine(e), e);
        }
        return null;
    }

    /** Whether a fold is worth running at close: hits came since the store opened. */
    void foldIfWritten() {
        if (writer.wroteSinceOpen() || folded.hits() < writer.snapshot().hits()) {
            fold();
        }
    }

    @Override
    protected boolean foldReaches(Snapshot at) {
        return at.hits() >= folded.hits();
    }

    @Override
    protected Set<UrlKey> changed(Snapshot at, int max) {
        Snapshot kept = folded;
        Set<UrlKey> keys = new LinkedHashSet<>();
        if (at.hits() > kept.hits()) {
            query.run("SELECT DISTINCT coalesce(h.host, ''), h.url FROM hits h WHERE h.id > ? AND h.id <= ? LIMIT ?",
                    List.of(kept.hits(), at.hits(), (long) max + 1), rs -> keys(rs, keys));
        } else if (at.hits() < kept.hits()) {
            query.run("SELECT host, url FROM url_states WHERE scope = '' AND last_hit_id > ? LIMIT ?",
                    List.of(at.hits(), (long) max + 1), rs -> keys(rs, keys));
        }
        int[] moved = fold.moved(kept.verdicts(), at.verdicts());
        if (moved.length > 0 && keys.size() <= max) {
            query.run("SELECT s.host, s.url FROM url_states s SEMI JOIN (SELECT k FROM url_log WHERE c IN (SELECT unnest(?))) l"
                    + " ON s.url_key = l.k WHERE s.scope = '' LIMIT ?", List.of(claimList(moved), (long) max + 1), rs -> keys(rs, keys));
        }
        return keys.size() > max ? null : keys;
    }

    private static DuckDbQuery.Array claimList(int[] claims) {
        return new DuckDbQuery.Array("INTEGER", java.util.Arrays.stream(claims).boxed().toArray());
    }

    private static Void keys(ResultSet rs, Set<UrlKey> keys) throws SQLException {
        while (rs.next()) {
            keys.add(new UrlKey(rs.getString(1), rs.getString(2)));
        }
        return null;
    }

    @Override
    protected UrlPage kept(UrlQuery q, String scope, Set<UrlKey> excluded, long offset, int limit) {
        List<Object> params = new ArrayList<>();
        String from = from(excluded, params);
        String where = where(q, scope, params);
        long total = query.run("SELECT count(*) " + from + where, params, rs -> {
            rs.next();
            return rs.getLong(1);
        });
        List<UrlState> rows = new ArrayList<>();
        if (limit > 0 && offset < total) {
            List<Object> page = new ArrayList<>(params);
            page.add((long) limit);
            page.add(offset);
            query.run("SELECT h.host, h.url, " + DuckDbUrlFold.STATE_COLUMNS + " " + from + where + " ORDER BY " + orderBy(q)
                    + " LIMIT ? OFFSET ?", page, rs -> states(rs, rows::add));
        }
        return new UrlPage(total, rows);
    }

    @Override
    protected void forEachKept(UrlQuery q, String scope, Set<UrlKey> excluded, Consumer<UrlState> rows) {
        List<Object> params = new ArrayList<>();
        String from = from(excluded, params);
        String where = where(q, scope, params);
        query.run("SELECT h.host, h.url, " + DuckDbUrlFold.STATE_COLUMNS + " " + from + where + " ORDER BY " + orderBy(q), params,
                rs -> states(rs, rows));
    }

    /** The kept states, less the URLs of {@code excluded}. */
    private static String from(Set<UrlKey> excluded, List<Object> params) {
        if (excluded.isEmpty()) {
            return "FROM url_states h";
        }
        params.add(DuckDbQuery.Array.strings(excluded.stream().map(UrlKey::host).toList()));
        params.add(DuckDbQuery.Array.strings(excluded.stream().map(UrlKey::url).toList()));
        return "FROM url_states h ANTI JOIN " + KEYS + " x ON h.host = x.host AND h.url = x.url";
    }

    /** The rows of a scope that a query takes by URL and by state. */
    private static String where(UrlQuery q, String scope, List<Object> params) {
        List<String> parts = new ArrayList<>();
        parts.add("h.scope = ?");
        params.add(scope);
        parts.add("h.last_status IS NOT NULL");
        urlConditions(q, "h.host", params, parts);
        if (!q.states().isEmpty()) {
            List<String> states = new ArrayList<>();
            for (UrlState.State state : q.states()) {
                states.add(switch (state) {
                    case broken -> "h.last_status >= 400";
                    case redirected -> "(h.last_status BETWEEN 300 AND 399 AND h.last_status <> 304)";
                    case ok -> "(h.last_status < 300 OR h.last_status = 304)";
                });
            }
            parts.add("(" + String.join(" OR ", states) + ")");
        }
        if (q.fixedOnly()) {
            parts.add("h.fixed_since IS NOT NULL");
        }
        if (q.inconsistentOnly()) {
            parts.add("h.flips >= 2");
        }
        if (!q.filter().statuses().isEmpty()) {
            List<String> statuses = new ArrayList<>();
            for (StatusRange range : q.filter().statuses()) {
                statuses.add("h.last_status BETWEEN ? AND ?");
                params.add(range.low());
                params.add(range.high());
            }
            parts.add("(" + String.join(" OR ", statuses) + ")");
        }
        return " WHERE " + String.join(" AND ", parts);
    }

    /** A query's conditions on a URL (its host, prefix and shape), over {@code h.url} and the host as {@code host} reads it. */
    private static void urlConditions(UrlQuery q, String host, List<Object> params, List<String> parts) {
        if (q.filter().host() != null) {
            parts.add(host + " = ?");
            params.add(q.filter().host());
        }
        if (q.filter().urlPrefix() != null) {
            parts.add("starts_with(h.url, ?)");
            params.add(q.filter().urlPrefix());
        }
        if (q.filter().urlPattern() != null) {
            parts.add(DuckDbFilter.pattern(q.filter().urlPattern(), params));
        }
    }

    private static String orderBy(UrlQuery q) {
        String first = switch (q.sort()) {
            case errors -> "h.error_hits DESC";
            case last_error -> "h.last_error DESC NULLS LAST";
            case first_error -> "h.first_error DESC NULLS LAST";
            case last_crawled -> "h.last_crawled DESC";
        };
        return first + ", h.host, h.url";
    }

    private static Void states(ResultSet rs, Consumer<UrlState> rows) throws SQLException {
        while (rs.next()) {
            rows.accept(new UrlState(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6),
                    rs.getLong(7), rs.getLong(9), rs.getLong(10), rs.getInt(11), time(rs, 12), rs.getInt(13), time(rs, 14),
                    rs.getInt(15), time(rs, 16), rs.getInt(17)));
        }
        return null;
    }

    private static long time(ResultSet rs, int column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? UrlState.NONE : value;
    }

    @Override
    protected void histories(Collection<UrlKey> keys, Snapshot at, boolean addresses, Consumer<UrlHistory> each) {
        Snapshot kept = folded;
        Map<UrlKey, List<UrlHit>> found = new LinkedHashMap<>();
        for (UrlKey key : keys) {
            found.put(key, new ArrayList<>());
        }
        List<Object> params = new ArrayList<>();
        String logged;
        if (keys.size() == 1) {
            // one URL: its number is a constant, so the runs' row groups are chosen by their bounds
            UrlKey key = keys.iterator().next();
            logged = "SELECT ? AS host, ? AS url, l.t, l.i, l.s, l.c, l.b FROM url_log l WHERE l.k = (hash(?, ?) >> 1)::BIGINT AND l.i <= ?"
                    + " ORDER BY l.t, l.i";
            params.addAll(List.of(key.host(), key.url(), key.host(), key.url()));
        } else {
            logged = "SELECT x.host, x.url, l.t, l.i, l.s, l.c, l.b FROM url_log l JOIN (SELECT " + KEY.replace("h.", "x.") + " AS k, x.host,"
                    + " x.url FROM " + KEYS + " x) x ON l.k = x.k WHERE l.i <= ? ORDER BY l.k, l.t, l.i";
            params.add(DuckDbQuery.Array.strings(keys.stream().map(UrlKey::host).toList()));
            params.add(DuckDbQuery.Array.strings(keys.stream().map(UrlKey::url).toList()));
        }
        params.add(Math.min(at.hits(), kept.hits()));
        query.run(logged, params, rs -> logged(rs, found, at));
        if (at.hits() > kept.hits()) {
            List<Object> delta = new ArrayList<>();
            delta.add(DuckDbQuery.Array.strings(keys.stream().map(UrlKey::host).toList()));
            delta.add(DuckDbQuery.Array.strings(keys.stream().map(UrlKey::url).toList()));
            delta.add(kept.hits());
            delta.add(at.hits());
            Map<UrlKey, List<UrlHit>> since = new HashMap<>();
            query.run("SELECT " + HIT_COLUMNS + " FROM hits h SEMI JOIN " + KEYS + " x ON coalesce(h.host, '') = x.host AND h.url = x.url"
                    + " WHERE h.id > ? AND h.id <= ? ORDER BY h.ts, h.id", delta, rs -> hits(rs, since, at));
            since.forEach((key, hits) -> found.put(key, merge(found.getOrDefault(key, List.of()), hits)));
        }
        for (Map.Entry<UrlKey, List<UrlHit>> history : found.entrySet()) {
            List<UrlHit> hits = history.getValue();
            if (addresses) {
                hits = hits.stream().map(h -> new UrlHit(h.epochMillis(), h.id(), h.status(), h.claim(), h.crawler(), h.botType(),
                        names.ip((int) h.claim()), h.verification())).toList();
            }
            each.accept(new UrlHistory(history.getKey(), hits));
        }
    }

    /** Two histories of a URL as one, in time order (the hits stored since the fold are mostly later). */
    private static List<UrlHit> merge(List<UrlHit> before, List<UrlHit> since) {
        List<UrlHit> all = new ArrayList<>(before.size() + since.size());
        all.addAll(before);
        all.addAll(since);
        if (!before.isEmpty() && !since.isEmpty() && earlier(since.get(0), before.get(before.size() - 1))) {
            all.sort((a, b) -> earlier(a, b) ? -1 : earlier(b, a) ? 1 : 0);
        }
        return all;
    }

    private static boolean earlier(UrlHit a, UrlHit b) {
        return a.epochMillis() < b.epochMillis() || (a.epochMillis() == b.epochMillis() && a.id() < b.id());
    }

    /** Reads logged hits (host, URL, then {@code url_log}'s time, number, status, claim, bot type) into their URLs' histories. */
    private Void logged(ResultSet rs, Map<UrlKey, List<UrlHit>> into, Snapshot at) throws SQLException {
        UrlKey key = null;
        List<UrlHit> hits = null;
        while (rs.next()) {
            String host = rs.getString(1);
            String url = rs.getString(2);
            if (key == null || !key.url().equals(url) || !key.host().equals(host)) {
                key = new UrlKey(host, url);
                hits = into.computeIfAbsent(key, k -> new ArrayList<>());
            }
            hits.add(loggedHit(rs, 3, at));
        }
        return null;
    }

    /** A hit as {@code url_log} keeps it, from column {@code first} on: time, number, status, claim, bot type. */
    private UrlHit loggedHit(ResultSet rs, int first, Snapshot at) throws SQLException {
        int claim = rs.getInt(first + 3);
        return new UrlHit(rs.getLong(first), rs.getLong(first + 1), rs.getInt(first + 2), claim, names.crawler(claim),
                rs.getString(first + 4), null, claims.verdict(claim, at.verdicts()).verification());
    }

    /** Reads hits (host, URL, time, number, status, claim, crawler, bot type) into their URLs' histories, verdicts as of {@code at}. */
    private Void hits(ResultSet rs, Map<UrlKey, List<UrlHit>> into, Snapshot at) throws SQLException {
        while (rs.next()) {
            into.computeIfAbsent(new UrlKey(rs.getString(1), rs.getString(2)), k -> new ArrayList<>()).add(hit(rs, 3, at));
        }
        return null;
    }

    private UrlHit hit(ResultSet rs, int first, Snapshot at) throws SQLException {
        int claim = rs.getInt(first + 3);
        return new UrlHit(rs.getLong(first), rs.getLong(first + 1), rs.getInt(first + 2), claim, rs.getString(first + 4),
                rs.getString(first + 5), null, claims.verdict(claim, at.verdicts()).verification());
    }

    @Override
    protected void histories(UrlQuery q, Snapshot at, Consumer<UrlHistory> each) {
        if (q.filter().from() != null || q.filter().to() != null) {
            ranged(q, at, each);
            return;
        }
        Snapshot kept = folded;
        Map<UrlKey, List<UrlHit>> since = new HashMap<>();
        if (at.hits() > kept.hits()) {
            List<Object> params = new ArrayList<>();
            List<String> parts = new ArrayList<>();
            urlConditions(q, "coalesce(h.host, '')", params, parts);
            params.add(kept.hits());
            params.add(at.hits());
            query.run("SELECT " + HIT_COLUMNS + " FROM hits h WHERE " + String.join(" AND ", parts) + (parts.isEmpty() ? "" : " AND ")
                    + "h.id > ? AND h.id <= ? ORDER BY h.ts, h.id", params, rs -> hits(rs, since, at));
        }
        // the URLs asked about and their histories, a slice of the URLs' numbers at a time (a run's row
        // groups are chosen by their bounds), each slice's names read first and its hits merged with them
        List<Object> params = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        urlConditions(q, "h.host", params, parts);
        String urls = "SELECT h.url_key, h.host, h.url FROM url_states h WHERE h.scope = '' AND h.url_key >= ? AND h.url_key < ?"
                + (parts.isEmpty() ? "" : " AND " + String.join(" AND ", parts));
        long slice = Long.MAX_VALUE / SLICES + 1;
        for (int n = 0; n < SLICES; n++) {
            long low = n * slice;
            long high = n == SLICES - 1 ? Long.MAX_VALUE : low + slice;
            List<Object> sliceParams = new ArrayList<>(List.of(low, high));
            sliceParams.addAll(params);
            Map<Long, UrlKey> named = new HashMap<>();
            List<Long> order = new ArrayList<>();
            query.run(urls, sliceParams, rs -> {
                while (rs.next()) {
                    named.put(rs.getLong(1), new UrlKey(rs.getString(2), rs.getString(3)));
                }
                return null;
            });
            if (named.isEmpty()) {
                continue;
            }
            List<Object> logParams = new ArrayList<>(sliceParams);
            logParams.add(low);
            logParams.add(high);
            logParams.add(Math.min(at.hits(), kept.hits()));
            query.run("SELECT l.k, l.t, l.i, l.s, l.c, l.b FROM url_log l SEMI JOIN (" + urls + ") u ON l.k = u.url_key"
                    + " WHERE l.k >= ? AND l.k < ? AND l.i <= ? ORDER BY l.k, l.t, l.i", logParams, rs -> {
                        long key = 0;
                        List<UrlHit> hits = null;
                        while (rs.next()) {
                            long k = rs.getLong(1);
                            if (hits == null || k != key) {
                                if (hits != null) {
                                    order.add(key);
                                    emit(named.get(key), hits, since, each);
                                }
                                key = k;
                                hits = new ArrayList<>();
                            }
                            hits.add(loggedHit(rs, 2, at));
                        }
                        if (hits != null) {
                            order.add(key);
                            emit(named.get(key), hits, since, each);
                        }
                        return null;
                    });
            order.forEach(named::remove);
            named.values().forEach(key -> emit(key, new ArrayList<>(), since, each)); // hit only after the snapshot, or since the fold
        }
        since.forEach((key, hits) -> each.accept(new UrlHistory(key, hits)));
    }

    /** A URL's history as kept, with the hits since the fold that {@code since} holds for it. */
    private static void emit(UrlKey key, List<UrlHit> hits, Map<UrlKey, List<UrlHit>> since, Consumer<UrlHistory> each) {
        List<UrlHit> later = since.remove(key);
        List<UrlHit> all = later == null ? hits : merge(hits, later);
        if (!all.isEmpty()) {
            each.accept(new UrlHistory(key, all));
        }
    }

    /** The histories of a time range's hits: read from the hits of the range, each URL's together. */
    private void ranged(UrlQuery q, Snapshot at, Consumer<UrlHistory> each) {
        List<Object> params = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        parts.add("h.id <= ?");
        params.add(at.hits());
        if (q.filter().from() != null) {
            parts.add("h.ts >= epoch_ms(?)");
            params.add(q.filter().from().toEpochMilli());
        }
        if (q.filter().to() != null) {
            parts.add("h.ts < epoch_ms(?)");
            params.add(q.filter().to().toEpochMilli());
        }
        if (!q.filter().crawlers().isEmpty()) {
            parts.add("h.crawler IN (" + DuckDbFilter.placeholders(q.filter().crawlers().size()) + ")");
            params.addAll(q.filter().crawlers());
        }
        urlConditions(q, "coalesce(h.host, '')", params, parts);
        query.run("SELECT " + HIT_COLUMNS + " FROM hits h WHERE " + String.join(" AND ", parts)
                + " ORDER BY coalesce(h.host, ''), h.url, h.ts, h.id", params, rs -> {
                    UrlKey key = null;
                    List<UrlHit> hits = new ArrayList<>();
                    while (rs.next()) {
                        String host = rs.getString(1);
                        String url = rs.getString(2);
                        if (key == null || !key.url().equals(url) || !key.host().equals(host)) {
                            if (key != null) {
                                each.accept(new UrlHistory(key, hits));
                                hits = new ArrayList<>();
                            }
                            key = new UrlKey(host, url);
                        }
                        hits.add(hit(rs, 3, at));
                    }
                    if (key != null) {
                        each.accept(new UrlHistory(key, hits));
                    }
                    return null;
                });
    }

    @Override
    protected Set<UrlKey> hostsOf(String url, Snapshot at) {
        Snapshot kept = folded;
        Map.Entry<Snapshot, List<String>> known = hosts;
        if (known == null || !known.getKey().equals(kept)) {
            List<String> read = query.run("SELECT DISTINCT host FROM url_states WHERE scope = ''", List.of(), rs -> {
                List<String> all = new ArrayList<>();
                while (rs.next()) {
                    all.add(rs.getString(1));
                }
                return all;
            });
            known = Map.entry(kept, read);
            hosts = known;
        }
        Set<UrlKey> keys = new LinkedHashSet<>();
        known.getValue().forEach(host -> keys.add(new UrlKey(host, url)));
        if (at.hits() > kept.hits()) {
            query.run("SELECT DISTINCT coalesce(h.host, '') FROM hits h WHERE h.id > ? AND h.id <= ?", List.of(kept.hits(), at.hits()),
                    rs -> {
                        while (rs.next()) {
                            keys.add(new UrlKey(rs.getString(1), url));
                        }
                        return null;
                    });
        }
        return keys;
    }
}
