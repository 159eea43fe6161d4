package dev.crawlerrors.store.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.Waits;
import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.FileStamp;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.StoredVerdict;
import dev.crawlerrors.store.UrlCount;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** The store's contract on a real two-shard ClickHouse cluster (and one plain server), as the embedded store keeps it. */
@ClickHouseTest
class ClickHouseHitStoreTest {

    static final Crawler GOOGLEBOT = new Crawler("Googlebot Desktop", "Google", BotType.crawler_search,
            List.of("Googlebot"), null, List.of("common-crawlers.json"), null);
    static final Crawler GPTBOT = new Crawler("GPTBot", "OpenAI", BotType.crawler_ai, List.of("GPTBot"), null, List.of("gptbot.json"), null);
    static final Verdict VERIFIED = new Verdict(Verification.verified, "in common-crawlers.json 66.249.66.0/27");
    static final Verdict PENDING = new Verdict(Verification.unverified, "claims Googlebot; reverse DNS check pending");
    static final Verdict SPOOFED = new Verdict(Verification.spoofed, "claims Googlebot; not in any list");

    private final ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();

    static CrawlerHit hit(String time, String ip, String url, int status, Verdict verdict) {
        return hit(Instant.parse(time).toEpochMilli(), ip, url, status, verdict);
    }

    static CrawlerHit hit(long epochMillis, String ip, String url, int status, Verdict verdict) {
        Hit hit = new Hit(epochMillis, 120, ip, "GET", url, status, -1, null, "Googlebot", Double.NaN, null);
        return new CrawlerHit(hit, GOOGLEBOT, verdict);
    }

    /** Where a log's reading starts before anything of it is recorded. */
    static SourceProgress start(String key, String name) {
        return new SourceProgress(key, name, 0, 0);
    }

    private ClickHouseHitStore open(String db) {
        return ClickHouseHitStore.open(cluster.location(db), ClickHouseSettings.SERVE);
    }

    @Test
    void showsTheLatestVerdictForEveryHitFromTheAddressAndAFirstVerdictNeverOverwritesAChange() {
        String db = ClickHouseTestCluster.database("verdicts");
        try (ClickHouseHitStore one = open(db); ClickHouseHitStore other = open(db)) {
            one.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, PENDING),
                    hit("2025-05-14T10:00:01Z", "66.249.66.1", "/b", 404, PENDING)));
            one.writer().flush();
            one.verdicts().update("66.249.66.1", GOOGLEBOT.name(), VERIFIED);
            one.writer().flush();
            // another process meets the address later, identified with the first verdict it could give
            other.writer().append(List.of(hit("2025-05-14T10:00:02Z", "66.249.66.1", "/c", 404, PENDING)));
            other.writer().flush();
            // and a change recorded before any hit of its claim is not overwritten by the hit's
            one.verdicts().update("66.249.66.9", GOOGLEBOT.name(), VERIFIED);
            one.writer().append(List.of(hit("2025-05-14T10:00:03Z", "66.249.66.9", "/d", 404, PENDING)));
            one.writer().flush();

            assertThat(other.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url, StoredHit::verification, StoredHit::reason)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("/d", "verified", VERIFIED.reason()),
                            org.assertj.core.groups.Tuple.tuple("/c", "verified", VERIFIED.reason()),
                            org.assertj.core.groups.Tuple.tuple("/b", "verified", VERIFIED.reason()),
                            org.assertj.core.groups.Tuple.tuple("/a", "verified", VERIFIED.reason()));
            assertThat(one.verdicts().of(Verification.verified)).extracting(StoredVerdict::ip).containsExactly("66.249.66.1", "66.249.66.9");
            assertThat(one.verdicts().of(Verification.unverified)).isEmpty();
        }
    }

    @Test
    void storesEveryFieldOfAHitIncludingNullsControlsAndTextBeyondAscii() {
        try (ClickHouseHitStore store = open(ClickHouseTestCluster.database("fields"))) {
            String url = "/caf\u00e9/\u20ac?q=\u65e5\u672c\u8a9e&t=a\tb\nc\\d\\N'e\"\u0000\u0007\r\u0008\u000c";
            Hit full = new Hit(Instant.parse("2025-05-14T10:00:00.123Z").toEpochMilli(), -330, "2001:4860:4801:10::1", "PROPFIND", url,
                    503, 1234, "https://example.org/\u00e4", "Googlebot/2.1 (\u00fcn\u00efc\u00f6d\u00e9 \uD83D\uDE00)", 12.5, "www.example.org");
            Hit bare = new Hit(Instant.parse("2025-05-14T10:00:01Z").toEpochMilli(), 0, "66.249.66.1", "", "/", 404, -1, null,
                    null, Double.NaN, null);
            Hit tiny = new Hit(Instant.parse("2025-05-14T10:00:02Z").toEpochMilli(), 840, "66.249.66.1", "GET", "/t", 599, 0, null, "",
                    0.1 + 0.2, "");
            store.writer().append(List.of(new CrawlerHit(full, GOOGLEBOT, VERIFIED), new CrawlerHit(bare, GOOGLEBOT, VERIFIED),
                    new CrawlerHit(tiny, GOOGLEBOT, VERIFIED)));

            List<StoredHit> rows = store.reader().page(HitFilter.ERRORS, 0, 10);

            assertThat(rows).extracting(StoredHit::epochMillis, StoredHit::offsetMinutes, StoredHit::ip, StoredHit::method,
                    StoredHit::url, StoredHit::status, StoredHit::durationMs, StoredHit::userAgent, StoredHit::host).containsExactly(
                            org.assertj.core.groups.Tuple.tuple(tiny.epochMillis(), 840, "66.249.66.1", "GET", "/t", 599, 0.30000000000000004,
                                    "", ""),
                            org.assertj.core.groups.Tuple.tuple(bare.epochMillis(), 0, "66.249.66.1", "", "/", 404, null, null, null),
                            org.assertj.core.groups.Tuple.tuple(full.epochMillis(), -330, "2001:4860:4801:10::1", "PROPFIND", url, 503, 12.5,
                                    full.userAgent(), "www.example.org"));
        }
    }

    /** The counts as hits in all and the minutes that have any. */
    static List<Long> minutes(MinuteCounts counts) {
        return List.of(counts.total(), (long) counts.size());
    }

    @Test
    void anUpgradeFromSchemaTwoCountsTheHitsStoredBeforeIt() {
        String db = ClickHouseTestCluster.database("schema2");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:05Z", "66.249.66.1", "/a", 404, VERIFIED),
                    hit("2025-05-14T10:03:00Z", "66.249.66.2", "/b", 410, VERIFIED),
                    hit("2025-05-14T10:03:30Z", "203.0.113.9", "/c", 404, SPOOFED)));
        }
        // as version 2 made it: no counts by minute
        for (int shard = 1; shard <= cluster.shards(); shard++) {
            cluster.query(shard, "DROP TABLE " + db + ".minute_counts_of_hits");
            cluster.query(shard, "DROP TABLE " + db + ".minute_counts_local");
            cluster.query(shard, "DROP TABLE " + db + ".minute_counts");
        }
        recordVersion(db, 2);

        try (ClickHouseHitStore store = open(db)) {
            assertThat(minutes(store.reader().minuteCounts(HitFilter.ERRORS, store.reader().snapshot()))).containsExactly(2L, 2L);
            assertThat(store.health().size()).isEqualTo(3);
            store.writer().append(List.of(hit("2025-05-14T10:03:59Z", "66.249.66.2", "/d", 404, VERIFIED)));
            assertThat(minutes(store.reader().minuteCounts(HitFilter.ERRORS, store.reader().snapshot()))).containsExactly(3L, 2L);
        }
        assertThat(cluster.number(1, "SELECT max(version) FROM " + db + ".schema_version")).isEqualTo(ClickHouseSchema.VERSION);
    }

    /** Makes the store say it is of schema {@code version}, as a store that version made does. */
    private void recordVersion(String db, int version) {
        cluster.query(1, "INSERT INTO " + db + ".schema_version (version) VALUES (" + version + ")");
        cluster.query(1, "ALTER TABLE " + db + ".schema_version DELETE WHERE version > " + version);
        // a mutation runs in the background (18.16 has no mutations_sync): wait for it, within bounds
        Waits.await("the schema version mutated").untilAsserted(
                () -> assertThat(cluster.number(1, "SELECT max(version) FROM " + db + ".schema_version")).isEqualTo(version));
    }

    @Test
    void anUpgradeFromSchemaThreeAddsTheRedirectTargetsOnEveryShard() {
        String db = ClickHouseTestCluster.database("schema3");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:05Z", "66.249.66.1", "/old/1", 301, VERIFIED)));
        }
        // as version 3 made it: no column of redirect targets
        for (int shard = 1; shard <= cluster.shards(); shard++) {
            cluster.query(shard, "ALTER TABLE " + db + ".hits DROP COLUMN location");
            cluster.query(shard, "ALTER TABLE " + db + ".hits_local DROP COLUMN location");
        }
        recordVersion(db, 3);

        Hit moved = new Hit(Instant.parse("2025-05-14T10:01:00Z").toEpochMilli(), 120, "66.249.66.2", "GET", "/old/2", 301, -1, null,
                "Googlebot", Double.NaN, "www.example.com", null, "https://www.example.com/");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().append(List.of(new CrawlerHit(moved, GOOGLEBOT, VERIFIED)));
            List<UrlCount> urls = new ArrayList<>();
            store.reader().forEachUrl(HitFilter.ERRORS, HitWindow.at(store.reader().snapshot()), urls::add);
            assertThat(urls).extracting(UrlCount::url, UrlCount::location, UrlCount::host).containsExactlyInAnyOrder(
                    org.assertj.core.groups.Tuple.tuple("/old/1", null, null),
                    org.assertj.core.groups.Tuple.tuple("/old/2", "https://www.example.com/", "www.example.com"));
        }
        assertThat(cluster.number(1, "SELECT max(version) FROM " + db + ".schema_version")).isEqualTo(ClickHouseSchema.VERSION);
        for (int shard = 1; shard <= cluster.shards(); shard++) {
            assertThat(cluster.number(shard, "SELECT count() FROM system.columns WHERE database = '" + db + "' AND name = 'location'"
                    + " AND table IN ('hits', 'hits_local')")).as("shard " + shard).isEqualTo(2);
        }
    }

    @Test
    void bringsAStoreOfSchemaOneUpToDateAndKnowsTheLogsItRecorded() {
        String db = ClickHouseTestCluster.database("schema1");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().flush();
        }
        // as version 1 made it: commits without the prefix, check and file columns, and one log recorded
        for (String column : List.of("prefix", "check_hash", "file_key", "file_size", "file_modified_nanos")) {
            cluster.query(1, "ALTER TABLE " + db + ".commits DROP COLUMN " + column);
        }
        long now = cluster.number(1, "SELECT toUInt64(now())");
        cluster.query(1, "INSERT INTO " + db + ".commits (writer, seq, closed, fingerprint, name, bytes, lines) VALUES ("
                + Long.toUnsignedString((now - 5) << 32) + ", 1, 0, 'f0', 'access.log', 4096, 32)");
        cluster.query(1, "DROP TABLE " + db + ".schema_version");
        cluster.query(1, "CREATE TABLE " + db + ".schema_version (version UInt32, applied DateTime DEFAULT now()) ENGINE = MergeTree"
                + " ORDER BY version");
        cluster.query(1, "INSERT INTO " + db + ".schema_version (version) VALUES (1)");

        SourceProgress later = new SourceProgress("f1", "access.log.1", 100, 2, "c1", new FileStamp("(dev=1,ino=2)", 100, 5));
        try (ClickHouseHitStore store = open(db)) {
            assertThat(store.writer().imported(List.of("f0"))).containsExactly(new SourceProgress("f0", "access.log", 4096, 32));
            store.writer().append(List.of(), start("f1", later.name()), later);
            store.writer().flush();
        }
        assertThat(cluster.number(1, "SELECT max(version) FROM " + db + ".schema_version")).isEqualTo(ClickHouseSchema.VERSION);
        assertThat(java.util.Arrays.stream(cluster.query(1, "DESCRIBE TABLE " + db + ".commits").split("\n"))
                .map(column -> column.split("\t")[0])).containsExactly("writer", "seq", "closed", "fingerprint", "name", "bytes", "lines",
                        // claim_lease where 18.16 puts an added MATERIALIZED column, whatever AFTER says
                        "prefix", "check_hash", "file_key", "file_size", "file_modified_nanos", "claimed", "committed", "claim_lease", "lease");
        try (ClickHouseHitStore store = open(db)) {
            assertThat(store.writer().imported(List.of("f0", "f1"))).containsExactlyInAnyOrder(new SourceProgress("f0", "access.log", 4096, 32),
                    later.readToTheEndOf(null));
            assertThat(store.writer().importedFiles(List.of("(dev=1,ino=2)"))).containsExactly(later);
        }
    }

    @Test
    void aStoreThatCannotBeReadIsSaidInOneSentenceNamingIt() {
        String db = ClickHouseTestCluster.database("unreadable");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED)));
            store.health().checkReadable();
            store.health().checkNewest();
            // the second shard lost its hits
            cluster.query(2, "DROP TABLE " + db + ".hits_local");
            for (ThrowingCallable check : List.<ThrowingCallable>of(store.health()::checkReadable, store.health()::checkNewest)) {
                assertThatThrownBy(check).isInstanceOf(StoreException.class)
                        .hasMessageStartingWith("the ClickHouse store " + cluster.location(db).shown() + " cannot be read: ")
                        .hasMessageEndingWith("; check that every server of it runs and answers");
            }
        }
    }

    @Test
    void aSnapshotKeepsItsRowsAndTotalWhileAnotherWriterCommitsHitsAndVerdicts() {
        String db = ClickHouseTestCluster.database("snapshot");
        try (ClickHouseHitStore reader = open(db); ClickHouseHitStore writer = open(db)) {
            List<CrawlerHit> first = new ArrayList<>();
            for (int i = 0; i < 250; i++) {
                first.add(hit(Instant.parse("2025-05-14T10:00:00Z").plusSeconds(i * 7L).toString(), "66.249.66." + (i % 10), "/a" + i, 404,
                        PENDING));
            }
            writer.writer().append(first);
            writer.writer().flush();
            Snapshot at = reader.reader().snapshot();
            MinuteCounts counts = reader.reader().minuteCounts(HitFilter.ERRORS, at);
            List<StoredHit> page = reader.reader().rows(HitFilter.ERRORS, at, Long.MIN_VALUE / 2, Long.MAX_VALUE / 2, 100, 100);

            // hits arrive before, among and after the first ones, and two addresses turn out spoofed
            List<CrawlerHit> more = new ArrayList<>();
            for (int i = 0; i < 90; i++) {
                more.add(hit(Instant.parse("2025-05-14T09:00:00Z").plusSeconds(i * 61L).toString(), "66.249.66." + (i % 10), "/b" + i,
                        404, PENDING));
            }
            writer.writer().append(more);
            writer.verdicts().update("66.249.66.3", GOOGLEBOT.name(), SPOOFED);
            writer.verdicts().update("66.249.66.4", GOOGLEBOT.name(), SPOOFED);
            writer.writer().flush();

            assertThat(reader.reader().serves(at)).isTrue();
            assertThat(reader.reader().minuteCounts(HitFilter.ERRORS, at).total()).isEqualTo(250);
            assertThat(reader.reader().minuteCounts(HitFilter.ERRORS, at).slices(Long.MAX_VALUE)).isEqualTo(counts.slices(Long.MAX_VALUE));
            assertThat(reader.reader().rows(HitFilter.ERRORS, at, Long.MIN_VALUE / 2, Long.MAX_VALUE / 2, 100, 100)).isEqualTo(page);

            Snapshot now = newerThan(reader, at);
            assertThat(now.covers(at)).isTrue();
            MinuteCounts recounted = reader.reader().minuteCounts(HitFilter.ERRORS, now);
            assertThat(recounted.total()).isEqualTo(340 - 68);
            // brought up to date rather than counted again: the same counts
            MinuteCounts updated = counts.plus(reader.reader().minuteChange(HitFilter.ERRORS, at, now));
            assertThat(updated.total()).isEqualTo(recounted.total());
            assertThat(updated.slices(1)).isEqualTo(recounted.slices(1));
        }
    }

    /**
     * The reader's newest snapshot once it holds another writer's commit after {@code at}: a reader
     * takes the newest it read within the last tenth of a second as the newest (readers at once share
     * one read), so right after the commit it may still answer {@code at}. Bounded: 30 s.
     */
    private static Snapshot newerThan(ClickHouseHitStore reader, Snapshot at) {
        return Waits.await("a snapshot after another writer's commit").atMost(Duration.ofSeconds(30))
                .until(() -> reader.reader().snapshot(), now -> !now.equals(at));
    }

    @Test
    void anotherProcessNamesTheSameSnapshotAlikeAndServesTheOnesThisOneMade() {
        String db = ClickHouseTestCluster.database("shared");
        try (ClickHouseHitStore one = open(db); ClickHouseHitStore two = open(db)) {
            assertThat(one.reader().snapshot()).isEqualTo(Snapshot.EMPTY);
            one.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED)));
            Snapshot made = one.reader().snapshot();
            assertThat(two.reader().snapshot()).isEqualTo(made);
            two.writer().append(List.of(hit("2025-05-14T10:00:01Z", "66.249.66.2", "/b", 404, VERIFIED)));
            two.writer().flush();
            try (ClickHouseHitStore three = open(db)) {
                assertThat(three.reader().serves(made)).isTrue();
                assertThat(three.reader().rows(HitFilter.ERRORS, made, Long.MIN_VALUE / 2, Long.MAX_VALUE / 2, 0, 10))
                        .extracting(StoredHit::url).containsExactly("/a");
                assertThat(three.reader().serves(new Snapshot(made.hits() + 1000, 0))).isFalse();
                assertThat(three.reader().serves(new Snapshot(made.hits(), 7))).isFalse();
            }
        }
    }

    @Test
    void createsTheDatabaseAndTablesOnEveryShardOnFirstUseAndRefusesANewerSchema() {
        String db = ClickHouseTestCluster.database("schema");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().flush();
        }
        assertThat(cluster.query(1, "SELECT name FROM system.tables WHERE database = '" + db + "' ORDER BY name").split("\n"))
                .containsExactly("commits", "hits", "hits_local", "log_claims", "minute_counts", "minute_counts_local", "minute_counts_of_hits",
                        "schema_version", "signature_directories", "signature_pending", "signature_settled", "sitemap_reads_local",
                        "sitemap_urls_local", "snapshots", "url_folds", "url_log", "url_log_local", "url_states", "url_times", "url_times_local",
                        "url_times_of_log", "verdict_log_local", "verdicts_latest", "verdicts_local");
        assertThat(cluster.query(2, "SELECT name FROM system.tables WHERE database = '" + db + "' ORDER BY name").split("\n"))
                .containsExactly("hits", "hits_local", "minute_counts", "minute_counts_local", "minute_counts_of_hits", "sitemap_reads_local",
                        "sitemap_urls_local", "url_log", "url_log_local", "url_times", "url_times_local", "url_times_of_log", "verdict_log_local",
                        "verdicts_latest", "verdicts_local");
        assertThat(cluster.number(1, "SELECT max(version) FROM " + db + ".schema_version")).isEqualTo(ClickHouseSchema.VERSION);
        assertThat(cluster.query(1, "SELECT engine_full FROM system.tables WHERE database = '" + db + "' AND name = 'hits'"))
                .isEqualTo("Distributed(crawl_errors, " + db + ", hits_local, halfMD5(ip))");

        cluster.query(1, "INSERT INTO " + db + ".schema_version (version) VALUES (99)");
        assertThatThrownBy(() -> open(db)).isInstanceOf(StoreException.class)
                .hasMessage("the ClickHouse database " + db + " was made by a newer crawl-errors (schema 99; this one knows "
                        + ClickHouseSchema.VERSION + "): use that version, or another database");
    }

    @Test
    void aShardThatLacksTheStoresTablesGetsThemWithEveryVerdictRecordedBefore() {
        String db = ClickHouseTestCluster.database("added");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED),
                    hit("2025-05-14T10:00:01Z", "66.249.66.2", "/b", 404, SPOOFED)));
            store.writer().flush();
            store.verdicts().update("66.249.66.1", GOOGLEBOT.name(), PENDING);
        }
        // as a shard newly added to the cluster has none of them
        cluster.query(2, "DROP DATABASE " + db);
        try (ClickHouseHitStore store = open(db)) {
            store.writer().flush();
        }
        assertThat(cluster.query(2, "SELECT ip, verification FROM " + db + ".verdict_log_local ORDER BY ip, version").split("\n"))
                .containsExactly("66.249.66.1\tverified", "66.249.66.1\tunverified", "66.249.66.2\tspoofed");
    }

    @Test
    void aPlainServerWithNoClusterIsAStoreOnItsOwn() {
        ClickHouseTestCluster plain = ClickHouseTestCluster.plainServer();
        String db = ClickHouseTestCluster.database("plain");
        try (ClickHouseHitStore store = ClickHouseHitStore.open(plain.location(db), ClickHouseSettings.SERVE)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED),
                    hit("2025-05-14T10:00:01Z", "203.0.113.1", "/b", 404, SPOOFED)));
            assertThat(store.shards()).isEqualTo(1);
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/a");
        }
        assertThat(plain.query(1, "SELECT name FROM system.tables WHERE database = '" + db + "' ORDER BY name").split("\n"))
                .containsExactly("commits", "hits_local", "log_claims", "minute_counts_local", "minute_counts_of_hits", "schema_version",
                        "signature_directories", "signature_pending", "signature_settled", "sitemap_reads_local", "sitemap_urls_local",
                        "snapshots", "url_folds", "url_log_local", "url_states", "url_times_local", "url_times_of_log", "verdict_log_local",
                        "verdicts_latest", "verdicts_local");
    }

    @Test
    void saysWhichServerCannotBeReached() {
        ClickHouseLocation nowhere = ClickHouseLocation.parse("clickhouse://127.0.0.1:1/crawl", null, null);
        assertThatThrownBy(() -> ClickHouseHitStore.open(nowhere, ClickHouseSettings.SERVE)).isInstanceOf(StoreException.class)
                .hasMessage("cannot reach ClickHouse at http://127.0.0.1:1 (connection refused): is it running, and is 1 its HTTP port?");
    }
}
