package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.StoredVerdict;
import dev.crawlerrors.store.VerdictStore;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Verdicts on ClickHouse: every verdict recorded is a row of {@code verdict_log_local} with a
 * version, and a claim's verdict at a snapshot is the one of highest version among its rows that
 * snapshot holds ({@code argMax}). Every shard holds every verdict, so a shard can filter its own
 * hits by verdict with a local subquery. Versions order verdicts across processes without a
 * counter they share: a change (a DNS check completed, a re-check) beats a first verdict (the one
 * a hit was identified with), the latest change wins, and among first verdicts the earliest wins,
 * as the embedded store records a claim's first verdict only when it has none.
 *
 * <p>A report reads the same snapshot page after page, so the verdicts of every claim at a
 * snapshot are read once and kept ({@link Table}), brought up to date from an older one by the
 * verdicts recorded since: a page then asks ClickHouse for its rows only, with the claims its
 * view leaves out written into the query (the shorter list, as the embedded store does). A store
 * of more claims than {@link #MAX_KEPT_CLAIMS} asks ClickHouse instead: a subquery per page. A
 * verdict updated goes to the writer, in its next batch.
 */
final class ClickHouseVerdicts implements VerdictStore {

    /** What a claim with no verdict recorded shows, as the embedded store shows it. */
    static final Verdict NOT_CHECKED = new Verdict(Verification.unverified, "not checked yet");
    private static final long CHANGE = 2L << 60;
    private static final long FIRST = 1L << 60;
    private static final long MILLIS_LIMIT = 1L << 44;
    /** Claims whose verdicts are kept in memory per snapshot (about 100 bytes each), at most. */
    static final int MAX_KEPT_CLAIMS = 300_000;
    /** Claims written into a query as a list, at most; beyond, a subquery selects them. */
    private static final int MAX_LISTED_CLAIMS = 20_000;
    private static final int TABLES_KEPT = 4;

    /** One claim's verdict, with the version that made it the latest. */
    private record Entry(long version, Verdict verdict) {
    }

    /** Every claim's verdict at one snapshot. */
    private static final class Table {
        final ClickHouseSnapshots.View view;
        final Map<Long, Entry> claims;
        final Map<Set<Verification>, String> filters = new HashMap<>();

        Table(ClickHouseSnapshots.View view, Map<Long, Entry> claims) {
            this.view = view;
            this.claims = claims;
        }
    }

    private final ClickHouseHttp http;
    private final ClickHouseCluster cluster;
    private final String db;
    private final ClickHouseHitWriter writer;
    private final Runnable beforeRead;
    private final Map<Long, Table> tables = new LinkedHashMap<>(8, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Table> eldest) {
            return size() > TABLES_KEPT;
        }
    };
    /** Set once the store holds more claims than are kept: every read asks ClickHouse from then on. */
    private volatile boolean tooMany;

    /** @param beforeRead commits what this process appended, so its reads see it */
    ClickHouseVerdicts(ClickHouseHttp http, ClickHouseCluster cluster, String db, ClickHouseHitWriter writer, Runnable beforeRead) {
        this.http = http;
        this.cluster = cluster;
        this.db = db;
        this.writer = writer;
        this.beforeRead = beforeRead;
    }

    /** A version for a verdict recorded now: a change ({@code change}) or a claim's first verdict. */
    static long version(boolean change) {
        long millis = Math.min(Math.max(System.currentTimeMillis(), 0), MILLIS_LIMIT - 1);
        long tie = ThreadLocalRandom.current().nextInt(1 << 12);
        return change ? CHANGE | (millis << 12) | tie : FIRST | ((MILLIS_LIMIT - 1 - millis) << 12) | tie;
    }

    /** Whether a verdict of this version is a change (a check completed, a re-check), not a claim's first. */
    static boolean isChange(long version) {
        return Long.compareUnsigned(version, CHANGE) >= 0;
    }

    /**
     * The claims among {@code rows} (by claim key) whose latest verdict at {@code view} is the one
     * the row holds: a re-check that found what the last check found, which records nothing.
     */
    Set<String> alreadyRecorded(Map<String, ClickHouseBatch.VerdictRow> rows, ClickHouseSnapshots.View view) {
        Set<String> recorded = new HashSet<>();
        List<Map.Entry<String, ClickHouseBatch.VerdictRow>> all = new ArrayList<>(rows.entrySet());
        for (int from = 0; from < all.size() && view.total() > 0; from += MAX_LISTED_CLAIMS) {
            List<Map.Entry<String, ClickHouseBatch.VerdictRow>> some = all.subList(from, Math.min(all.size(), from + MAX_LISTED_CLAIMS));
            StringBuilder claims = new StringBuilder();
            Map<String, String> keys = new HashMap<>();
            for (Map.Entry<String, ClickHouseBatch.VerdictRow> e : some) {
                ClickHouseBatch.VerdictRow row = e.getValue();
                claims.append(claims.isEmpty() ? "" : ",").append('(').append(ClickHouseSql.quote(row.ip())).append(',')
                        .append(ClickHouseSql.quote(row.crawler())).append(')');
                keys.put(row.ip() + '\n' + row.crawler(), e.getKey());
            }
            ClickHouseTsv.Reader latest = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT ip, crawler, argMax(verification,"
                    + " version), argMax(reason, version) FROM " + db + ".verdict_log_local WHERE (ip, crawler) IN (" + claims + ") AND "
                    + view.visible() + " GROUP BY ip, crawler"));
            while (latest.nextRow()) {
                String key = keys.get(latest.text() + '\n' + latest.text());
                Verdict verdict = new Verdict(Verification.valueOf(latest.text()), latest.text());
                if (key != null && rows.get(key).verdict().equals(verdict)) {
                    recorded.add(key);
                }
            }
        }
        return recorded;
    }

    @Override
    public void update(String ip, String crawler, Verdict verdict) {
        writer.updateVerdict(ip, crawler, verdict);
    }

    @Override
    public void updateAll(List<StoredVerdict> verdicts) {
        writer.updateVerdicts(verdicts);
    }

    @Override
    public void commit() {
        beforeRead.run();
    }

    /** The latest verdict of each claim whose latest is {@code verification}, by address and crawler. */
    @Override
    public List<StoredVerdict> of(Verification verification) {
        beforeRead.run();
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT ip, crawler, v, r FROM (SELECT ip, crawler,"
                + " argMax(verification, version) AS v, argMax(reason, version) AS r FROM " + db + ".verdicts_local GROUP BY ip, crawler)"
                + " WHERE v = " + ClickHouseSql.quote(verification.name()) + " ORDER BY ip, crawler"));
        List<StoredVerdict> verdicts = new ArrayList<>();
        while (rows.nextRow()) {
            String ip = rows.text();
            String crawler = rows.text();
            Verification v = Verification.valueOf(rows.text());
            verdicts.add(new StoredVerdict(ip, crawler, new Verdict(v, rows.text())));
        }
        return verdicts;
    }

    /** The verdict of each of {@code claims} at snapshot {@code view}, by claim; a claim with none is not in it. */
    Map<Long, Verdict> at(long[] claims, ClickHouseSnapshots.View view) {
        Map<Long, Verdict> verdicts = new HashMap<>();
        if (claims.length == 0) {
            return verdicts;
        }
        Table table = table(view);
        if (table != null) {
            for (long claim : claims) {
                Entry entry = table.claims.get(claim);
                if (entry != null) {
                    verdicts.put(claim, entry.verdict());
                }
            }
            return verdicts;
        }
        StringBuilder list = new StringBuilder(claims.length * 21);
        for (long claim : claims) {
            list.append(list.isEmpty() ? "" : ",").append(Long.toUnsignedString(claim));
        }
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT claim, argMax(verification, version),"
                + " argMax(reason, version) FROM " + db + ".verdict_log_local WHERE claim IN (" + list + ") AND " + view.visible()
                + " GROUP BY claim"));
        while (rows.nextRow()) {
            long claim = rows.unsigned();
            verdicts.put(claim, new Verdict(Verification.valueOf(rows.text()), rows.text()));
        }
        return verdicts;
    }

    /**
     * The condition on a hit's {@code claim} that keeps those whose verdict at snapshot
     * {@code view} is one of {@code wanted}, or null when every verdict is wanted. A claim without a
     * verdict counts as unverified: when unverified is wanted, the claims whose verdict is not
     * wanted are left out; else those whose verdict is wanted are kept.
     */
    String filter(Set<Verification> wanted, ClickHouseSnapshots.View view) {
        if (wanted.containsAll(EnumSet.allOf(Verification.class))) {
            return null;
        }
        boolean unverified = wanted.contains(Verification.unverified);
        Set<Verification> listed = unverified ? EnumSet.complementOf(EnumSet.copyOf(wanted)) : EnumSet.copyOf(wanted);
        Table table = table(view);
        if (table != null) {
            synchronized (table) {
                String known = table.filters.get(wanted);
                if (known == null) {
                    known = listed(table, listed, unverified);
                    table.filters.put(wanted, known);
                }
                if (!known.isEmpty()) {
                    return known;
                }
            }
        }
        List<String> names = listed.stream().map(Verification::name).toList();
        return "claim " + (unverified ? "NOT IN" : "IN") + " (SELECT claim FROM (SELECT claim, argMax(verification, version) AS v FROM "
                + db + ".verdict_log_local WHERE " + view.visible() + " GROUP BY claim) WHERE v IN (" + ClickHouseSql.quoted(names) + "))";
    }

    /** The claims of {@code table} whose verdict is one of {@code listed}, as a condition; empty when the list is too long to write. */
    private static String listed(Table table, Set<Verification> listed, boolean leftOut) {
        StringBuilder sb = new StringBuilder();
        int n = 0;
        for (Map.Entry<Long, Entry> e : table.claims.entrySet()) {
            if (listed.contains(e.getValue().verdict().verification())) {
                if (++n > MAX_LISTED_CLAIMS) {
                    return "";
                }
                sb.append(n == 1 ? "" : ",").append(Long.toUnsignedString(e.getKey()));
            }
        }
        if (n == 0) {
            return leftOut ? "1" : "0";
        }
        return "claim " + (leftOut ? "NOT IN" : "IN") + " (" + sb + ")";
    }

    /** Every claim's verdict at {@code view}, read once; null when the store holds more claims than are kept. */
    private Table table(ClickHouseSnapshots.View view) {
        if (tooMany || view.total() == 0) {
            return view.total() == 0 ? new Table(view, Map.of()) : null;
        }
        synchronized (tables) {
            Table table = tables.get(view.total());
            if (table != null) {
                return table;
            }
            Table base = null;
            for (Table t : tables.values()) {
                if (view.contains(t.view) && (base == null || t.view.total() > base.view.total())) {
                    base = t;
                }
            }
            Map<Long, Entry> claims;
            if (base != null) {
                claims = new HashMap<>(base.claims);
                read(claims, "SELECT claim, version, verification, reason FROM " + db + ".verdict_log_local WHERE " + view.visible()
                        + " AND NOT (" + base.view.visible() + ")");
            } else {
                claims = new HashMap<>();
                read(claims, "SELECT claim, argMax(version, version), argMax(verification, version), argMax(reason, version) FROM " + db
                        + ".verdict_log_local WHERE " + view.visible() + " GROUP BY claim");
            }
            if (claims.size() > MAX_KEPT_CLAIMS) {
                tooMany = true;
                tables.clear();
                return null;
            }
            table = new Table(view, claims);
            tables.put(view.total(), table);
            return table;
        }
    }

    /** Adds the verdicts a query answers (claim, version, verification, reason), keeping each claim's latest. */
    private void read(Map<Long, Entry> claims, String sql) {
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(cluster.meta(), sql));
        Map<String, String> reasons = new HashMap<>();
        while (rows.nextRow()) {
            long claim = rows.unsigned();
            long version = rows.unsigned();
            Verification verification = Verification.valueOf(rows.text());
            String reason = rows.text();
            reason = reasons.computeIfAbsent(reason, r -> r); // many claims share a reason
            Entry before = claims.get(claim);
            if (before == null || Long.compareUnsigned(version, before.version()) > 0) {
                claims.put(claim, new Entry(version, new Verdict(verification, reason)));
            }
        }
    }
}
