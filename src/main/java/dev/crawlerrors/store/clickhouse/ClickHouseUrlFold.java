package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.UrlHistory;
import dev.crawlerrors.store.UrlHit;
import dev.crawlerrors.store.UrlKey;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.store.UrlSort;
import dev.crawlerrors.store.UrlState;
import dev.crawlerrors.store.UrlStateBuilder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Adds the hits of the batches committed since the last fold to the URLs' kept states on
 * ClickHouse, a slice of URL numbers at a time: each URL's new hits, in time order, go on from its
 * kept state in each scope and the state's {@code carry} ({@link UrlStateBuilder#resume}), so a
 * fold reads the new rows and the touched URLs' kept rows, never a history. A URL is made from its
 * whole history instead when a new hit is not after its kept ones, when the verdict of a claim
 * of its older hits moved, or when its kept rows have no carry (written by schema 8). Only the
 * scopes a fold changes get a row, under the new snapshot's total.
 */
final class ClickHouseUrlFold {

    /** New rows a slice of URL numbers holds, about: what one read takes into memory. */
    private static final int SLICE_ROWS = 200_000;
    /** URLs a read by number names at once (the statement's size). */
    private static final int CHUNK = 2_000;
    static final String STATE_COLUMNS = "ok, not_modified, redirects, client_errors, server_errors, error_hits, first_crawled,"
            + " last_crawled, last_status, first_error, first_error_status, last_error, last_error_status, fixed_since, flips";
    private static final String NEW_ROWS = "k, host, url, ts_ms, " + ClickHouseHitReader.ID + ", status, claim, crawler, bot_type";

    private final ClickHouseHttp http;
    private final ClickHouseCluster cluster;
    private final String db;
    private final String log;
    private final ClickHouseVerdicts verdicts;
    private final ClickHouseUrlStates states;

    ClickHouseUrlFold(ClickHouseHttp http, ClickHouseCluster cluster, String db, ClickHouseVerdicts verdicts, ClickHouseUrlStates states) {
        this.http = http;
        this.cluster = cluster;
        this.db = db;
        this.log = db + (cluster.distributed() ? ".url_log" : ".url_log_local");
        this.verdicts = verdicts;
        this.states = states;
    }

    /** Writes the states at {@code to} of every URL whose hits differ from those at {@code from}, the last fold's. */
    void fold(ClickHouseSnapshots.View from, ClickHouseSnapshots.View to) {
        String fresh = "(" + to.visible() + ") AND NOT (" + from.visible() + ")";
        ClickHouseTsv.Reader count = new ClickHouseTsv.Reader(http.query(cluster.entry(), "SELECT count() FROM " + log + " WHERE " + fresh));
        long rows = count.nextRow() ? count.number() : 0;
        Set<Long> whole = from.total() == 0 ? new LinkedHashSet<>() : moved(from, to);
        int slices = (int) Math.min(4_096, rows / SLICE_ROWS + 1);
        long width = Long.MAX_VALUE / slices + 1;
        for (int i = 0; i < slices; i++) {
            long low = i * width;
            String range = "k >= " + low + (i == slices - 1 ? "" : " AND k < " + (low + width));
            foldSlice(range, fresh, from, to, whole);
        }
        List<Long> all = new ArrayList<>(whole);
        for (int i = 0; i < all.size(); i += CHUNK) {
            remake(all.subList(i, Math.min(all.size(), i + CHUNK)), to);
        }
    }

    /** The URLs with hits at {@code from} by a claim whose verdict moved since. */
    private Set<Long> moved(ClickHouseSnapshots.View from, ClickHouseSnapshots.View to) {
        List<Long> moved = movedClaims(from, to);
        Set<Long> keys = new LinkedHashSet<>();
        for (int i = 0; i < moved.size(); i += CHUNK) {
            ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(cluster.entry(), "SELECT DISTINCT k FROM " + log + " WHERE ("
                    + from.visible() + ") AND claim IN (" + claims(moved.subList(i, Math.min(moved.size(), i + CHUNK))) + ")"));
            while (rows.nextRow()) {
                keys.add(rows.number());
            }
        }
        return keys;
    }

    /**
     * The claims whose verdict differs between two snapshots: of those with a verdict recorded in
     * one and not the other, as each process records its claims' first verdicts again, which moves none.
     */
    List<Long> movedClaims(ClickHouseSnapshots.View a, ClickHouseSnapshots.View b) {
        ClickHouseTsv.Reader recorded = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT DISTINCT claim FROM " + db
                + ".verdict_log_local WHERE (" + a.visible() + ") != (" + b.visible() + ")"));
        List<Long> claims = new ArrayList<>();
        while (recorded.nextRow()) {
            claims.add(recorded.unsigned());
        }
        Map<Long, Verdict> inA = verdictsAt(claims, a);
        Map<Long, Verdict> inB = verdictsAt(claims, b);
        List<Long> moved = new ArrayList<>();
        for (long claim : claims) {
            if (inA.getOrDefault(claim, ClickHouseVerdicts.NOT_CHECKED).verification()
                    != inB.getOrDefault(claim, ClickHouseVerdicts.NOT_CHECKED).verification()) {
                moved.add(claim);
            }
        }
        return moved;
    }

    /** Claims as a statement lists them. */
    static String claims(List<Long> claims) {
        StringBuilder list = new StringBuilder(claims.size() * 21);
        for (long claim : claims) {
            list.append(list.isEmpty() ? "" : ",").append(Long.toUnsignedString(claim));
        }
        return list.toString();
    }

    /** The verdicts of {@code claims} at {@code view}, asked a chunk at a time (a statement's size is bounded). */
    private Map<Long, Verdict> verdictsAt(Collection<Long> claims, ClickHouseSnapshots.View view) {
        Map<Long, Verdict> found = new HashMap<>();
        List<Long> all = new ArrayList<>(claims);
        for (int i = 0; i < all.size(); i += CHUNK) {
            found.putAll(verdicts.at(all.subList(i, Math.min(all.size(), i + CHUNK)).stream().mapToLong(Long::longValue).toArray(), view));
        }
        return found;
    }

    /** Adds the new hits of the URLs in {@code range} to their states; those that cannot be go to {@code whole}. */
    private void foldSlice(String range, String fresh, ClickHouseSnapshots.View from, ClickHouseSnapshots.View to, Set<Long> whole) {
        Map<Long, UrlHistory> added = newHits(range, fresh, to);
        List<Long> merged = new ArrayList<>();
        for (long k : added.keySet()) {
            if (!whole.contains(k)) {
                merged.add(k);
            }
        }
        ClickHouseTsv.Writer out = new ClickHouseTsv.Writer(Math.max(1, merged.size()) * 256);
        for (int i = 0; i < merged.size(); i += CHUNK) {
            List<Long> chunk = merged.subList(i, Math.min(merged.size(), i + CHUNK));
            Map<Long, Map<String, Kept>> kept = kept(chunk, from);
            for (long k : chunk) {
                if (!merge(added.get(k), kept.getOrDefault(k, Map.of()), to.total(), out)) {
                    whole.add(k);
                }
            }
        }
        insert(out);
    }

    /** The hits of {@code range} in batches the last fold did not hold, each URL's in time order, with their verdicts at {@code to}. */
    private Map<Long, UrlHistory> newHits(String range, String fresh, ClickHouseSnapshots.View to) {
        ClickHouseTsv.Reader r = new ClickHouseTsv.Reader(http.query(cluster.entry(), "SELECT " + NEW_ROWS + " FROM " + log + " WHERE "
                + range + " AND " + fresh + " ORDER BY k, ts_ms, writer, n"));
        List<Object[]> rows = new ArrayList<>();
        Set<Long> claims = new LinkedHashSet<>();
        while (r.nextRow()) {
            Object[] row = {r.number(), r.text(), r.text(), r.number(), r.number(), (int) r.number(), r.unsigned(), r.text(), r.text()};
            claims.add((Long) row[6]);
            rows.add(row);
        }
        Map<Long, Verdict> found = verdictsAt(claims, to);
        Map<Long, UrlKey> names = new LinkedHashMap<>();
        Map<Long, List<UrlHit>> hits = new HashMap<>();
        for (Object[] row : rows) {
            long k = (Long) row[0];
            names.computeIfAbsent(k, key -> new UrlKey((String) row[1], (String) row[2]));
            long claim = (Long) row[6];
            hits.computeIfAbsent(k, key -> new ArrayList<>()).add(new UrlHit((Long) row[3], (Long) row[4], (Integer) row[5], claim,
                    ClickHouseUrlStates.crawlerOf((String) row[7]), (String) row[8], null,
                    found.getOrDefault(claim, ClickHouseVerdicts.NOT_CHECKED).verification()));
        }
        Map<Long, UrlHistory> added = new LinkedHashMap<>();
        names.forEach((k, name) -> added.put(k, new UrlHistory(name, hits.get(k))));
        return added;
    }

    /** A scope's kept state of a URL and its carry ({@code -1} when its row has none). */
    private record Kept(UrlState state, int carry) {
    }

    /** The kept states at {@code from} of {@code keys}, by URL and scope, those with a status. */
    private Map<Long, Map<String, Kept>> kept(List<Long> keys, ClickHouseSnapshots.View from) {
        Map<Long, Map<String, Kept>> kept = new HashMap<>();
        if (from.total() == 0) {
            return kept;
        }
        ClickHouseTsv.Reader r = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT scope, k, host, url, " + STATE_COLUMNS
                + ", ifNull(carry, -1) FROM (SELECT * FROM " + db + ".url_states WHERE k IN (" + list(keys) + ") AND version <= "
                + from.total() + " ORDER BY scope, k, version DESC LIMIT 1 BY scope, k) WHERE last_status IS NOT NULL"));
        while (r.nextRow()) {
            String scope = r.text();
            UrlState state = state(r);
            kept.computeIfAbsent(state.key(), key -> new HashMap<>()).put(scope, new Kept(state, (int) r.number()));
        }
        return kept;
    }

    /** A kept state read from its row's next fields: {@code k, host, url} and {@link #STATE_COLUMNS}. */
    static UrlState state(ClickHouseTsv.Reader r) {
        long k = r.number();
        String host = r.text();
        String url = r.text();
        long[] v = new long[15];
        for (int i = 0; i < v.length; i++) {
            v[i] = r.number();
        }
        return new UrlState(k, host, url, v[0], v[1], v[2], v[3], v[4], v[6], v[7], (int) v[8], v[9], (int) v[10], v[11], (int) v[12], v[13],
                (int) v[14]);
    }

    /** Writes the states of the scopes {@code added}'s hits change, gone on from {@code kept}; false, writing nothing, when it cannot. */
    private static boolean merge(UrlHistory added, Map<String, Kept> kept, long version, ClickHouseTsv.Writer out) {
        long last = UrlState.NONE;
        for (Kept k : kept.values()) {
            if (k.carry() < 0) {
                return false;
            }
            last = Math.max(last, k.state().lastCrawled());
        }
        if (added.hits().get(0).epochMillis() <= last) {
            return false; // a hit among the kept ones: the order of the history changed
        }
        Set<String> scopes = new LinkedHashSet<>(kept.keySet());
        scopes.add(UrlQuery.EVERY_CRAWLER);
        scopes.add(UrlQuery.EVERY_BOT_TYPE);
        added.hits().forEach(hit -> scopes.add(hit.crawler()));
        UrlKey key = added.key();
        for (String scope : scopes) {
            Kept before = kept.get(scope);
            UrlStateBuilder state = before == null ? new UrlStateBuilder(key.number(), key.host(), key.url())
                    : UrlStateBuilder.resume(before.state(), before.carry());
            if (add(state, added.hits(), scopeQuery(scope))) {
                row(out, scope, key, state.build(), state.carry(), version, key.number());
            }
        }
        return true;
    }

    /** Adds the hits {@code q} shows; whether there was one. */
    private static boolean add(UrlStateBuilder state, List<UrlHit> hits, UrlQuery q) {
        boolean any = false;
        for (UrlHit hit : hits) {
            if (q.shows(hit, hit.verification())) {
                state.add(hit.epochMillis(), hit.status());
                any = true;
            }
        }
        return any;
    }

    /** Makes and writes the states of {@code keys} at {@code to} from their histories, every scope they had before left without a status where it has none now. */
    private void remake(List<Long> keys, ClickHouseSnapshots.View to) {
        Map<Long, Set<String>> before = new LinkedHashMap<>();
        ClickHouseTsv.Reader old = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT DISTINCT k, scope FROM " + db
                + ".url_states WHERE k IN (" + list(keys) + ")"));
        while (old.nextRow()) {
            before.computeIfAbsent(old.number(), k -> new LinkedHashSet<>()).add(old.text());
        }
        ClickHouseTsv.Writer rows = new ClickHouseTsv.Writer(keys.size() * 256);
        Set<Long> made = new LinkedHashSet<>();
        states.histories(keys, to.snapshot(), false, history -> {
            long k = history.key().number();
            made.add(k);
            Set<String> gone = before.getOrDefault(k, new LinkedHashSet<>());
            Set<String> scopes = new LinkedHashSet<>();
            scopes.add(UrlQuery.EVERY_CRAWLER);
            scopes.add(UrlQuery.EVERY_BOT_TYPE);
            history.hits().forEach(hit -> scopes.add(hit.crawler()));
            for (String scope : scopes) {
                UrlStateBuilder state = new UrlStateBuilder(k, history.key().host(), history.key().url());
                if (add(state, history.hits(), scopeQuery(scope))) {
                    gone.remove(scope);
                    row(rows, scope, history.key(), state.build(), state.carry(), to.total(), k);
                }
            }
            for (String scope : gone) {
                row(rows, scope, history.key(), null, 0, to.total(), k);
            }
        });
        for (Map.Entry<Long, Set<String>> was : before.entrySet()) {
            if (!made.contains(was.getKey())) {
                for (String scope : was.getValue()) {
                    row(rows, scope, new UrlKey("", ""), null, 0, to.total(), was.getKey());
                }
            }
        }
        insert(rows);
    }

    private void insert(ClickHouseTsv.Writer rows) {
        if (rows.rows() > 0) {
            ClickHouseHttp.await(http.insert(cluster.meta(), db + ".url_states (scope, k, host, url, " + STATE_COLUMNS + ", carry, version)",
                    rows));
        }
    }

    /** The view whose states a kept scope holds. */
    private static UrlQuery scopeQuery(String scope) {
        HitFilter filter = switch (scope) {
            case UrlQuery.EVERY_CRAWLER -> HitFilter.ERRORS;
            case UrlQuery.EVERY_BOT_TYPE -> new HitFilter(List.of(), HitFilter.ALL_BOT_TYPES, Set.of(), null, null, null, null);
            default -> new HitFilter(List.of(), Set.of(), Set.of(), null, null, null, null, Set.of(scope));
        };
        return new UrlQuery(filter, Set.of(), false, false, UrlSort.errors);
    }

    /** A row of {@code url_states}: a scope's state of URL {@code k} and its carry, or none (a scope with no hit left). */
    private static void row(ClickHouseTsv.Writer rows, String scope, UrlKey key, UrlState s, int carry, long version, long k) {
        rows.field(scope).tab().field(k).tab().field(key.host()).tab().field(key.url()).tab();
        if (s == null) {
            for (int i = 0; i < 16; i++) {
                rows.nul().tab();
            }
        } else {
            long[] values = {s.ok(), s.notModified(), s.redirects(), s.clientErrors(), s.serverErrors(), s.errorHits(), s.firstCrawled(),
                s.lastCrawled(), s.lastStatus(), s.firstError(), s.firstErrorStatus(), s.lastError(), s.lastErrorStatus(), s.fixedSince(),
                s.flips(), carry};
            for (long value : values) {
                rows.field(value).tab();
            }
        }
        rows.unsigned(version).endRow();
    }

    static String list(Collection<Long> keys) {
        StringBuilder sb = new StringBuilder(keys.size() * 20);
        for (long k : keys) {
            sb.append(sb.isEmpty() ? "" : ",").append(k);
        }
        return sb.toString();
    }
}
