package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.store.DamagedStoreException;
import dev.crawlerrors.store.StoreContents;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.text.Failures;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code crawl-errors check} of a store on ClickHouse, read-only: the server {@code --db} names
 * answers, the store's schema version is one this crawl-errors knows, every shard of its cluster
 * answers over its own HTTP port and holds the store's tables, and every value of every table reads
 * (each table's rows hashed whole, so the server reads and checks each column's blocks). The hits
 * counted are those the report counts: rows of batches never committed are not. Nothing is
 * created or changed: a store that is missing is said to be missing, not made.
 */
public final class ClickHouseStoreCheck {

    /** What the check found: the store's contents over all its shards, and how many shards hold its hits. */
    public record Checked(StoreContents contents, int shards) {
    }

    /**
     * ClickHouse's codes for data that fails to read back: a checksum that does not match (40),
     * corrupted or incorrect data (246, 117), a part cut short (33, 32), a block that does not
     * decompress (271), a file the server cannot open (1000, Poco's).
     */
    private static final Set<Integer> DAMAGE = Set.of(40, 246, 117, 33, 32, 271, 1000);
    private static final List<String> SHARD_TABLES = List.of("hits_local", "verdict_log_local", "verdicts_local", "minute_counts_local");
    private static final List<String> META_TABLES = List.of("commits", "log_claims", "snapshots", "schema_version");

    /** The schema this crawl-errors writes: an older store is brought to it by the next import or serve. */
    public static final int SCHEMA_VERSION = ClickHouseSchema.VERSION;

    private ClickHouseStoreCheck() {
    }

    /**
     * Checks the store at {@code location}; empty when its server holds no such store (no database,
     * or one without the store's tables).
     *
     * @throws DamagedStoreException when a shard lacks a table of the store or a table fails to read back
     * @throws StoreException        when it cannot be checked: a server does not answer, refuses the user, or a newer
     *                               crawl-errors made the store
     */
    public static Optional<Checked> check(ClickHouseLocation location, ClickHouseSettings settings) {
        try {
            return checked(location, settings);
        } catch (ClickHouseException e) {
            throw new StoreException("the ClickHouse store " + location.shown() + " could not be checked: " + e.getMessage(), e);
        }
    }

    private static Optional<Checked> checked(ClickHouseLocation location, ClickHouseSettings settings) {
        ClickHouseHttp http = new ClickHouseHttp(location.user(), location.password(), settings);
        String db = location.database();
        ClickHouseCluster cluster = ClickHouseCluster.discover(http, location);
        URI meta = cluster.meta();
        Set<String> metaTables = tables(http, meta, db);
        if (!metaTables.contains("schema_version")) {
            return Optional.empty();
        }
        long version = single(http, meta, "SELECT max(version) FROM " + db + ".schema_version", location, "schema_version");
        if (version > ClickHouseSchema.VERSION) {
            throw new StoreException("the ClickHouse database " + db + " was made by a newer crawl-errors (schema " + version
                    + "; this one knows " + ClickHouseSchema.VERSION + "): check it with that version", null);
        }
        // the hits the report counts: those of committed batches, at the newest snapshot (no row left by a killed import)
        String committed = metaTables.contains("commits") ? new ClickHouseSnapshots(http, meta, db, () -> 0, 0).newestUnrecorded().visible()
                : "0"; // a store without its commits is damaged: said so below
        long hits = 0;
        long bytes = 0;
        long verdicts = 0;
        for (ClickHouseCluster.Shard shard : cluster.shards()) {
            Set<String> present;
            try {
                present = tables(http, shard.http(), db);
            } catch (StoreException e) {
                throw new StoreException("shard " + shard.number() + " of the ClickHouse store " + location.shown() + " at " + shard.http()
                        + " cannot be checked: " + Failures.firstLine(e) + "; start it, then check again", e);
            }
            List<String> expected = new ArrayList<>(SHARD_TABLES);
            if (shard.http().equals(meta)) {
                expected.addAll(META_TABLES);
            }
            // schema 2 had no counts by minute, schema 3 no claims: the next import or serve makes them
            if (version < 3) {
                expected.remove("minute_counts_local");
            }
            if (version < 4) {
                expected.remove("log_claims");
            }
            for (String table : expected) {
                if (!present.contains(table)) {
                    throw new DamagedStoreException(location.shown(), "shard " + shard.number() + " (" + shard.http() + ") has no table "
                            + db + "." + table, null);
                }
                single(http, shard.http(), "SELECT count(), sum(cityHash64(*)) FROM " + db + "." + table, location, table);
                if (table.equals("hits_local")) {
                    hits += single(http, shard.http(), "SELECT count() FROM " + db + ".hits_local WHERE " + committed, location, table);
                }
                if (table.equals("verdicts_local") && shard.http().equals(meta)) {
                    verdicts = single(http, meta, "SELECT uniqExact(ip, crawler) FROM " + db + ".verdicts_local", location, table);
                }
            }
            bytes += single(http, shard.http(), "SELECT sum(bytes_on_disk) FROM system.parts WHERE active AND database = "
                    + ClickHouseSql.quote(db), location, "system.parts");
        }
        long logs = single(http, meta, "SELECT uniqExact(fingerprint) FROM " + db + ".commits WHERE fingerprint != ''", location, "commits");
        return Optional.of(new Checked(new StoreContents(hits, verdicts, logs, (int) version, bytes), cluster.shards().size()));
    }

    private static Set<String> tables(ClickHouseHttp http, URI server, String db) {
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(server, "SELECT name FROM system.tables WHERE database = "
                + ClickHouseSql.quote(db)));
        Set<String> names = new java.util.HashSet<>();
        while (rows.nextRow()) {
            names.add(rows.text());
        }
        return names;
    }

    /** The first number {@code sql} answers; a table that fails to read back is damage. */
    private static long single(ClickHouseHttp http, URI server, String sql, ClickHouseLocation location, String table) {
        try {
            ClickHouseTsv.Reader row = new ClickHouseTsv.Reader(http.query(server, sql));
            return row.nextRow() ? row.number() : 0;
        } catch (ClickHouseException e) {
            if (DAMAGE.contains(e.code())) {
                throw new DamagedStoreException(location.shown(), "the table " + table + " at " + server + " does not read back ("
                        + e.getMessage() + ")", e);
            }
            throw e;
        }
    }
}
