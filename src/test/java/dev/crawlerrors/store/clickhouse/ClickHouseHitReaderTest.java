package dev.crawlerrors.store.clickhouse;

import static dev.crawlerrors.store.clickhouse.ClickHouseHitStoreTest.GOOGLEBOT;
import static dev.crawlerrors.store.clickhouse.ClickHouseHitStoreTest.GPTBOT;
import static dev.crawlerrors.store.clickhouse.ClickHouseHitStoreTest.VERIFIED;
import static dev.crawlerrors.store.clickhouse.ClickHouseHitStoreTest.PENDING;
import static dev.crawlerrors.store.clickhouse.ClickHouseHitStoreTest.SPOOFED;
import static dev.crawlerrors.store.clickhouse.ClickHouseHitStoreTest.hit;
import static dev.crawlerrors.store.clickhouse.ClickHouseHitStoreTest.minutes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.Waits;
import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.store.BreakdownCount;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.TimeCount;
import dev.crawlerrors.store.UrlPattern;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The ClickHouse store's reads on a real two-shard cluster: order, filters, URL shapes as Java
 * matches them, counts by minute and by verdict read at a snapshot, and the monitors left out.
 */
@ClickHouseTest
class ClickHouseHitReaderTest {

    private final ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();

    private ClickHouseHitStore open(String db) {
        return ClickHouseHitStore.open(cluster.location(db), ClickHouseSettings.SERVE);
    }

    @Test
    void theCommittedSnapshotIsAnotherWritersNewestOnceLookedAgainAndCommitsNothingOfItsOwn() {
        String db = ClickHouseTestCluster.database("committed");
        try (ClickHouseHitStore serve = open(db); ClickHouseHitStore importer = open(db)) {
            Snapshot before = serve.reader().committed();
            importer.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/moved", 404, VERIFIED)));
            Snapshot moved = importer.reader().snapshot(); // commits the import's batch
            Waits.await("serve's look sees the other writer's commit")
                    .untilAsserted(() -> assertThat(serve.reader().committed()).isEqualTo(moved));
            assertThat(moved).isNotEqualTo(before);
            // what serve appended itself stays buffered: its look commits none of it
            serve.writer().append(List.of(hit("2025-05-14T10:01:00Z", "66.249.66.1", "/own", 404, VERIFIED)));
            assertThat(serve.reader().committed()).isEqualTo(moved);
            assertThat(importer.reader().snapshot()).isEqualTo(moved);
        }
    }

    @Test
    void ordersNewestFirstAndBreaksTiesOfAnInstantInTheOrderStored() {
        try (ClickHouseHitStore store = open(ClickHouseTestCluster.database("order"))) {
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:00Z", "66.249.66.1", "/first", 308, VERIFIED),
                    hit("2025-05-14T11:00:00Z", "66.249.66.1", "/newest", 308, VERIFIED),
                    hit("2025-05-14T10:00:00Z", "66.249.66.2", "/second", 308, VERIFIED),
                    hit("2025-05-14T10:00:00Z", "66.249.66.3", "/third", 308, VERIFIED)));

            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url)
                    .containsExactly("/newest", "/third", "/second", "/first");
            assertThat(store.reader().page(HitFilter.ERRORS, 2, 1)).extracting(StoredHit::url).containsExactly("/second");
        }
    }

    @Test
    void countsOnlyErrorsAndLeavesSpoofedHitsOutByDefault() {
        try (ClickHouseHitStore store = open(ClickHouseTestCluster.database("errors"))) {
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:00Z", "66.249.66.1", "/ok", 200, VERIFIED),
                    hit("2025-05-14T10:00:01Z", "66.249.66.1", "/moved", 301, VERIFIED),
                    hit("2025-05-14T10:00:02Z", "203.0.113.9", "/fake", 404, SPOOFED)));

            assertThat(store.health().size()).isEqualTo(3);
            assertThat(store.reader().count(HitFilter.ERRORS)).isEqualTo(1);
            HitFilter onlySpoofed = new HitFilter(List.of(), Set.of(), Set.of(Verification.spoofed), null, null, null, null);
            assertThat(store.reader().page(onlySpoofed, 0, 10)).extracting(StoredHit::url, StoredHit::verification)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("/fake", "spoofed"));
            HitFilter onlyVerified = new HitFilter(List.of(), Set.of(), Set.of(Verification.verified), null, null, null, null);
            assertThat(store.reader().count(onlyVerified)).isEqualTo(1);
        }
    }

    @Test
    void countsTheHitsAfterASnapshotAndKnowsWhenAVerdictOfAnEarlierHitChanged() {
        String db = ClickHouseTestCluster.database("windows");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, PENDING),
                    hit("2025-05-14T10:00:01Z", "66.249.66.1", "/b", 500, PENDING)));
            Snapshot counted = store.reader().snapshot();
            // a new address's hits, identified with its first verdict: the hits counted keep theirs
            store.writer().append(List.of(hit("2025-05-14T10:01:00Z", "66.249.66.2", "/c", 404, VERIFIED)));
            Snapshot newer = store.reader().snapshot();
            assertThat(store.reader().sameVerdicts(counted, newer)).isTrue();
            assertThat(store.reader().countByCrawler(HitFilter.ERRORS, HitWindow.since(counted, newer)))
                    .containsExactly(new BreakdownCount(GOOGLEBOT.name(), "crawler_search", "verified", 404, 1));
            assertThat(store.reader().countByCrawler(HitFilter.ERRORS, HitWindow.at(newer))).containsExactlyInAnyOrder(
                    new BreakdownCount(GOOGLEBOT.name(), "crawler_search", "unverified", 404, 1),
                    new BreakdownCount(GOOGLEBOT.name(), "crawler_search", "unverified", 500, 1),
                    new BreakdownCount(GOOGLEBOT.name(), "crawler_search", "verified", 404, 1));
            // a counted hit's address checked since: counting only the hits after is no longer enough
            store.verdicts().update("66.249.66.1", GOOGLEBOT.name(), SPOOFED);
            Snapshot changed = store.reader().snapshot();
            assertThat(store.reader().sameVerdicts(newer, changed)).isFalse();
            assertThat(store.reader().sameVerdicts(counted, changed)).isFalse();
            assertThat(store.reader().countByCrawler(HitFilter.ERRORS, HitWindow.at(changed)))
                    .containsExactly(new BreakdownCount(GOOGLEBOT.name(), "crawler_search", "verified", 404, 1));
        }
    }

    @Test
    void filtersByStatusClassTimeUrlPrefixHostAndBotType() {
        try (ClickHouseHitStore store = open(ClickHouseTestCluster.database("filters"))) {
            List<CrawlerHit> hits = new ArrayList<>();
            hits.add(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/antwerp/meir", 308, VERIFIED));
            hits.add(hit("2025-05-14T12:00:00Z", "66.249.66.1", "/antwerp/straten/a", 404, VERIFIED));
            hits.add(hit("2025-05-15T10:00:00Z", "66.249.66.1", "/ghent/straten/b", 404, VERIFIED));
            Hit onHost = new Hit(Instant.parse("2025-05-15T11:00:00Z").toEpochMilli(), 0, "66.249.66.2", "GET", "/it's", 410, -1, null,
                    "GPTBot", Double.NaN, "shop.example.org");
            hits.add(new CrawlerHit(onHost, GPTBOT, VERIFIED));
            store.writer().append(hits);

            HitFilter notFound = new HitFilter(List.of(new StatusRange(400, 499)), Set.of(), Set.of(), null, null, null, null);
            HitFilter exact = new HitFilter(List.of(new StatusRange(308, 308), new StatusRange(410, 410)), Set.of(), Set.of(), null, null,
                    null, null);
            HitFilter antwerp = new HitFilter(List.of(), Set.of(), Set.of(), null, null, "/antwerp/", null);
            HitFilter quote = new HitFilter(List.of(), Set.of(), Set.of(), null, null, "/it'", null);
            HitFilter day = new HitFilter(List.of(), Set.of(), Set.of(), Instant.parse("2025-05-14T00:00:00Z"),
                    Instant.parse("2025-05-15T00:00:00Z"), null, null);
            HitFilter ai = new HitFilter(List.of(), Set.of(BotType.crawler_ai), Set.of(), null, null, null, null);
            HitFilter host = new HitFilter(List.of(), Set.of(), Set.of(), null, null, null, "shop.example.org");

            assertThat(store.reader().count(notFound)).isEqualTo(3);
            assertThat(store.reader().count(exact)).isEqualTo(2);
            assertThat(store.reader().count(antwerp)).isEqualTo(2);
            assertThat(store.reader().count(quote)).isEqualTo(1);
            assertThat(store.reader().count(day)).isEqualTo(2);
            assertThat(store.reader().page(ai, 0, 10)).extracting(StoredHit::url, StoredHit::crawler, StoredHit::botType)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("/it's", "GPTBot", "crawler_ai"));
            assertThat(store.reader().count(host)).isEqualTo(1);
        }
    }

    /** As the embedded store: a shape whose path would end in an empty word without a slash names no path (DuckDbTalliesTest). */
    @Test
    void aShapeEndingInAnEmptyWordWithoutASlashMatchesWhatItMatchesInJava() {
        List<String> urls = List.of("/", "//", "/a/", "/a//", "/a", "/?q=/");
        try (ClickHouseHitStore store = open(ClickHouseTestCluster.database("empty_words"))) {
            store.writer().append(urls.stream().map(url -> hit("2025-05-14T10:00:00Z", "66.249.66.1", url, 404, VERIFIED)).toList());
            store.writer().flush();
            for (UrlPattern pattern : List.of(new UrlPattern(true, List.of(UrlPattern.Segment.literal("")), false),
                    new UrlPattern(true, List.of(), false),
                    new UrlPattern(true, List.of(UrlPattern.Segment.literal("a"), UrlPattern.Segment.literal("")), false),
                    new UrlPattern(true, List.of(UrlPattern.Segment.literal("")), true), new UrlPattern(true, List.of(), true),
                    new UrlPattern(true, List.of(UrlPattern.Segment.literal("a"), UrlPattern.Segment.literal("")), true))) {
                assertThat(store.reader().count(HitFilter.ERRORS.withUrlPattern(pattern))).as("%s", pattern)
                        .isEqualTo(urls.stream().filter(pattern::matches).count());
            }
        }
    }

    @Test
    void countsAViewsHitsByMinuteFromTheCountsKeptAsHitsAreStoredNotFromTheHits() {
        String db = ClickHouseTestCluster.database("minute_counts");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:05Z", "66.249.66.1", "/a", 404, VERIFIED),
                    hit("2025-05-14T10:00:55Z", "66.249.66.2", "/b", 404, VERIFIED),
                    hit("2025-05-14T10:01:00Z", "66.249.66.1", "/c", 500, VERIFIED),
                    hit("2025-05-14T10:02:00Z", "203.0.113.9", "/d", 404, SPOOFED)));
            store.writer().flush();
            assertThat(minutes(store.reader().minuteCounts(HitFilter.ERRORS, store.reader().snapshot()))).containsExactly(3L, 2L);
            // the hits gone, the counts stay: counts read them, the rows and a URL's count read the hits
            for (int shard = 1; shard <= cluster.shards(); shard++) {
                cluster.query(shard, "ALTER TABLE " + db + ".hits_local DROP PARTITION 202505");
            }
            Snapshot now = store.reader().snapshot();
            assertThat(minutes(store.reader().minuteCounts(HitFilter.ERRORS, now))).containsExactly(3L, 2L);
            assertThat(store.health().size()).isEqualTo(4);
            HitFilter spoofed = new HitFilter(List.of(), Set.of(), Set.of(Verification.spoofed), null, null, null, null);
            assertThat(minutes(store.reader().minuteCounts(spoofed, now))).containsExactly(1L, 1L);
            HitFilter halfMinute = new HitFilter(List.of(), Set.of(), Set.of(), Instant.parse("2025-05-14T10:00:30Z"), null, null, null);
            assertThat(minutes(store.reader().minuteCounts(halfMinute, now))).containsExactly(0L, 0L);
            assertThat(store.reader().rows(HitFilter.ERRORS, now, Long.MIN_VALUE / 4, Long.MAX_VALUE / 4, 0, 10)).isEmpty();
        }
    }

    @Test
    void countsByVerdictTheHitsOfFifteenThousandAddressesWhoseClaimsTheQueryLists() {
        // each address's claim is written into the count's SQL (about 20 bytes each): longer than the server's 256 KiB default
        try (ClickHouseHitStore store = open(ClickHouseTestCluster.database("many_claims"))) {
            List<CrawlerHit> hits = new ArrayList<>();
            long start = Instant.parse("2025-05-14T10:00:00Z").toEpochMilli();
            for (int i = 0; i < 15_000; i++) {
                hits.add(hit(start + i * 1000L, "66.249." + (i / 250) + "." + (i % 250), "/p" + i, 404, i % 100 == 0 ? SPOOFED : VERIFIED));
            }
            store.writer().append(hits);
            Snapshot now = store.reader().snapshot();
            assertThat(store.reader().countByTime(HitFilter.ERRORS, HitWindow.at(now), 3_600_000).stream().mapToLong(TimeCount::hits).sum())
                    .isEqualTo(14_850);
            assertThat(store.reader().countByCrawler(HitFilter.ERRORS, HitWindow.at(now)).stream().mapToLong(BreakdownCount::hits).sum())
                    .isEqualTo(14_850);
        }
    }

    @Test
    void leavesMonitorsAndScannersOutUnlessTheirTypeOrNameIsAskedFor() {
        Crawler uptime = new Crawler("UptimeRobot", "UptimeRobot", BotType.monitor, List.of("UptimeRobot"), null, List.of(), null);
        try (ClickHouseHitStore store = open(ClickHouseTestCluster.database("hidden"))) {
            Hit check = new Hit(Instant.parse("2025-05-14T10:00:01Z").toEpochMilli(), 0, "69.162.124.226", "HEAD", "/health", 503, -1,
                    null, "UptimeRobot/2.0", Double.NaN, null);
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED),
                    new CrawlerHit(check, uptime, new Verdict(Verification.unverified, "publishes no list"))));

            HitFilter every = new HitFilter(List.of(), HitFilter.ALL_BOT_TYPES, Set.of(), null, null, null, null);
            HitFilter monitors = new HitFilter(List.of(), Set.of(BotType.monitor), Set.of(), null, null, null, null);
            HitFilter byName = new HitFilter(List.of(), Set.of(), Set.of(), null, null, null, null, Set.of("UptimeRobot"));
            HitFilter google = new HitFilter(List.of(), Set.of(), Set.of(), null, null, null, null, Set.of("Googlebot Desktop"));

            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/a");
            assertThat(store.reader().page(every, 0, 10)).extracting(StoredHit::url).containsExactly("/health", "/a");
            assertThat(store.reader().page(monitors, 0, 10)).extracting(StoredHit::url).containsExactly("/health");
            assertThat(store.reader().page(byName, 0, 10)).extracting(StoredHit::url).containsExactly("/health");
            assertThat(store.reader().page(google, 0, 10)).extracting(StoredHit::url).containsExactly("/a");
        }
    }
}
