package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.StoredVerdict;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Verdicts on ClickHouse: every verdict recorded is a row of {@code verdict_log_local} with a
 * version, and a claim's verdict at a snapshot is the one of highest version among its rows that
 * snapshot holds ({@code argMax}). Every shard holds every verdict, so a shard filters its own hits
 * by verdict with a local subquery. Versions order verdicts across processes without a counter
 * they share: a change (a DNS check completed, a re-check) beats a first verdict (the one a hit
 * was identified with), the latest change wins, and among first verdicts the earliest wins, as
 * the embedded store records a claim's first verdict only when it has none.
 */
final class ClickHouseVerdicts {

    /** What a claim with no verdict recorded shows, as the embedded store shows it. */
    static final Verdict NOT_CHECKED = new Verdict(Verification.unverified, "not checked yet");
    private static final long CHANGE = 2L << 60;
    private static final long FIRST = 1L << 60;
    private static final long MILLIS_LIMIT = 1L << 44;

    private final ClickHouseHttp http;
    private final ClickHouseCluster cluster;
    private final String db;

    ClickHouseVerdicts(ClickHouseHttp http, ClickHouseCluster cluster, String db) {
        this.http = http;
        this.cluster = cluster;
        this.db = db;
    }

    /** A version for a verdict recorded now: a change ({@code change}) or a claim's first verdict. */
    static long version(boolean change) {
        long millis = Math.min(Math.max(System.currentTimeMillis(), 0), MILLIS_LIMIT - 1);
        long tie = ThreadLocalRandom.current().nextInt(1 << 12);
        return change ? CHANGE | (millis << 12) | tie : FIRST | ((MILLIS_LIMIT - 1 - millis) << 12) | tie;
    }

    /** The latest verdict of each claim whose latest is {@code verification}, by address and crawler. */
    List<StoredVerdict> of(Verification verification) {
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

    /** The verdict of each of {@code claims} at the snapshot whose rows {@code visible} keeps, by claim. */
    Map<Long, Verdict> at(long[] claims, String visible) {
        Map<Long, Verdict> verdicts = new HashMap<>();
        if (claims.length == 0) {
            return verdicts;
        }
        StringBuilder list = new StringBuilder(claims.length * 21);
        for (long claim : claims) {
            if (!list.isEmpty()) {
                list.append(',');
            }
            list.append(Long.toUnsignedString(claim));
        }
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT claim, argMax(verification, version),"
                + " argMax(reason, version) FROM " + db + ".verdict_log_local WHERE claim IN (" + list + ") AND " + visible
                + " GROUP BY claim"));
        while (rows.nextRow()) {
            long claim = rows.unsigned();
            verdicts.put(claim, new Verdict(Verification.valueOf(rows.text()), rows.text()));
        }
        return verdicts;
    }

    /**
     * The condition on a hit's {@code claim} that keeps those whose verdict at the snapshot
     * ({@code visible}) is one of {@code wanted}, or null when every verdict is wanted. A claim
     * without a verdict counts as unverified: when unverified is wanted, the claims whose verdict is
     * not wanted are left out; else those whose verdict is wanted are kept.
     */
    String filter(Set<Verification> wanted, String visible) {
        if (wanted.containsAll(EnumSet.allOf(Verification.class))) {
            return null;
        }
        return filter(wanted, visible, "verdict_log_local");
    }

    /** {@link #filter(Set, String)} over the table {@code table} (the shard's own verdicts). */
    String filter(Set<Verification> wanted, String visible, String table) {
        boolean unverified = wanted.contains(Verification.unverified);
        List<String> names = new ArrayList<>();
        for (Verification v : unverified ? EnumSet.complementOf(EnumSet.copyOf(wanted)) : wanted) {
            names.add(v.name());
        }
        if (names.isEmpty()) {
            return unverified ? "1" : "0";
        }
        return "claim " + (unverified ? "NOT IN" : "IN") + " (SELECT claim FROM (SELECT claim, argMax(verification, version) AS v FROM "
                + db + "." + table + " WHERE " + visible + " GROUP BY claim) WHERE v IN (" + ClickHouseSql.quoted(names) + "))";
    }
}
