package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.sitemap.SitemapUrl;
import dev.crawlerrors.store.SitemapStore;
import dev.crawlerrors.store.SitemapUrlsSeen;
import dev.crawlerrors.store.SitemapWrite;
import dev.crawlerrors.store.StoredSitemap;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The sitemaps' URLs on ClickHouse, held whole by every shard (as the verdicts are), so a shard
 * filters its own hits by {@code in_sitemap} with a local subquery. 18.16 has no transactions: each
 * read of a sitemap is a version, its URLs written to every shard first ({@code sitemap_urls_local})
 * and its row in {@code sitemap_reads_local} last, and the filter matches each sitemap's newest
 * version with a row there. A read that fails half-way leaves no row, so the last good copy stays
 * in use; older versions are deleted (a mutation, in the background) once the new one is in.
 */
final class ClickHouseSitemaps implements SitemapStore {

    /** Rows sent in one insert. */
    private static final int BATCH_ROWS = 100_000;

    private final ClickHouseHttp http;
    private final ClickHouseCluster cluster;
    private final String db;

    ClickHouseSitemaps(ClickHouseHttp http, ClickHouseCluster cluster, String db) {
        this.http = http;
        this.cluster = cluster;
        this.db = db;
        for (ClickHouseCluster.Shard shard : cluster.shards()) {
            http.execute(shard.http(), "CREATE TABLE IF NOT EXISTS " + db + ".sitemap_urls_local (sitemap String, version UInt64,"
                    + " host String, target String) ENGINE = MergeTree ORDER BY (sitemap, version)");
            http.execute(shard.http(), "CREATE TABLE IF NOT EXISTS " + db + ".sitemap_reads_local (sitemap String, version UInt64,"
                    + " read_at_ms Int64, urls UInt64) ENGINE = MergeTree ORDER BY (sitemap, version)");
        }
    }

    /** Each sitemap's newest complete read, as a condition on a table of {@code (sitemap, version, ...)}. */
    private static String current(String db) {
        return "(sitemap, version) IN (SELECT sitemap, max(version) FROM " + db + ".sitemap_reads_local GROUP BY sitemap)";
    }

    /**
     * The condition that a hit's URL is listed ({@code listed}) or not, on the shard's own copy: by
     * number, {@code cityHash64} of host (in small letters) and target, or of target alone where the
     * log has no host, against the same numbers of the sitemaps' URLs: a set of numbers, not one of a
     * million host and target texts put end to end.
     */
    static String condition(String db, boolean listed) {
        String urls = " FROM " + db + ".sitemap_urls_local WHERE " + current(db);
        String condition = "(cityHash64(lower(ifNull(host, '')), url) IN (SELECT cityHash64(host, target)" + urls + ")"
                + " OR (ifNull(host, '') = '' AND cityHash64(url) IN (SELECT cityHash64(target)" + urls + ")))";
        return listed ? condition : "NOT " + condition;
    }

    @Override
    public SitemapWrite replacing(String sitemap) {
        return new Write(sitemap, System.currentTimeMillis() * 1000 + ThreadLocalRandom.current().nextInt(1000));
    }

    /** One read being written: its URLs sent to every shard a batch at a time under a new version, its row in the reads last. */
    private final class Write implements SitemapWrite {
        private final String sitemap;
        private final long version;
        private final SitemapUrlsSeen seen = new SitemapUrlsSeen();
        private ClickHouseTsv.Writer rows = new ClickHouseTsv.Writer(1 << 20);
        private int batched;
        private boolean committed;

        Write(String sitemap, long version) {
            this.sitemap = sitemap;
            this.version = version;
        }

        @Override
        public boolean add(SitemapUrl url) {
            if (!seen.add(url)) {
                return false;
            }
            rows.field(sitemap).tab().unsigned(version).tab().field(url.host()).tab().field(url.target()).endRow();
            if (++batched == BATCH_ROWS) {
                flush();
            }
            return true;
        }

        private void flush() {
            if (batched > 0) {
                onEveryShard(db + ".sitemap_urls_local (sitemap, version, host, target)", rows);
                rows = new ClickHouseTsv.Writer(1 << 20);
                batched = 0;
            }
        }

        @Override
        public void commit(Instant readAt) {
            flush();
            ClickHouseTsv.Writer read = new ClickHouseTsv.Writer(256);
            read.field(sitemap).tab().unsigned(version).tab().field(readAt.toEpochMilli()).tab().unsigned(seen.size()).endRow();
            onEveryShard(db + ".sitemap_reads_local (sitemap, version, read_at_ms, urls)", read);
            committed = true;
            deleteVersions("version < " + Long.toUnsignedString(version));
        }

        @Override
        public void close() {
            if (!committed && seen.size() > batched) {
                deleteVersions("version = " + Long.toUnsignedString(version)); // the batches sent of a read refused half-way
            }
        }

        private void deleteVersions(String which) {
            for (ClickHouseCluster.Shard shard : cluster.shards()) {
                String older = " DELETE WHERE sitemap = " + ClickHouseSql.quote(sitemap) + " AND " + which;
                http.execute(shard.http(), "ALTER TABLE " + db + ".sitemap_urls_local" + older);
                if (committed) {
                    http.execute(shard.http(), "ALTER TABLE " + db + ".sitemap_reads_local" + older);
                }
            }
        }
    }

    private void onEveryShard(String table, ClickHouseTsv.Writer rows) {
        List<CompletableFuture<Void>> inserts = new ArrayList<>();
        for (ClickHouseCluster.Shard shard : cluster.shards()) {
            inserts.add(http.insert(shard.http(), table, rows));
        }
        inserts.forEach(ClickHouseHttp::await);
    }

    @Override
    public List<StoredSitemap> sitemaps() {
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT sitemap, argMax(read_at_ms, version),"
                + " argMax(urls, version) FROM " + db + ".sitemap_reads_local GROUP BY sitemap ORDER BY sitemap"));
        List<StoredSitemap> held = new ArrayList<>();
        while (rows.nextRow()) {
            held.add(new StoredSitemap(rows.text(), Instant.ofEpochMilli(rows.number()), rows.number()));
        }
        return held;
    }

    @Override
    public void forEachUrl(String sitemap, Consumer<SitemapUrl> urls) {
        http.queryRows(cluster.meta(), "SELECT host, target FROM " + db + ".sitemap_urls_local WHERE sitemap = " + ClickHouseSql.quote(sitemap)
                + " AND " + current(db), rows -> {
                    while (rows.nextRow()) {
                        urls.accept(new SitemapUrl(rows.text(), rows.text()));
                    }
                });
    }

    @Override
    public Set<SitemapUrl> listed(Collection<SitemapUrl> urls) {
        Set<String> targets = new LinkedHashSet<>();
        urls.forEach(url -> targets.add(url.target()));
        if (targets.isEmpty()) {
            return Set.of();
        }
        Set<String> hostTargets = new HashSet<>();
        Set<String> anyHost = new HashSet<>();
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(cluster.meta(), "SELECT DISTINCT host, target FROM " + db
                + ".sitemap_urls_local WHERE target IN (" + ClickHouseSql.quoted(targets) + ") AND " + current(db)));
        while (rows.nextRow()) {
            String host = rows.text();
            String target = rows.text();
            hostTargets.add(host + ' ' + target);
            anyHost.add(target);
        }
        return SitemapStore.matched(urls, hostTargets, anyHost);
    }
}
