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
import dev.crawlerrors.store.BreakdownCount;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.PositionMovedException;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.StoredVerdict;
import dev.crawlerrors.store.TimeCount;
import dev.crawlerrors.store.UrlCount;
import dev.crawlerrors.store.UrlPattern;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

    @Test
    void recordsHowFarALogWasImportedWithItsHitsAndKeepsTheLatest() {
        String db = ClickHouseTestCluster.database("progress");
        try (ClickHouseHitStore store = open(db)) {
            assertThat(store.writer().imported(List.of("f1"))).isEmpty();
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED)),
                    start("f1", "access.log"), new SourceProgress("f1", "access.log", 180, 1));
            store.writer().append(List.of(), new SourceProgress("f1", "access.log", 180, 1), new SourceProgress("f1", "access.log", 360, 2)); // buffered, not yet written
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", 360, 2));
            store.writer().append(List.of(hit("2025-05-14T10:00:01Z", "66.249.66.1", "/b", 404, VERIFIED)),
                    start("f2", "access.log.1"), new SourceProgress("f2", "access.log.1", 90, 1));
        }
        try (ClickHouseHitStore store = open(db)) {
            assertThat(store.writer().imported(List.of("f1", "f2", "f3")))
                    .containsExactlyInAnyOrder(new SourceProgress("f1", "access.log", 360, 2), new SourceProgress("f2", "access.log.1", 90, 1));
            assertThat(store.writer().imported(List.of())).isEmpty();
            assertThat(store.health().size()).isEqualTo(2);
        }
    }

    @Test
    void recordsALogsPositionOnlyFromWhereTheStoreHasItWhicheverProcessWroteIt() {
        String db = ClickHouseTestCluster.database("cas");
        SourceProgress at100 = new SourceProgress("f1", "access.log", 100, 10);
        try (ClickHouseHitStore one = open(db); ClickHouseHitStore other = open(db)) {
            one.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED)), start("f1", "access.log"), at100);
            one.writer().flush();
            // another process read the same lines from the log's start: refused as its batch is claimed, and told
            other.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a-again", 404, VERIFIED)), start("f1", "access.log"), at100);
            assertThatThrownBy(other.writer()::flush).isInstanceOfSatisfying(PositionMovedException.class, e -> {
                assertThat(e.keys()).containsExactly("f1");
                assertThat(e.refused().get(0).storedUpTo()).isEqualTo(start("f1", "access.log"));
                assertThat(e.refused().get(0).hits()).extracting(h -> h.hit().url()).containsExactly("/a-again");
            });
            assertThat(other.writer().imported(List.of("f1"))).containsExactly(at100);
            // it reads on from where the store has the log
            other.writer().append(List.of(hit("2025-05-14T10:00:01Z", "66.249.66.1", "/b", 404, VERIFIED)), at100,
                    new SourceProgress("f1", "access.log", 200, 20));
            other.writer().flush();
            // a writer whose lines of a log were refused as they went out (a read commits them, as serve's committer
            // does, and tells no one) is told when it appends on after them; its hits of no log are stored
            one.writer().append(List.of(hit("2025-05-14T10:00:02Z", "66.249.66.1", "/c", 404, VERIFIED),
                    hit("2025-05-14T10:00:03Z", "66.249.66.1", "/d", 404, VERIFIED)), at100, new SourceProgress("f1", "access.log", 180, 18));
            one.writer().append(List.of(hit("2025-05-14T10:00:04Z", "66.249.66.3", "/no-log", 404, VERIFIED)));
            assertThat(one.health().size()).isEqualTo(3);
            assertThatThrownBy(() -> one.writer().append(List.of(), new SourceProgress("f1", "access.log", 180, 18),
                    new SourceProgress("f1", "access.log", 190, 19))).isInstanceOfSatisfying(PositionMovedException.class,
                    e -> assertThat(e.refused().get(0).hits()).extracting(h -> h.hit().url()).containsExactly("/c", "/d"));
            one.writer().flush();
            assertThat(one.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/no-log", "/b", "/a");
            assertThat(one.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", 200, 20));
        }
    }

    @Test
    void aLogsPositionAnotherWriterClaimsIsRefusedUntilItsClaimIsWithdrawnOrPastItsLife() {
        String db = ClickHouseTestCluster.database("claims");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().flush();
            // f2: claimed by another writer now; f3: claimed, and withdrawn; f4: claimed long ago, by a writer killed since
            cluster.query(1, "INSERT INTO " + db + ".log_claims (fingerprint, from_bytes, claim, withdrawn) VALUES ('f2', 0, 11, 0),"
                    + " ('f3', 0, 12, 0), ('f3', 0, 12, 1)");
            cluster.query(1, "INSERT INTO " + db + ".log_claims (fingerprint, from_bytes, claim, withdrawn, made) VALUES ('f4', 0, 13, 0,"
                    + " now() - " + (ClickHouseLogClaims.EXPIRY_SECONDS + 5) + ")");
            for (String key : List.of("f2", "f3", "f4")) {
                store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/" + key, 404, VERIFIED)), start(key, key + ".log"),
                        new SourceProgress(key, key + ".log", 100, 1));
            }
            assertThatThrownBy(store.writer()::flush).isInstanceOfSatisfying(PositionMovedException.class,
                    e -> assertThat(e.keys()).containsExactly("f2"));
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactlyInAnyOrder("/f3", "/f4");
            // its claim withdrawn, not committed: f2 is where it was, and the next writer from there goes on
            assertThat(cluster.number(1, "SELECT max(withdrawn) FROM " + db + ".log_claims WHERE fingerprint = 'f2' AND claim != 11"))
                    .isEqualTo(1);
            assertThat(store.writer().imported(List.of("f2"))).isEmpty();
        }
        // a commit made later than a claim's life allows is refused by the server itself
        long now = cluster.number(1, "SELECT toUInt64(now())");
        assertThatThrownBy(() -> cluster.query(1, "INSERT INTO " + db + ".commits (writer, seq, closed, fingerprint, name, bytes, lines,"
                + " claimed) VALUES (" + Long.toUnsignedString(now << 32) + ", 1, 0, 'f5', 'f5.log', 10, 1, "
                + (now - ClickHouseLogClaims.CLAIM_SECONDS - 5) + ")")).hasMessageContaining("Code: 395");
    }

    @Test
    void answersALogsProgressByItsKeysPrefixWithItsCheckAndTheFilesReadToTheirEndBeforeAndAfterTheCommit() {
        String db = ClickHouseTestCluster.database("files");
        FileStamp first = new FileStamp("(dev=803,ino=11)", 1_200, 1_747_216_800_123_456_789L);
        FileStamp second = new FileStamp("(dev=803,ino=12)", 640, 1_747_216_801_000_000_000L);
        SourceProgress whole = new SourceProgress("abc", "access.log.1.gz", 3_000, 20, "c1", first);
        // a log that begins as abc does and is another: a key of its own under the same prefix
        SourceProgress other = new SourceProgress("abc-2", "access.log.2.gz", 1_500, 10, null, second);
        SourceProgress elsewhere = new SourceProgress("def", "other.log", 90, 1, "c3", null);
        try (ClickHouseHitStore store = open(db)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED)), start("abc", whole.name()), whole);
            store.writer().append(List.of(), start("abc-2", other.name()), other);
            store.writer().append(List.of(), start("def", elsewhere.name()), elsewhere);
            // appended, and committed or not (the store commits within a second): found all the same
            assertThat(store.writer().imported(List.of("abc"))).extracting(p -> p.readToTheEndOf(null))
                    .containsExactlyInAnyOrder(whole.readToTheEndOf(null), other.readToTheEndOf(null));
            assertThat(store.writer().importedFiles(List.of(first.key(), second.key(), "(dev=803,ino=13)"))).containsExactlyInAnyOrder(whole, other);
            store.writer().flush();
            assertThat(store.writer().imported(List.of("abc"))).containsExactlyInAnyOrder(whole.readToTheEndOf(null), other.readToTheEndOf(null));
        }
        try (ClickHouseHitStore store = open(db)) {
            assertThat(store.writer().imported(List.of("abc", "def", "xyz"))).containsExactlyInAnyOrder(whole.readToTheEndOf(null),
                    other.readToTheEndOf(null), elsewhere);
            assertThat(store.writer().importedFiles(List.of(first.key(), second.key(), "(dev=803,ino=13)"))).containsExactlyInAnyOrder(whole, other);
            assertThat(store.writer().importedFiles(List.of())).isEmpty();
            // the file grew and was read to its end again: its newest stamp is the one answered
            FileStamp grown = new FileStamp(first.key(), 1_800, 1_747_216_900_000_000_000L);
            SourceProgress further = new SourceProgress("abc", "access.log.1.gz", 4_000, 27, "c4", grown);
            store.writer().append(List.of(), whole.readToTheEndOf(null), further);
            store.writer().flush();
            assertThat(store.writer().importedFiles(List.of(first.key()))).containsExactly(further);
            assertThat(store.writer().unchangedLines(java.util.Arrays.asList(grown, first, null, second))).containsExactly(27, -1, -1, other.lines());
            assertThat(store.writer().imported(List.of("abc"))).containsExactlyInAnyOrder(further.readToTheEndOf(null), other.readToTheEndOf(null));
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

    /** The counts as hits in all and the minutes that have any. */
    private static List<Long> minutes(MinuteCounts counts) {
        return List.of(counts.total(), (long) counts.size());
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
            // the second shard lost its hits
            cluster.query(2, "DROP TABLE " + db + ".hits_local");
            assertThatThrownBy(store.health()::checkReadable).isInstanceOf(StoreException.class)
                    .hasMessageStartingWith("the ClickHouse store " + cluster.location(db).shown() + " cannot be read: ")
                    .hasMessageEndingWith("; check that every server of it runs and answers");
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

    @Test
    void writesBatchesLargerThanOneInsertWithoutLosingReorderingOrRepeatingARow() {
        String db = ClickHouseTestCluster.database("batches");
        int rows = ClickHouseHitWriter.FLUSH_ROWS + 30_000; // more than one batch goes out while the appends go on
        long start = Instant.parse("2025-05-14T00:00:00Z").toEpochMilli();
        try (ClickHouseHitStore store = open(db)) {
            for (int i = 0; i < rows; i += 1000) {
                List<CrawlerHit> chunk = new ArrayList<>();
                for (int j = i; j < i + 1000; j++) {
                    chunk.add(hit(start + j / 3 * 1000L, "66.249.66." + (j % 200), "/p" + j, 404, VERIFIED));
                }
                store.writer().append(chunk, new SourceProgress("f1", "access.log", i, i), new SourceProgress("f1", "access.log", i + 1000L, i + 1000L));
                if (i == 60_000) {
                    store.verdicts().update("66.249.66.7", GOOGLEBOT.name(), new Verdict(Verification.spoofed, "PTR refuted"));
                }
            }
        }
        try (ClickHouseHitStore store = open(db)) {
            assertThat(store.health().size()).isEqualTo(rows);
            assertThat(cluster.number(1, "SELECT uniqExact(url) FROM " + db + ".hits")).isEqualTo(rows);
            // three hits a second: an instant's hits newest first, the later stored first
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 4)).extracting(StoredHit::url)
                    .containsExactly("/p129999", "/p129998", "/p129997", "/p129996");
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", rows, rows));
            assertThat(store.verdicts().of(Verification.spoofed)).extracting(StoredVerdict::ip).containsExactly("66.249.66.7");
            assertThat(store.reader().count(HitFilter.ERRORS)).isEqualTo(rows - rows / 200);
        }
    }

    @Test
    void aReadWhileAnotherThreadCommitsSeesEveryHitAppendedBeforeIt() throws InterruptedException {
        // as a report request does while the committer (or an import) commits what this process appended
        long start = Instant.parse("2025-05-14T00:00:00Z").toEpochMilli();
        try (ClickHouseHitStore store = open(ClickHouseTestCluster.database("mid_flush"))) {
            for (int round = 1; round <= 3; round++) {
                List<CrawlerHit> hits = new ArrayList<>();
                for (int i = 0; i < 20_000; i++) {
                    hits.add(hit(start + (round * 20_000L + i) * 1000, "66.249.66." + (i % 200), "/r" + round + "/" + i, 404, VERIFIED));
                }
                Thread committing = Thread.ofPlatform().start(() -> {
                    store.writer().append(hits);
                    store.writer().flush();
                });
                // until the batch is on its way (waiting on its insert) or the committer's lock is held
                while (committing.getState() == Thread.State.RUNNABLE || committing.getState() == Thread.State.NEW) {
                    Thread.onSpinWait();
                }

                assertThat(store.reader().count(HitFilter.ERRORS)).isEqualTo(round * 20_000L);
                committing.join();
            }
        }
    }

    @Test
    void spreadsHitsOverTheShardsByAddressAsTheDistributedTableDoesAndVerdictsOverAll() {
        String db = ClickHouseTestCluster.database("shards");
        try (ClickHouseHitStore store = open(db)) {
            List<CrawlerHit> hits = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                hits.add(hit(Instant.parse("2025-05-14T00:00:00Z").plusSeconds(i).toString(), "66.249.66." + (i % 100), "/p" + i, 404,
                        VERIFIED));
            }
            store.writer().append(hits);
            store.writer().flush();
            assertThat(store.shards()).isEqualTo(2);
        }
        List<Long> held = cluster.perShard("SELECT count() FROM " + db + ".hits_local");
        assertThat(held).allMatch(n -> n > 100).satisfies(n -> assertThat(n.get(0) + n.get(1)).isEqualTo(400));
        // where halfMD5(ip) sends a row, as a Distributed insert would
        assertThat(cluster.number(1, "SELECT count() FROM " + db + ".hits_local WHERE halfMD5(ip) % 2 != 0")).isZero();
        assertThat(cluster.number(2, "SELECT count() FROM " + db + ".hits_local WHERE halfMD5(ip) % 2 != 1")).isZero();
        assertThat(cluster.number(1, "SELECT uniqExact(ip) FROM " + db + ".hits_local") + cluster.number(2, "SELECT uniqExact(ip) FROM "
                + db + ".hits_local")).isEqualTo(100);
        assertThat(cluster.perShard("SELECT count() FROM " + db + ".verdict_log_local")).containsExactly(100L, 100L);
        assertThat(cluster.number(2, "SELECT count() FROM " + db + ".hits")).isEqualTo(400);
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
    void rowsOfABatchNeverCommittedNeverCountEvenOnceItsWriterIsLongGone() {
        String db = ClickHouseTestCluster.database("orphans");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/committed", 404, VERIFIED)));
            store.writer().flush();
        }
        // a writer that registered, committed a batch, wrote the next one to a shard and was killed before its commit
        long now = cluster.number(1, "SELECT toUInt64(now())");
        long crashed = (now << 32) | 7;
        cluster.query(1, "INSERT INTO " + db + ".commits (writer, seq, closed, fingerprint, name, bytes, lines) VALUES ("
                + Long.toUnsignedString(crashed) + ", 0, 0, '', '', 0, 0), (" + Long.toUnsignedString(crashed) + ", 1, 0, '', '', 0, 0)");
        for (int seq = 1; seq <= 2; seq++) {
            cluster.query(1, "INSERT INTO " + db + ".hits_local (ts_ms, writer, seq, n, utc_offset_minutes, ip, method, url, status,"
                    + " crawler, bot_type) VALUES (" + Instant.parse("2025-05-14T10:00:0" + seq + "Z").toEpochMilli() + ", "
                    + Long.toUnsignedString(crashed) + ", " + seq + ", " + seq + ", 0, '66.249.66.2', 'GET', '/batch" + seq + "', 404,"
                    + " 'Googlebot Desktop', 'crawler_search')");
        }
        try (ClickHouseHitStore store = open(db)) {
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/batch1", "/committed");
        }
        // twenty minutes on, every writer here is past its lease: the one that closed counts whole, the killed one to its last commit
        try (ClickHouseHitStore later = ClickHouseHitStore.openWithClockAhead(cluster.location(db), ClickHouseSettings.SERVE, 1200)) {
            assertThat(later.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/batch1", "/committed");
            assertThat(later.health().size()).isEqualTo(2);
        }
    }

    @Test
    void rowsAKilledWriterLeftUncommittedAreNotCheckedAsHitsAndTheNextWriterPastItsLeaseRemovesThem() throws InterruptedException {
        String db = ClickHouseTestCluster.database("leftovers");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/committed", 404, VERIFIED)));
            store.writer().flush();
        }
        // a writer that committed its first batch, wrote its second (hits and a verdict) and was killed before committing it
        long crashed = (cluster.number(1, "SELECT toUInt64(now())") << 32) | 9;
        String writer = Long.toUnsignedString(crashed);
        cluster.query(1, "INSERT INTO " + db + ".commits (writer, seq, closed, fingerprint, name, bytes, lines) VALUES ("
                + writer + ", 0, 0, '', '', 0, 0), (" + writer + ", 1, 0, '', '', 0, 0)");
        for (int seq = 1; seq <= 2; seq++) {
            cluster.query(1, "INSERT INTO " + db + ".hits_local (ts_ms, writer, seq, n, utc_offset_minutes, ip, method, url, status,"
                    + " crawler, bot_type) VALUES (" + Instant.parse("2025-05-14T10:00:0" + seq + "Z").toEpochMilli() + ", " + writer
                    + ", " + seq + ", " + seq + ", 0, '66.249.66.2', 'GET', '/batch" + seq + "', 404, 'Googlebot Desktop', 'crawler_search')");
        }
        cluster.query(1, "INSERT INTO " + db + ".verdict_log_local (ip, crawler, verification, reason, version, writer, seq) VALUES"
                + " ('66.249.66.2', 'Googlebot Desktop', 'spoofed', 'never committed', 1, " + writer + ", 2)");
        String leftover = " WHERE writer = " + writer + " AND seq = 2";

        // what check counts is what the report counts
        assertThat(ClickHouseStoreCheck.check(cluster.location(db), ClickHouseSettings.IMPORT).orElseThrow().contents().hits()).isEqualTo(2);
        try (ClickHouseHitStore store = open(db)) {
            assertThat(store.health().size()).isEqualTo(2);
        }
        assertThat(cluster.number(1, "SELECT count() FROM " + db + ".hits_local" + leftover)).as("within its lease: kept").isEqualTo(1);

        // twenty minutes on, the killed writer is past its lease: the next writer's start removes what it left, and only that
        try (ClickHouseHitStore later = ClickHouseHitStore.openWithClockAhead(cluster.location(db), ClickHouseSettings.SERVE, 1200)) {
            for (int wait = 0; wait < 300 && cluster.number(1, "SELECT count() FROM " + db + ".hits_local" + leftover) > 0; wait++) {
                Thread.sleep(100);
            }
            assertThat(cluster.number(1, "SELECT count() FROM " + db + ".hits_local" + leftover)).isZero();
            for (int wait = 0; wait < 300 && cluster.number(1, "SELECT count() FROM " + db + ".verdict_log_local" + leftover)
                    + cluster.number(1, "SELECT count() FROM " + db + ".minute_counts_local" + leftover) > 0; wait++) {
                Thread.sleep(100);
            }
            assertThat(cluster.number(1, "SELECT count() FROM " + db + ".verdict_log_local" + leftover)).isZero();
            assertThat(cluster.number(1, "SELECT count() FROM " + db + ".minute_counts_local" + leftover)).isZero();
            assertThat(later.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/batch1", "/committed");
        }
        assertThat(cluster.perShard("SELECT count() FROM " + db + ".hits_local").stream().mapToLong(Long::longValue).sum()).isEqualTo(2);
    }

    @Test
    void theServerRefusesTheCommitOfAWriterPastItsLease() {
        String db = ClickHouseTestCluster.database("lease");
        try (ClickHouseHitStore store = open(db)) {
            store.writer().flush();
        }
        long now = cluster.number(1, "SELECT toUInt64(now())");
        long old = (now - ClickHouseSnapshots.LEASE_SECONDS - 5) << 32;
        assertThatThrownBy(() -> cluster.query(1, "INSERT INTO " + db + ".commits (writer, seq, closed, fingerprint, name, bytes, lines)"
                + " VALUES (" + Long.toUnsignedString(old) + ", 1, 0, '', '', 0, 0)")).hasMessageContaining("Code: 395");
        cluster.query(1, "INSERT INTO " + db + ".commits (writer, seq, closed, fingerprint, name, bytes, lines) VALUES ("
                + Long.toUnsignedString((now - 5) << 32) + ", 1, 0, '', '', 0, 0)");
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
                        "sitemap_urls_local", "snapshots", "url_folds", "url_log", "url_log_local", "url_states", "verdict_log_local",
                        "verdicts_latest", "verdicts_local");
        assertThat(cluster.query(2, "SELECT name FROM system.tables WHERE database = '" + db + "' ORDER BY name").split("\n"))
                .containsExactly("hits", "hits_local", "minute_counts", "minute_counts_local", "minute_counts_of_hits", "sitemap_reads_local",
                        "sitemap_urls_local", "url_log", "url_log_local", "verdict_log_local", "verdicts_latest", "verdicts_local");
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
                        "snapshots", "url_folds", "url_log_local", "url_states", "verdict_log_local", "verdicts_latest", "verdicts_local");
    }

    @Test
    void saysWhichServerCannotBeReached() {
        ClickHouseLocation nowhere = ClickHouseLocation.parse("clickhouse://127.0.0.1:1/crawl", null, null);
        assertThatThrownBy(() -> ClickHouseHitStore.open(nowhere, ClickHouseSettings.SERVE)).isInstanceOf(StoreException.class)
                .hasMessage("cannot reach ClickHouse at http://127.0.0.1:1 (connection refused): is it running, and is 1 its HTTP port?");
    }
}
