package dev.crawlerrors.store.clickhouse;

import java.util.Map;

/**
 * The rows of batches that were written and never committed: an import killed between its rows and
 * their commit leaves them in {@code hits_local}, {@code minute_counts_local} and
 * {@code verdict_log_local}. No snapshot counts them ({@link ClickHouseSnapshots}), but they took
 * room, and a count of the tables' rows took them for hits (1,003,311 where 900,000 were stored).
 * A writer that starts removes those of the writers past their lease that never closed, each beyond
 * the last batch it committed, on every shard: a writer past its lease can commit nothing more, so
 * nothing that could ever count goes.
 */
final class ClickHouseLeftovers {

    private static final String[] TABLES = {"hits_local", "minute_counts_local", "verdict_log_local"};

    private ClickHouseLeftovers() {
    }

    /** The condition on a row's {@code writer} and {@code seq} that holds for the rows no commit of {@code crashed} covers. */
    static String condition(Map<Long, Long> crashed) {
        StringBuilder list = new StringBuilder();
        StringBuilder writers = new StringBuilder();
        StringBuilder seqs = new StringBuilder();
        for (Map.Entry<Long, Long> writer : crashed.entrySet()) {
            String id = ClickHouseSql.unsigned(writer.getKey());
            if (list.isEmpty()) {
                list.append(id);
                writers.append("toUInt64(").append(id).append(')'); // the arrays' type, from their first element
                seqs.append("toUInt64(").append(writer.getValue()).append(')');
            } else {
                list.append(", ").append(id);
                writers.append(", ").append(id);
                seqs.append(", ").append(writer.getValue());
            }
        }
        return "writer IN (" + list + ") AND seq > transform(writer, [" + writers + "], [" + seqs + "], toUInt64(0))";
    }

    /**
     * Removes the rows no commit covers of the writers in {@code crashed} (past their lease, never
     * closed, with the last batch each committed) from every shard that holds any; returns how many
     * rows of hits were found so. ClickHouse removes them in the background.
     */
    static long remove(ClickHouseHttp http, ClickHouseCluster cluster, String db, Map<Long, Long> crashed) {
        if (crashed.isEmpty()) {
            return 0;
        }
        String where = condition(crashed);
        long hits = 0;
        for (ClickHouseCluster.Shard shard : cluster.shards()) {
            ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(shard.http(), "SELECT count() FROM " + db + ".hits_local WHERE "
                    + where));
            long found = rows.nextRow() ? rows.number() : 0;
            ClickHouseTsv.Reader verdicts = new ClickHouseTsv.Reader(http.query(shard.http(), "SELECT count() FROM " + db
                    + ".verdict_log_local WHERE " + where));
            if (found == 0 && (!verdicts.nextRow() || verdicts.number() == 0)) {
                continue;
            }
            hits += found;
            for (String table : TABLES) {
                http.execute(shard.http(), "ALTER TABLE " + db + "." + table + " DELETE WHERE " + where);
            }
        }
        return hits;
    }
}
