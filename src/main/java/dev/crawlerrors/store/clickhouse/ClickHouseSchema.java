package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.store.StoreException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The store's tables, created on first use on every shard (18.16 has no {@code ON CLUSTER}
 * without ZooKeeper) and versioned in {@code schema_version} on the first shard. What each holds:
 * <ul>
 * <li>{@code hits_local}, on each shard: the hits of the addresses that shard holds, partitioned
 *     by month and ordered by the report's sort key (time, then writer and number), each with the
 *     writer and batch ({@code writer}, {@code seq}) that wrote it: a row counts only once its
 *     batch is committed ({@link ClickHouseSnapshots}). {@code hits} reads every shard's (a
 *     Distributed table, sharded by {@link ClickHouseCluster#SHARDING_KEY});</li>
 * <li>{@code verdict_log_local}, on each shard, the same on all: every verdict recorded, with its
 *     version (the latest wins) and batch; small, so every shard holds them all and filters its
 *     own hits by verdict without asking another. {@code verdicts_local}, fed from it by a
 *     materialized view, a ReplacingMergeTree keeping each claim's latest version, answers
 *     "which addresses are unverified" (read with {@code argMax}, as merges run when they will);</li>
 * <li>{@code url_log_local}, on each shard: each of its hits again under its URL's number, ordered
 *     by it, so that a URL's history is a short read; {@code url_log} reads every shard's. Its
 *     {@code crawler} is what the hit's claim is recorded under: the crawler's name, or for a signed
 *     hit the name and its group ({@code CrawlerHit#signedClaim}), so that its {@code claim} is the
 *     verdicts' (as {@link #CLAIM} is the hits'); a reader takes the name before the group;</li>
 * <li>{@code url_times_local}, on each shard: the same hits again in time order, narrow (no URL's
 *     name but its host and {@link dev.crawlerrors.store.UrlHeads head}), fed from {@code url_log_local} by the
 *     materialized view {@code url_times_of_log}, so that a view of a time range and a prefix reads
 *     the range's rows only; {@code url_times} reads every shard's;</li>
 * <li>on the first shard only: {@code url_states} and {@code url_folds}, the URLs' states kept
 *     ({@link ClickHouseUrlStates}), {@code commits} (each batch committed by a writer, with how far its
 *     logs were read), {@code log_claims} (the positions writers claimed to move logs on from),
 *     {@code snapshots} (which batches each snapshot holds) and {@code schema_version}.</li>
 * </ul>
 * Only SQL that both 18.16 and current releases take: no TTL, codecs, skip indexes or
 * DateTime64 (epoch milliseconds in an Int64 instead).
 */
final class ClickHouseSchema {

    /**
     * The schema this version writes; a store of a newer one is refused, an older one brought up to
     * date. 2: each log's progress in {@code commits} carries its key's prefix, its check and, when
     * the file was read to its end, the file's stamp ({@link #MIGRATIONS}). 3: the hits' counts by
     * minute ({@link #MINUTE_COUNTS}), made from the hits stored so far on the upgrade, which wants
     * no writer running meanwhile and one process first (a batch written while the view is made, or
     * two processes upgrading at once, may count twice or not at all). 4: logs' positions recorded by
     * compare-and-set ({@link ClickHouseLogClaims}): {@code log_claims}, and in {@code commits} when
     * each log's claim was made, a commit after its life refused by the server. 5: each hit keeps where a
     * redirect sent it, when the log records it ({@code location}, added on every shard: NULL in the
     * hits before). 6: a signed hit's claim names what its signature proved ({@code hits_local.signature},
     * in {@link #CLAIM}), and the tables of signature verification ({@link ClickHouseSignatures}); the
     * counts' view is made again with the new claim, which wants no writer running meanwhile as 3's
     * upgrade does. 7: a waiting signature may be a signed request as logged, checked whole by
     * whoever settles it ({@code signature_pending.request}). 8: the URLs' hits in time order
     * ({@code url_times_local}), filled on the upgrade from {@code url_log_local} with every batch
     * the view did not bring already. 9: each kept URL state carries what the next hit depends on
     * ({@code url_states.carry}, {@link ClickHouseUrlFold}); a row without it is made again from its history.
     */
    static final int VERSION = 9;

    /** The version that added the URLs' hits in time order ({@link #fillTimes}). */
    private static final int TIMES = 8;

    /** What {@code url_times_local} holds of each row of {@code url_log_local}. */
    private static final String TIMES_OF_LOG = "SELECT ts_ms, k, writer, seq, n, status, cityHash64(ip, crawler) AS claim, crawler, bot_type,"
            + " host, if(extract(url, '" + dev.crawlerrors.store.MinuteCell.URL_HEAD + "') != '', extract(url, '"
            + dev.crawlerrors.store.MinuteCell.URL_HEAD + "'), if(startsWith(url, '/'), '/', '')) AS head FROM %1$s.url_log_local";

    /** The version that added the signatures' column and tables ({@link #addSignatures}). */
    private static final int SIGNATURES = 6;

    /**
     * A hit's claim: its address and crawler, and for a signed hit the group its signature's verdict
     * stands for ({@code CrawlerHit#signedClaim}), hashed as the verdicts' claim is
     * ({@code cityHash64(ip, crawler)} of a verdict recorded under the crawler's name and its group
     * joined by U+001F). An unsigned hit's claim is the same as before version 6.
     */
    static final String CLAIM = "cityHash64(ip, if(signature = '', crawler, concat(crawler, '\\x1F', signature)))";

    /**
     * The columns version 2 added to {@code commits}, as {@code ALTER TABLE ... ADD COLUMN} takes
     * them (18.16 has no {@code IF NOT EXISTS} there: a column is added when {@code system.columns}
     * lacks it). A row of version 1 reads its prefix from its key, as {@code SourceProgress.prefixOf}
     * does, no check (null) and no file ('').
     */
    private static final Map<String, String> MIGRATIONS = new LinkedHashMap<>();

    static {
        MIGRATIONS.put("prefix", "prefix String DEFAULT splitByChar('-', fingerprint)[1]");
        MIGRATIONS.put("check_hash", "check_hash Nullable(String)");
        MIGRATIONS.put("file_key", "file_key String DEFAULT ''");
        MIGRATIONS.put("file_size", "file_size UInt64 DEFAULT 0");
        MIGRATIONS.put("file_modified_nanos", "file_modified_nanos Int64 DEFAULT 0");
        MIGRATIONS.put("claimed", "claimed UInt32 DEFAULT 0");
        // 0 for the rows of older parts, which a merge evaluates it for: only a claim's own commit is checked
        MIGRATIONS.put("claim_lease", "claim_lease UInt8 MATERIALIZED throwIf(claimed > 0 AND toUInt32(now()) > claimed + "
                + ClickHouseLogClaims.CLAIM_SECONDS + ")");
    }

    /**
     * The hits of each minute, batch, status, bot type, crawler and claim, as the materialized view
     * {@code minute_counts_of_hits} adds them up from each block inserted into {@code hits_local}
     * (and an upgrade from the hits there): what the report's counts read instead of the hits
     * ({@link ClickHouseHitReader}). The batch keeps a snapshot's rows apart, the claim its verdicts.
     */
    private static final String MINUTE_COUNTS = "SELECT intDiv(ts_ms, 60000) AS minute, writer, seq, status, bot_type, crawler,"
            + " " + CLAIM + " AS claim, count() AS hits FROM %1$s.hits_local"
            + " GROUP BY minute, writer, seq, status, bot_type, crawler, claim";

    private ClickHouseSchema() {
    }

    /** Tables every shard holds, by name, in the order they are created. */
    private static Map<String, String> shardTables(String db, ClickHouseCluster cluster) {
        Map<String, String> tables = new LinkedHashMap<>();
        tables.put("hits_local", """
                CREATE TABLE IF NOT EXISTS %1$s.hits_local (
                  ts_ms Int64,
                  writer UInt64,
                  seq UInt64,
                  n UInt64,
                  utc_offset_minutes Int16,
                  ip String,
                  method String,
                  url String,
                  status UInt16,
                  bytes Nullable(Int64),
                  duration_ms Nullable(Float64),
                  crawler String,
                  bot_type String,
                  user_agent Nullable(String),
                  referer Nullable(String),
                  host Nullable(String),
                  location Nullable(String),
                  signature String DEFAULT '',
                  claim UInt64 MATERIALIZED %2$s
                ) ENGINE = MergeTree
                PARTITION BY toYYYYMM(toDateTime(intDiv(ts_ms, 1000)), 'UTC')
                ORDER BY (ts_ms, writer, n)""".formatted(db, CLAIM));
        tables.put("verdict_log_local", """
                CREATE TABLE IF NOT EXISTS %1$s.verdict_log_local (
                  ip String,
                  crawler String,
                  verification String,
                  reason String,
                  version UInt64,
                  writer UInt64,
                  seq UInt64,
                  recorded DateTime DEFAULT now(),
                  claim UInt64 MATERIALIZED cityHash64(ip, crawler)
                ) ENGINE = MergeTree
                ORDER BY (claim, version)""".formatted(db));
        tables.put("verdicts_local", """
                CREATE TABLE IF NOT EXISTS %1$s.verdicts_local (
                  ip String,
                  crawler String,
                  verification String,
                  reason String,
                  version UInt64
                ) ENGINE = ReplacingMergeTree(version)
                ORDER BY (ip, crawler)""".formatted(db));
        tables.put("verdicts_latest", """
                CREATE MATERIALIZED VIEW IF NOT EXISTS %1$s.verdicts_latest TO %1$s.verdicts_local
                AS SELECT ip, crawler, verification, reason, version FROM %1$s.verdict_log_local""".formatted(db));
        tables.put("minute_counts_local", """
                CREATE TABLE IF NOT EXISTS %1$s.minute_counts_local (
                  minute Int64,
                  writer UInt64,
                  seq UInt64,
                  status UInt16,
                  bot_type String,
                  crawler String,
                  claim UInt64,
                  hits UInt64
                ) ENGINE = SummingMergeTree(hits)
                PARTITION BY toYYYYMM(toDateTime(minute * 60), 'UTC')
                ORDER BY (minute, writer, seq, status, bot_type, crawler, claim)""".formatted(db));
        tables.put("minute_counts_of_hits", """
                CREATE MATERIALIZED VIEW IF NOT EXISTS %1$s.minute_counts_of_hits TO %1$s.minute_counts_local
                AS %2$s""".formatted(db, MINUTE_COUNTS.formatted(db)));
        tables.put("url_log_local", """
                CREATE TABLE IF NOT EXISTS %1$s.url_log_local (
                  k Int64,
                  host String,
                  url String,
                  ts_ms Int64,
                  writer UInt64,
                  seq UInt64,
                  n UInt64,
                  status UInt16,
                  ip String,
                  crawler String,
                  bot_type String,
                  claim UInt64 MATERIALIZED cityHash64(ip, crawler)
                ) ENGINE = MergeTree
                ORDER BY (k, ts_ms, writer, n)""".formatted(db));
        tables.put("url_times_local", """
                CREATE TABLE IF NOT EXISTS %1$s.url_times_local (
                  ts_ms Int64,
                  k Int64,
                  writer UInt64,
                  seq UInt64,
                  n UInt64,
                  status UInt16,
                  claim UInt64,
                  crawler String,
                  bot_type String,
                  host String,
                  head String
                ) ENGINE = MergeTree
                ORDER BY (ts_ms, writer, n)""".formatted(db));
        tables.put("url_times_of_log", "CREATE MATERIALIZED VIEW IF NOT EXISTS %1$s.url_times_of_log TO %1$s.url_times_local AS "
                .formatted(db) + TIMES_OF_LOG.formatted(db));
        if (cluster.distributed()) {
            tables.put("hits", "CREATE TABLE IF NOT EXISTS %1$s.hits AS %1$s.hits_local ENGINE = Distributed(%2$s, %1$s, hits_local, %3$s)"
                    .formatted(db, cluster.name(), ClickHouseCluster.SHARDING_KEY));
            tables.put("url_log", "CREATE TABLE IF NOT EXISTS %1$s.url_log AS %1$s.url_log_local ENGINE = Distributed(%2$s, %1$s, url_log_local)"
                    .formatted(db, cluster.name()));
            tables.put("minute_counts", ("CREATE TABLE IF NOT EXISTS %1$s.minute_counts AS %1$s.minute_counts_local"
                    + " ENGINE = Distributed(%2$s, %1$s, minute_counts_local)").formatted(db, cluster.name()));
            tables.put("url_times", ("CREATE TABLE IF NOT EXISTS %1$s.url_times AS %1$s.url_times_local"
                    + " ENGINE = Distributed(%2$s, %1$s, url_times_local)").formatted(db, cluster.name()));
        }
        return tables;
    }

    /** Tables of the first shard alone. */
    private static Map<String, String> metaTables(String db) {
        Map<String, String> tables = new LinkedHashMap<>();
        tables.put("commits", """
                CREATE TABLE IF NOT EXISTS %1$s.commits (
                  writer UInt64,
                  seq UInt64,
                  closed UInt8,
                  fingerprint String,
                  name String,
                  bytes UInt64,
                  lines UInt64,
                  prefix String DEFAULT splitByChar('-', fingerprint)[1],
                  check_hash Nullable(String),
                  file_key String DEFAULT '',
                  file_size UInt64 DEFAULT 0,
                  file_modified_nanos Int64 DEFAULT 0,
                  claimed UInt32 DEFAULT 0,
                  claim_lease UInt8 MATERIALIZED throwIf(claimed > 0 AND toUInt32(now()) > claimed + %3$d),
                  committed DateTime DEFAULT now(),
                  lease UInt8 MATERIALIZED throwIf(now() > toDateTime(bitShiftRight(writer, 32)) + %2$d)
                ) ENGINE = ReplacingMergeTree(seq)
                ORDER BY (writer, fingerprint)""".formatted(db, ClickHouseSnapshots.LEASE_SECONDS, ClickHouseLogClaims.CLAIM_SECONDS));
        tables.put("log_claims", """
                CREATE TABLE IF NOT EXISTS %1$s.log_claims (
                  fingerprint String,
                  from_bytes UInt64,
                  claim UInt64,
                  withdrawn UInt8,
                  made DateTime DEFAULT now()
                ) ENGINE = MergeTree
                PARTITION BY toYYYYMMDD(made)
                ORDER BY (fingerprint, from_bytes, claim)""".formatted(db));
        tables.put("snapshots", """
                CREATE TABLE IF NOT EXISTS %1$s.snapshots (
                  total UInt64,
                  fence UInt64,
                  writer UInt64,
                  seq UInt64,
                  made DateTime DEFAULT now()
                ) ENGINE = MergeTree
                PARTITION BY toYYYYMMDD(made)
                ORDER BY (total, fence, writer)""".formatted(db));
        tables.put("url_states", """
                CREATE TABLE IF NOT EXISTS %1$s.url_states (
                  scope String,
                  k Int64,
                  host String,
                  url String,
                  ok Nullable(Int64), not_modified Nullable(Int64), redirects Nullable(Int64), client_errors Nullable(Int64),
                  server_errors Nullable(Int64), error_hits Nullable(Int64), first_crawled Nullable(Int64), last_crawled Nullable(Int64),
                  last_status Nullable(Int64), first_error Nullable(Int64), first_error_status Nullable(Int64), last_error Nullable(Int64),
                  last_error_status Nullable(Int64), fixed_since Nullable(Int64), flips Nullable(Int64), carry Nullable(Int64),
                  version UInt64
                ) ENGINE = MergeTree
                ORDER BY (scope, k, version)""".formatted(db));
        tables.put("url_folds", """
                CREATE TABLE IF NOT EXISTS %1$s.url_folds (
                  total UInt64,
                  fence UInt64,
                  writers Array(UInt64),
                  seqs Array(UInt64),
                  made DateTime DEFAULT now()
                ) ENGINE = MergeTree
                ORDER BY total""".formatted(db));
        tables.put("schema_version", """
                CREATE TABLE IF NOT EXISTS %1$s.schema_version (
                  version UInt32,
                  applied DateTime DEFAULT now()
                ) ENGINE = MergeTree
                ORDER BY version""".formatted(db));
        ClickHouseSignatures.tables(tables, db);
        return tables;
    }

    /**
     * Creates the database and whatever table is missing on every shard, and checks the version.
     * Safe to run from several processes at once: each statement creates only what is missing, and
     * a table another process created meanwhile is taken as created.
     */
    static void prepare(ClickHouseHttp http, ClickHouseCluster cluster, String db, String user, String password) {
        int version = version(http, cluster.meta(), db);
        if (version > VERSION) {
            throw new StoreException("the ClickHouse database " + db + " was made by a newer crawl-errors (schema " + version
                    + "; this one knows " + VERSION + "): use that version, or another database", null);
        }
        for (ClickHouseCluster.Shard shard : cluster.shards()) {
            Map<String, String> tables = shardTables(db, cluster);
            boolean meta = shard.http().equals(cluster.meta());
            if (meta) {
                tables.putAll(metaTables(db));
            }
            if (version > 0 && version < SIGNATURES) {
                addSignatures(http, shard.http(), db, cluster.distributed());
            }
            Set<String> made = create(http, shard.http(), db, tables);
            if (made.contains("verdict_log_local") && !meta && version > 0) {
                copyVerdicts(http, cluster, shard, db, user, password);
            }
            if (made.contains("minute_counts_of_hits") && version > 0 && version < 3) {
                // an upgrade: the hits stored before the view was made, counted once, by the process that made it
                http.execute(shard.http(), "INSERT INTO " + db + ".minute_counts_local " + MINUTE_COUNTS.formatted(db));
            }
            if (version > 0 && version < TIMES) {
                fillTimes(http, shard.http(), db);
            }
            if (version >= 3 && version < SIGNATURES && !made.contains("minute_counts_of_hits")) {
                // the view counts by claim, which version 6 computes anew: made again (what it counted stays)
                http.execute(shard.http(), "DROP TABLE IF EXISTS " + db + ".minute_counts_of_hits");
                run(http, shard.http(), tables.get("minute_counts_of_hits"));
            }
        }
        if (version > 0 && version < VERSION) {
            ClickHouseSignatures.addRequest(http, cluster.meta(), db);
            migrate(http, cluster.meta(), db);
            addCarry(http, cluster.meta(), db);
            for (ClickHouseCluster.Shard shard : cluster.shards()) {
                addLocations(http, shard.http(), db, cluster.distributed());
            }
        }
        if (version < VERSION) {
            http.execute(cluster.meta(), "INSERT INTO " + db + ".schema_version (version) VALUES (" + VERSION + ")");
        }
    }

    /**
     * Brings a store of an older version up to date: adds the columns {@code commits} lacks. Safe
     * from several processes at once: a column another one added meanwhile is taken as added.
     */
    private static void migrate(ClickHouseHttp http, URI meta, String db) {
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(meta, "SELECT name FROM system.columns WHERE database = "
                + ClickHouseSql.quote(db) + " AND table = 'commits'"));
        Set<String> columns = new HashSet<>();
        while (rows.nextRow()) {
            columns.add(rows.text());
        }
        String after = "lines";
        for (Map.Entry<String, String> column : MIGRATIONS.entrySet()) {
            if (!columns.contains(column.getKey())) {
                try {
                    http.execute(meta, "ALTER TABLE " + db + ".commits ADD COLUMN " + column.getValue() + " AFTER " + after);
                } catch (ClickHouseException e) {
                    if (e.code() != ClickHouseException.DUPLICATE_COLUMN) {
                        throw new StoreException("cannot bring the store's tables on ClickHouse at " + meta + " to schema " + VERSION
                                + ": " + e.getMessage(), e);
                    }
                }
            }
            after = column.getKey();
        }
    }

    /**
     * Version 4 to 5 on one shard: the hits (and the Distributed table over them) get the column of
     * a redirect's target. Safe from several processes at once, as {@link #migrate} is.
     */
    private static void addLocations(ClickHouseHttp http, URI shard, String db, boolean distributed) {
        for (String table : distributed ? List.of("hits_local", "hits") : List.of("hits_local")) {
            ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(shard, "SELECT count() FROM system.columns WHERE database = "
                    + ClickHouseSql.quote(db) + " AND table = " + ClickHouseSql.quote(table) + " AND name = 'location'"));
            if (rows.nextRow() && rows.number() > 0) {
                continue;
            }
            try {
                http.execute(shard, "ALTER TABLE " + db + "." + table + " ADD COLUMN location Nullable(String) AFTER host");
            } catch (ClickHouseException e) {
                if (e.code() != ClickHouseException.DUPLICATE_COLUMN) {
                    throw new StoreException("cannot bring the store's tables on ClickHouse at " + shard + " to schema " + VERSION
                            + ": " + e.getMessage(), e);
                }
            }
        }
    }

    /**
     * Version 9 on the first shard: the kept URL states get their carry (NULL in the rows before,
     * which the next fold makes again from their histories). Safe from several processes at once.
     */
    private static void addCarry(ClickHouseHttp http, URI meta, String db) {
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(meta, "SELECT count() FROM system.columns WHERE database = "
                + ClickHouseSql.quote(db) + " AND table = 'url_states' AND name = 'carry'"));
        if (rows.nextRow() && rows.number() > 0) {
            return;
        }
        try {
            http.execute(meta, "ALTER TABLE " + db + ".url_states ADD COLUMN carry Nullable(Int64) AFTER flips");
        } catch (ClickHouseException e) {
            if (e.code() != ClickHouseException.DUPLICATE_COLUMN) {
                throw new StoreException("cannot bring the store's tables on ClickHouse at " + meta + " to schema " + VERSION + ": "
                        + e.getMessage(), e);
            }
        }
    }

    /**
     * Version 6 on one shard: {@code hits_local} (and the Distributed {@code hits}) get the column a
     * signed hit's claim group is written to, and the claim is computed with it ({@link #CLAIM}, the
     * same value for every hit stored before). Safe to run twice, and from two processes at once.
     */
    private static void addSignatures(ClickHouseHttp http, URI shard, String db, boolean distributed) {
        for (String table : distributed ? List.of("hits_local", "hits") : List.of("hits_local")) {
            ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(shard, "SELECT name FROM system.columns WHERE database = "
                    + ClickHouseSql.quote(db) + " AND table = " + ClickHouseSql.quote(table)));
            Set<String> columns = new HashSet<>();
            while (rows.nextRow()) {
                columns.add(rows.text());
            }
            if (columns.isEmpty()) {
                continue; // made below, as this version makes it
            }
            try {
                if (!columns.contains("signature")) {
                    // after location where version 5 added it; a store older than 5 gets location before it next
                    String after = columns.contains("location") ? "location" : "host";
                    http.execute(shard, "ALTER TABLE " + db + "." + table + " ADD COLUMN signature String DEFAULT '' AFTER " + after);
                }
                http.execute(shard, "ALTER TABLE " + db + "." + table + " MODIFY COLUMN claim UInt64 MATERIALIZED " + CLAIM);
            } catch (ClickHouseException e) {
                if (e.code() != ClickHouseException.DUPLICATE_COLUMN) {
                    throw new StoreException("cannot bring the store's tables on ClickHouse at " + shard + " to schema " + VERSION
                            + ": " + e.getMessage(), e);
                }
            }
        }
    }

    /**
     * Version 8 on one shard: the URLs' hits stored before it, in time order, but those of the
     * batches the view brought already (written since it was made). Safe to run again after a
     * stop half-way; a batch written while the fill reads may come twice, so, as version 3's
     * upgrade, it wants no writer running meanwhile.
     */
    private static void fillTimes(ClickHouseHttp http, URI shard, String db) {
        http.execute(shard, "INSERT INTO " + db + ".url_times_local " + TIMES_OF_LOG.formatted(db)
                + " WHERE (writer, seq) NOT IN (SELECT DISTINCT writer, seq FROM " + db + ".url_times_local)");
    }

    /** The schema version of the store, 0 when it has none yet. */
    private static int version(ClickHouseHttp http, URI meta, String db) {
        try {
            ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(meta, "SELECT max(version) FROM " + db + ".schema_version"));
            return rows.nextRow() ? (int) rows.number() : 0;
        } catch (ClickHouseException e) {
            if (e.code() == ClickHouseException.UNKNOWN_TABLE || e.code() == ClickHouseException.UNKNOWN_DATABASE) {
                return 0;
            }
            throw e;
        }
    }

    /** Creates the tables {@code server} lacks, and returns their names. */
    private static Set<String> create(ClickHouseHttp http, URI server, String db, Map<String, String> tables) {
        Set<String> existing = existing(http, server, db);
        Set<String> made = new HashSet<>();
        if (existing.containsAll(tables.keySet())) {
            return made;
        }
        if (existing.isEmpty()) {
            run(http, server, "CREATE DATABASE IF NOT EXISTS " + db);
        }
        for (Map.Entry<String, String> table : tables.entrySet()) {
            if (!existing.contains(table.getKey())) {
                run(http, server, table.getValue());
                made.add(table.getKey());
            }
        }
        return made;
    }

    /**
     * Gives a shard added to a store's cluster the verdicts recorded before it came: every shard
     * holds every verdict. Copied from the first shard through {@code remote()}; a verdict another
     * process records meanwhile may come twice, which changes no latest verdict.
     */
    private static void copyVerdicts(ClickHouseHttp http, ClickHouseCluster cluster, ClickHouseCluster.Shard shard, String db,
            String user, String password) {
        String columns = "ip, crawler, verification, reason, version, writer, seq, recorded";
        http.execute(shard.http(), "INSERT INTO " + db + ".verdict_log_local (" + columns + ") SELECT " + columns + " FROM remote("
                + ClickHouseSql.quote(cluster.shards().get(0).tcp()) + ", " + db + ".verdict_log_local, " + ClickHouseSql.quote(user) + ", "
                + ClickHouseSql.quote(password) + ")");
    }

    /** Every statement that makes the store's tables on a cluster, first shard's last, for the schema a deployment reads. */
    static List<String> statements(String db, ClickHouseCluster cluster) {
        List<String> statements = new ArrayList<>();
        statements.add("CREATE DATABASE IF NOT EXISTS " + db);
        statements.addAll(shardTables(db, cluster).values());
        statements.addAll(metaTables(db).values());
        return statements;
    }

    private static Set<String> existing(ClickHouseHttp http, URI server, String db) {
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(server, "SELECT name FROM system.tables WHERE database = "
                + ClickHouseSql.quote(db)));
        Set<String> names = new HashSet<>();
        while (rows.nextRow()) {
            names.add(rows.text());
        }
        return names;
    }

    /** Runs a CREATE; one that lost a race with another process's is done all the same. */
    private static void run(ClickHouseHttp http, URI server, String ddl) {
        try {
            http.execute(server, ddl);
        } catch (ClickHouseException e) {
            if (e.code() != ClickHouseException.TABLE_ALREADY_EXISTS && e.code() != ClickHouseException.DATABASE_ALREADY_EXISTS) {
                throw new StoreException("cannot create the store's tables on ClickHouse at " + server + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Empties the database {@code db} on every shard for the demo, which starts from a fresh store:
     * only a database that holds nothing, or a demo's (marked by a table {@code demo}), is dropped.
     */
    static void startAfresh(ClickHouseHttp http, ClickHouseCluster cluster, String db, String user, String password) {
        Set<String> tables = existing(http, cluster.meta(), db);
        if (!tables.isEmpty() && !tables.contains("demo")) {
            throw new StoreException("the demo starts from a fresh store, and the ClickHouse database " + db
                    + " holds one that is not a demo's: name another database for the demo", null);
        }
        for (ClickHouseCluster.Shard shard : cluster.shards()) {
            http.execute(shard.http(), "DROP DATABASE IF EXISTS " + db);
        }
        prepare(http, cluster, db, user, password);
        http.execute(cluster.meta(), "CREATE TABLE IF NOT EXISTS " + db + ".demo (made DateTime DEFAULT now()) ENGINE = TinyLog");
    }
}
