package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.SitemapStore;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.UrlHistory;
import dev.crawlerrors.store.UrlHit;
import dev.crawlerrors.store.UrlKey;
import dev.crawlerrors.store.UrlPage;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.store.UrlState;
import dev.crawlerrors.store.UrlStateReading;
import dev.crawlerrors.store.UrlStatesBehindException;
import dev.crawlerrors.text.Failures;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The URLs' states on DuckDB. Every URL has a number ({@link UrlKey#number()}) and, under it, a name
 * ({@code url_names}, written when the store first meets it), a history (each hit's time, number,
 * status, claim and bot type: {@code url_tail} as the writer adds it beside each batch, then
 * {@code url_log}, in runs sorted by URL number that a fold writes) and its states, folded up to
 * {@code store_meta}'s {@code url_fold_hits} ({@link DuckDbUrlFold}): the default view's in
 * {@code url_states}, every bot type's and each crawler's in {@code url_scopes}. Nothing kept per
 * hit holds text: a URL's history is a read of a row group or two a run.
 */
final class DuckDbUrlStates extends UrlStateReading {

    private static final String STATE_COLUMNS = String.join(", ", java.util.Arrays.stream(DuckDbUrlStateRows.COLUMNS)
            .map(c -> "s." + c).toList());
    private static final String HISTORY = "k, t, i, s, c, b";
    /** Slices of the URLs' numbers a view made from the histories reads one at a time, so that no read holds every URL. */
    private static final int SLICES = DuckDbUrlFold.SLICES;
    /**
     * The most hits a view without a time range reads from {@code url_times} at once, by number
     * (some 25 MiB of them while its states are made); a view of more reads the histories by slice.
     */
    static final int UNRANGED_HITS = 250_000;

    /** The writer's connection, which only the writer's thread uses (a fold). */
    private final org.duckdb.DuckDBConnection connection;
    private final DuckDbQuery query;
    private final DuckDbClaims claims;
    private final DuckDbHitWriter writer;
    private final DuckDbClaimNames names;
    private final DuckDbUrlFold fold;
    private final String location;
    /** The snapshot the kept states are folded up to. */
    private volatile Snapshot folded;
    /** The last hit stored before the store kept URL states: those up to it have no history until a fold reads them. */
    private final long keyedFrom;
    private final AtomicBoolean foldAsked = new AtomicBoolean();
    private final DuckDbSitemaps sitemaps;
    /** The URLs page's {@code in_sitemap=} views of the kept states, held by number. */
    private final DuckDbSitemapViews sitemapViews = new DuckDbSitemapViews();
    private final DuckDbUrlNames urlNames;

    /**
     * {@code memoryLimit}: DuckDB's memory limit as the store set it, which a fold that merges takes; {@code appendLimit}: the one
     * kept between folds ({@link DuckDbSettings#appendLimit()}), which a fold sets back.
     */
    DuckDbUrlStates(org.duckdb.DuckDBConnection connection, DuckDbQuery query, DuckDbClaims claims, DuckDbHitWriter writer, String location,
            DuckDbSitemaps sitemaps, String memoryLimit, String appendLimit) throws SQLException {
        this.connection = connection;
        this.sitemaps = sitemaps;
        this.query = query;
        this.claims = claims;
        this.writer = writer;
        this.location = location;
        this.names = new DuckDbClaimNames(query);
        this.urlNames = new DuckDbUrlNames(query, DuckDbUrlNames.DEFAULT_BYTES);
        this.fold = new DuckDbUrlFold(connection, claims, names, writer.urlTail(), memoryLimit, appendLimit);
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SELECT coalesce((SELECT value::BIGINT FROM store_meta WHERE key = 'url_fold_hits'), 0),"
                        + " coalesce((SELECT value::BIGINT FROM store_meta WHERE key = 'url_fold_verdicts'), 0),"
                        + " coalesce((SELECT value::BIGINT FROM store_meta WHERE key = 'url_keyed_from'), 0)")) {
            rs.next();
            folded = new Snapshot(rs.getLong(1), rs.getLong(2));
            keyedFrom = rs.getLong(3);
        }
    }

    @Override
    public void fold() {
        writer.exclusive(this::foldTo);
    }

    @Override
    protected SitemapStore sitemaps() {
        return sitemaps;
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
                    throw new StoreException("cannot keep the URLs' states of " + location + ": " + Failures.firstLine(e), e);
                } finally {
                    folding.writeLock().unlock();
                }
            });
        } catch (SQLException e) {
            throw new StoreException("cannot keep the URLs' states of " + location + ": " + Failures.firstLine(e), e);
        }
        return null;
    }

    /** Folds what this store wrote since it opened, or what an older version left unfolded: what a close does. */
    void foldIfWritten() {
        if (writer.wroteSinceOpen() || folded.hits() < writer.snapshot().hits()) {
            fold();
        }
    }

    /** Whether hits stored before the store kept URL states wait for the fold that reads them. */
    private boolean oldHitsWaiting() {
        return folded.hits() < keyedFrom;
    }

    @Override
    protected boolean foldReaches(Snapshot at) {
        return at.hits() >= folded.hits();
    }

    @Override
    protected Object keptFold() {
        return folded;
    }

    @Override
    protected Set<Long> changed(Snapshot at, int max) {
        if (oldHitsWaiting()) {
            return null;
        }
        Snapshot kept = folded;
        Set<Long> keys = new LinkedHashSet<>();
        if (at.hits() > kept.hits()) {
            query.run("SELECT DISTINCT k FROM url_tail WHERE i > ? AND i <= ? LIMIT ?", List.of(kept.hits(), at.hits(), (long) max + 1),
                    rs -> numbers(rs, keys));
        } else if (at.hits() < kept.hits()) {
            query.run("SELECT k FROM url_states WHERE last_hit_id > ? LIMIT ?", List.of(at.hits(), (long) max + 1), rs -> numbers(rs, keys));
        }
        int[] moved = fold.moved(kept.verdicts(), at.verdicts());
        if (moved.length > 0 && keys.size() <= max) {
            query.run("SELECT DISTINCT k FROM url_log WHERE c IN (SELECT unnest(?)) LIMIT ?", List.of(claimList(moved), (long) max + 1),
                    rs -> numbers(rs, keys));
        }
        return keys.size() > max ? null : keys;
    }

    private static DuckDbQuery.Array claimList(int[] claims) {
        return new DuckDbQuery.Array("INTEGER", java.util.Arrays.stream(claims).boxed().toArray());
    }

    private static DuckDbQuery.Array numbers(Collection<Long> keys) {
        return new DuckDbQuery.Array("BIGINT", keys.toArray());
    }

    private static Void numbers(ResultSet rs, Set<Long> keys) throws SQLException {
        while (rs.next()) {
            keys.add(rs.getLong(1));
        }
        return null;
    }

    @Override
    protected UrlPage kept(UrlQuery q, String scope, Set<Long> excluded, long offset, int limit) {
        long[] view = sitemapView(q, scope);
        if (view != null) {
            return page(view, scope, excluded, offset, limit);
        }
        List<Object> params = new ArrayList<>();
        String from = from(q, scope, excluded, params, true);
        long total = query.run("SELECT count(*) " + from, params, rs -> {
            rs.next();
            return rs.getLong(1);
        });
        List<UrlState> rows = new ArrayList<>();
        if (limit > 0 && offset < total) {
            List<Object> page = new ArrayList<>(params);
            page.add((long) limit);
            page.add(offset);
            query.run("SELECT s.k, " + STATE_COLUMNS + " " + from + " ORDER BY " + orderBy(q) + " LIMIT ? OFFSET ?", page,
                    rs -> states(rs, rows::add));
        }
        return new UrlPage(total, named(rows));
    }

    /**
     * The numbers of the kept states of {@code scope} in an {@code in_sitemap=} view, in its order:
     * the view without the sitemap read by number and tested against the listed numbers in memory
     * ({@link DuckDbSitemaps#listing()}, and the URLs logged under a host in capitals, read now), held
     * until the next fold or read of a sitemap, with the view of the other answer (in_sitemap=no
     * beside yes) made from the same read. Null for a view without {@code in_sitemap}, or one of
     * more URLs than {@link DuckDbSitemapViews} holds (the store's condition answers it).
     */
    private long[] sitemapView(UrlQuery q, String scope) {
        if (q.filter().inSitemap() == null) {
            return null;
        }
        DuckDbListedNumbers listed = sitemaps.listing();
        DuckDbSitemapViews.Key key = new DuckDbSitemapViews.Key(folded, listed.reads(), scope, q);
        long[] view = sitemapViews.get(key);
        if (view != null) {
            return view;
        }
        Set<Long> capitals = new HashSet<>();
        query.run(DuckDbSitemaps.CAPITALS, List.of(), rs -> numbers(rs, capitals));
        List<Object> params = new ArrayList<>();
        String from = from(q, scope, Set.of(), params, false);
        // both sides at once: the view's numbers in order, split by whether a sitemap lists them
        long[][] made = query.run("SELECT s.k " + from + " ORDER BY " + orderBy(q), params, rs -> {
            long[][] sides = {new long[1024], new long[1024]};
            int[] n = {0, 0};
            while (rs.next()) {
                long k = rs.getLong(1);
                int side = listed.contains(k) || capitals.contains(k) ? 1 : 0;
                if (n[side] == sides[side].length) {
                    if (!DuckDbSitemapViews.fits(n[0] + n[1] + 1L)) {
                        return null;
                    }
                    sides[side] = Arrays.copyOf(sides[side], (int) Math.min(Integer.MAX_VALUE - 8, n[side] * 2L));
                }
                sides[side][n[side]++] = k;
            }
            return new long[][] {Arrays.copyOf(sides[0], n[0]), Arrays.copyOf(sides[1], n[1])};
        });
        if (made == null || !DuckDbSitemapViews.fits(made[0].length + (long) made[1].length)) {
            return null;
        }
        boolean wanted = q.filter().inSitemap();
        UrlQuery other = new UrlQuery(q.filter().withInSitemap(!wanted), q.states(), q.fixedOnly(), q.inconsistentOnly(), q.sort());
        sitemapViews.put(new DuckDbSitemapViews.Key(key.fold(), key.reads(), scope, other), made[wanted ? 0 : 1]);
        sitemapViews.put(key, made[wanted ? 1 : 0]);
        return made[wanted ? 1 : 0];
    }

    /** A page of a view held by number ({@link #sitemapView}), less {@code excluded}: its slice, and its rows read by number. */
    private UrlPage page(long[] view, String scope, Set<Long> excluded, long offset, int limit) {
        long total = view.length;
        List<Long> keys = new ArrayList<>(Math.max(0, Math.min(limit, view.length)));
        if (excluded.isEmpty()) {
            for (long i = offset; i < view.length && keys.size() < limit; i++) {
                keys.add(view[(int) i]);
            }
        } else {
            long position = 0;
            for (long k : view) {
                if (excluded.contains(k)) {
                    total--;
                } else if (position++ >= offset && keys.size() < limit) {
                    keys.add(k);
                }
            }
        }
        return new UrlPage(total, named(statesOf(keys, scope)));
    }

    /** The kept states of {@code scope} of the URLs numbered {@code keys}, in that order. */
    private List<UrlState> statesOf(List<Long> keys, String scope) {
        if (keys.isEmpty()) {
            return new ArrayList<>();
        }
        List<Object> params = new ArrayList<>();
        String sql = "SELECT s.k, " + STATE_COLUMNS;
        if (scope.equals(UrlQuery.EVERY_CRAWLER)) {
            sql += " FROM url_states s WHERE";
        } else {
            sql += " FROM url_scopes s WHERE s.scope = ? AND";
            params.add(scope);
        }
        params.add(numbers(keys));
        Map<Long, UrlState> found = new HashMap<>();
        query.run(sql + " s.k IN (SELECT unnest(?))", params, rs -> states(rs, state -> found.put(state.key(), state)));
        List<UrlState> rows = new ArrayList<>(keys.size());
        for (Long k : keys) {
            UrlState state = found.get(k);
            if (state != null) {
                rows.add(state);
            }
        }
        return rows;
    }

    @Override
    protected void forEachKept(UrlQuery q, String scope, Set<Long> excluded, Consumer<UrlState> rows) {
        List<Object> params = new ArrayList<>();
        String from = from(q, scope, excluded, params, true);
        List<UrlState> slice = new ArrayList<>();
        // named a thousand at a time: the names are another table, read by number
        query.run("SELECT s.k, " + STATE_COLUMNS + " " + from + " ORDER BY " + orderBy(q), params, rs -> states(rs, state -> {
            slice.add(state);
            if (slice.size() == 1000) {
                named(slice).forEach(rows);
                slice.clear();
            }
        }));
        named(slice).forEach(rows);
    }

    /** States of URLs, with their names read by number. */
    @Override
    protected List<UrlState> named(List<UrlState> states) {
        if (states.isEmpty()) {
            return states;
        }
        Map<Long, UrlKey> found = names(states.stream().map(UrlState::key).toList());
        List<UrlState> named = new ArrayList<>(states.size());
        for (UrlState state : states) {
            UrlKey key = found.get(state.key());
            named.add(key == null ? state : state.named(key.host(), key.url()));
        }
        return named;
    }

    private Map<Long, UrlKey> names(Collection<Long> keys) {
        return urlNames.names(keys);
    }

    /**
     * The kept states of a scope that a query takes by URL and by state, less {@code excluded};
     * by its sitemap too when {@code bySitemap}.
     */
    private static String from(UrlQuery q, String scope, Set<Long> excluded, List<Object> params, boolean bySitemap) {
        StringBuilder sql = new StringBuilder(scope.equals(UrlQuery.EVERY_CRAWLER) ? "FROM url_states s" : "FROM url_scopes s");
        List<String> parts = new ArrayList<>();
        urlConditions(q, params, parts);
        if (!parts.isEmpty()) {
            sql.append(" SEMI JOIN (SELECT n.k FROM url_names n WHERE ").append(String.join(" AND ", parts)).append(") n ON n.k = s.k");
            parts.clear();
        }
        if (bySitemap) {
            sitemapCondition(q, "s.k", parts); // on the states' own numbers: no names read
        }
        if (!scope.equals(UrlQuery.EVERY_CRAWLER)) {
            parts.add("s.scope = ?");
            params.add(scope);
        }
        parts.add("s.last_status IS NOT NULL");
        if (!excluded.isEmpty()) {
            parts.add("s.k NOT IN (SELECT unnest(?))");
            params.add(numbers(excluded));
        }
        if (!q.states().isEmpty()) {
            List<String> states = new ArrayList<>();
            for (UrlState.State state : q.states()) {
                states.add(switch (state) {
                    case broken -> "s.last_status >= 400";
                    case redirected -> "(s.last_status BETWEEN 300 AND 399 AND s.last_status <> 304)";
                    case ok -> "(s.last_status < 300 OR s.last_status = 304)";
                });
            }
            parts.add("(" + String.join(" OR ", states) + ")");
        }
        if (q.fixedOnly()) {
            parts.add("s.fixed_since IS NOT NULL");
        }
        if (q.inconsistentOnly()) {
            parts.add("s.flips >= 2");
        }
        if (!q.filter().statuses().isEmpty()) {
            List<String> statuses = new ArrayList<>();
            for (StatusRange range : q.filter().statuses()) {
                statuses.add("s.last_status BETWEEN ? AND ?");
                params.add(range.low());
                params.add(range.high());
            }
            parts.add("(" + String.join(" OR ", statuses) + ")");
        }
        return sql.append(" WHERE ").append(String.join(" AND ", parts)).toString();
    }

    /** A query's conditions on a URL's name (its host, prefix and shape), over {@code n.host} and {@code n.url}. */
    private static void urlConditions(UrlQuery q, List<Object> params, List<String> parts) {
        if (q.filter().host() != null) {
            parts.add("n.host = ?");
            params.add(q.filter().host());
        }
        if (q.filter().urlPrefix() != null) {
            parts.add("starts_with(n.url, ?)");
            params.add(q.filter().urlPrefix());
        }
        if (q.filter().urlPattern() != null) {
            parts.add(DuckDbFilter.pattern(q.filter().urlPattern(), params).replace("h.url", "n.url"));
        }
    }

    /** Whether a sitemap lists the URL numbered {@code number}, as {@code in_sitemap} asks; none when it does not ask. */
    private static void sitemapCondition(UrlQuery q, String number, List<String> parts) {
        if (q.filter().inSitemap() != null) {
            String listed = number + " IN (" + DuckDbSitemaps.LISTED_NUMBERS + ")";
            parts.add(q.filter().inSitemap() ? listed : "NOT (" + listed + ")");
        }
    }

    private static String orderBy(UrlQuery q) {
        String first = switch (q.sort()) {
            case errors -> "s.error_hits DESC";
            case last_error -> "s.last_error DESC NULLS LAST";
            case first_error -> "s.first_error DESC NULLS LAST";
            case last_crawled -> "s.last_crawled DESC";
        };
        return first + ", s.k";
    }

    private static Void states(ResultSet rs, Consumer<UrlState> rows) throws SQLException {
        while (rs.next()) {
            rows.accept(new UrlState(rs.getLong(1), "", "", rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6),
                    rs.getLong(8), rs.getLong(9), rs.getInt(10), time(rs, 11), rs.getInt(12), time(rs, 13), rs.getInt(14), time(rs, 15),
                    rs.getInt(16)));
        }
        return null;
    }

    private static long time(ResultSet rs, int column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? UrlState.NONE : value;
    }

    @Override
    protected void histories(Collection<Long> keys, Snapshot at, boolean addresses, Consumer<UrlHistory> each) {
        histories(keys, at, addresses, this::names, each);
    }

    /** One URL's history: its name is the one asked for, so {@code url_names} is not read (a scan of every URL's number). */
    @Override
    protected void history(UrlKey key, Snapshot at, Consumer<UrlHistory> each) {
        histories(List.of(key.number()), at, true, found -> Map.of(key.number(), key), each);
    }

    private void histories(Collection<Long> keys, Snapshot at, boolean addresses, java.util.function.Function<Set<Long>, Map<Long, UrlKey>> naming,
            Consumer<UrlHistory> each) {
        if (keys.isEmpty()) {
            return;
        }
        Map<Long, List<UrlHit>> found = new HashMap<>();
        // one URL: its number is a constant, so each run's row groups are chosen by their bounds
        String which = keys.size() == 1 ? "k = ?" : "k IN (SELECT unnest(?))";
        Object keyParam = keys.size() == 1 ? keys.iterator().next() : numbers(keys);
        query.run("SELECT " + HISTORY + " FROM (SELECT " + HISTORY + " FROM url_log WHERE " + which + " AND i <= ? UNION ALL SELECT "
                + HISTORY + " FROM url_tail WHERE " + which + " AND i <= ?) ORDER BY k, t, i",
                List.of(keyParam, at.hits(), keyParam, at.hits()), rs -> {
                    while (rs.next()) {
                        found.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>()).add(hit(rs, 2, at));
                    }
                    return null;
                });
        if (found.isEmpty()) {
            return;
        }
        Map<Long, UrlKey> named = naming.apply(found.keySet());
        for (Map.Entry<Long, List<UrlHit>> history : found.entrySet()) {
            UrlKey key = named.get(history.getKey());
            if (key == null) {
                continue;
            }
            List<UrlHit> hits = history.getValue();
            if (addresses) {
                hits = hits.stream().map(h -> new UrlHit(h.epochMillis(), h.id(), h.status(), h.claim(), h.crawler(), h.botType(),
                        names.ip((int) h.claim()), h.verification())).toList();
            }
            each.accept(new UrlHistory(key, hits));
        }
    }

    /** A hit as a history keeps it, from column {@code first} on: time, number, status, claim, bot type; its verdict as of {@code at}. */
    private UrlHit hit(ResultSet rs, int first, Snapshot at) throws SQLException {
        int claim = rs.getInt(first + 3);
        int type = rs.getInt(first + 4);
        String botType = type >= 0 && type < DuckDbUrlTail.BOT_TYPES.length ? DuckDbUrlTail.BOT_TYPES[type].name() : null;
        return new UrlHit(rs.getLong(first), rs.getLong(first + 1), rs.getInt(first + 2), claim, names.crawler(claim), botType, null,
                claims.verdict(claim, at.verdicts()).verification());
    }

    @Override
    protected void histories(UrlQuery q, Snapshot at, Consumer<UrlHistory> each) {
        if (q.filter().from() != null || q.filter().to() != null) {
            ranged(q, at, each);
            return;
        }
        if (oldHitsWaiting()) {
            catchUp();
            throw new UrlStatesBehindException();
        }
        List<Object> params = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        urlConditions(q, params, parts);
        sitemapCondition(q, "n.k", parts);
        String urls = "SELECT n.k, n.host, n.url FROM url_names n WHERE n.k >= ? AND n.k < ?" + (parts.isEmpty() ? ""
                : " AND " + String.join(" AND ", parts));
        long slice = Long.MAX_VALUE / SLICES + 1;
        for (int n = 0; n < SLICES; n++) {
            long low = n * slice;
            long high = n == SLICES - 1 ? Long.MAX_VALUE : low + slice;
            List<Object> sliceParams = new ArrayList<>(List.of(low, high));
            sliceParams.addAll(params);
            Map<Long, UrlKey> named = new HashMap<>();
            query.run(urls, sliceParams, rs -> {
                while (rs.next()) {
                    named.put(rs.getLong(1), new UrlKey(rs.getString(2), rs.getString(3)));
                }
                return null;
            });
            if (named.isEmpty()) {
                continue;
            }
            String rows = " l WHERE l.k >= ? AND l.k < ? AND l.i <= ? AND l.k IN (SELECT n.k FROM url_names n WHERE n.k >= ? AND n.k < ?"
                    + (parts.isEmpty() ? "" : " AND " + String.join(" AND ", parts)) + ")";
            // the same slice bounds twice in each half: once for the rows, once for the names they must have
            List<Object> bound = new ArrayList<>();
            for (int run = 0; run < 2; run++) {
                bound.add(low);
                bound.add(high);
                bound.add(at.hits());
                bound.addAll(sliceParams);
            }
            query.run("SELECT " + HISTORY + " FROM (SELECT " + HISTORY + " FROM url_log" + rows + " UNION ALL SELECT " + HISTORY
                    + " FROM url_tail" + rows + ") ORDER BY k, t, i", bound, rs -> {
                        long key = -1;
                        List<UrlHit> hits = null;
                        while (rs.next()) {
                            long k = rs.getLong(1);
                            if (hits == null || k != key) {
                                if (hits != null) {
                                    each.accept(new UrlHistory(named.get(key), hits));
                                }
                                key = k;
                                hits = new ArrayList<>();
                            }
                            hits.add(hit(rs, 2, at));
                        }
                        if (hits != null) {
                            each.accept(new UrlHistory(named.get(key), hits));
                        }
                        return null;
                    });
        }
    }

    /**
     * The histories of a time range's hits by number, from {@code url_times}: the range's rows of
     * the heads and crawlers asked, each URL's together; no name is read. Without a time range, only
     * while they are no more than {@link #UNRANGED_HITS}.
     */
    @Override
    protected boolean numberedHistories(UrlQuery q, Snapshot at, BiConsumer<Long, List<UrlHit>> each) {
        if (oldHitsWaiting()) {
            return false;
        }
        // no time range: every hit of the heads and crawlers asked, taken while they are few (a family
        // of crawlers, a verdict, under a prefix); more are read a slice of numbers at a time instead
        boolean ranged = q.filter().from() != null || q.filter().to() != null;
        List<Object> params = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        parts.add("i <= ?");
        params.add(at.hits());
        if (q.filter().from() != null) {
            parts.add("t >= ?");
            params.add(q.filter().from().toEpochMilli());
        }
        if (q.filter().to() != null) {
            parts.add("t < ?");
            params.add(q.filter().to().toEpochMilli());
        }
        if (!q.filter().crawlers().isEmpty()) {
            parts.add("c IN (" + DuckDbFilter.claimsOf(q.filter().crawlers(), params) + ")");
        }
        List<String> heads = new ArrayList<>();
        if (q.filter().host() != null) {
            heads.add("host = ?");
            params.add(q.filter().host());
        }
        if (q.filter().urlPrefix() != null && !q.filter().urlPrefix().isEmpty()) {
            heads.add("starts_with(head, ?)");
            params.add(q.filter().urlPrefix());
        }
        if (!heads.isEmpty()) {
            parts.add("hd IN (SELECT hd FROM url_heads WHERE " + String.join(" AND ", heads) + ")");
        }
        String where = " FROM url_times WHERE " + String.join(" AND ", parts);
        if (!ranged) {
            // counted first, up to the bound, so that a view of more reads nothing here in vain
            List<Object> counted = new ArrayList<>(params);
            counted.add(UNRANGED_HITS + 1L);
            long hits = query.run("SELECT count(*) FROM (SELECT 1" + where + " LIMIT ?)", counted, rs -> {
                rs.next();
                return rs.getLong(1);
            });
            if (hits > UNRANGED_HITS) {
                return false;
            }
        }
        // unsorted: the range's rows grouped by number here, each URL's few hits put in time order after
        Map<Long, List<UrlHit>> urls = new HashMap<>();
        query.run("SELECT " + HISTORY + where, params, rs -> {
            while (rs.next()) {
                urls.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>(4)).add(hit(rs, 2, at));
            }
            return null;
        });
        Comparator<UrlHit> inTime = Comparator.comparingLong(UrlHit::epochMillis).thenComparingLong(UrlHit::id);
        for (Map.Entry<Long, List<UrlHit>> url : urls.entrySet()) {
            url.getValue().sort(inTime);
            each.accept(url.getKey(), url.getValue());
        }
        return true;
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
        List<String> urlParts = new ArrayList<>();
        urlConditions(q, params, urlParts);
        for (String part : urlParts) {
            parts.add(part.replace("n.host", "coalesce(h.host, '')").replace("n.url", "h.url"));
        }
        if (q.filter().inSitemap() != null) {
            String listed = DuckDbSitemaps.listed("TRUE");
            parts.add(q.filter().inSitemap() ? listed : "NOT " + listed);
        }
        query.run("SELECT coalesce(h.host, ''), h.url, epoch_ms(h.ts), h.id, h.status, h.claim_id, h.crawler, h.bot_type FROM hits h WHERE "
                + String.join(" AND ", parts) + " ORDER BY coalesce(h.host, ''), h.url, h.ts, h.id", params, rs -> {
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
                        int claim = rs.getInt(6);
                        hits.add(new UrlHit(rs.getLong(3), rs.getLong(4), rs.getInt(5), claim, rs.getString(7), rs.getString(8), null,
                                claims.verdict(claim, at.verdicts()).verification()));
                    }
                    if (key != null) {
                        each.accept(new UrlHistory(key, hits));
                    }
                    return null;
                });
    }

    @Override
    protected Set<Long> hostsOf(String url, Snapshot at) {
        Set<Long> keys = new LinkedHashSet<>();
        query.run("SELECT DISTINCT host FROM url_names", List.of(), rs -> {
            while (rs.next()) {
                keys.add(UrlKey.number(rs.getString(1), url));
            }
            return null;
        });
        return keys;
    }
}
