package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.FileStamp;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.PositionMovedException;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.StoredVerdict;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DuckDbHitStoreTest {

    static final Crawler GOOGLEBOT = new Crawler("Googlebot Desktop", "Google", BotType.crawler_search,
            List.of("Googlebot"), null, List.of("common-crawlers.json"), null);
    static final Verdict VERIFIED = new Verdict(Verification.verified, "in common-crawlers.json 66.249.66.0/27");

    @TempDir
    Path dir;

    static CrawlerHit hit(String time, String ip, String url, int status, Verdict verdict) {
        Hit hit = new Hit(Instant.parse(time).toEpochMilli(), 120, ip, "GET", url, status, -1, null, "Googlebot", Double.NaN, null);
        return new CrawlerHit(hit, GOOGLEBOT, verdict);
    }

    /** Where a log's reading starts before anything of it is recorded. */
    static SourceProgress start(String key, String name) {
        return new SourceProgress(key, name, 0, 0);
    }

    @Test
    void keepsHitsAcrossReopeningAndContinuesTheirIds() {
        Path file = dir.resolve("store.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED)));
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/b", 404, VERIFIED)));

            List<StoredHit> rows = store.reader().page(HitFilter.ERRORS, 0, 10);

            assertThat(rows).extracting(StoredHit::url).containsExactly("/b", "/a");
            assertThat(rows).extracting(StoredHit::id).containsExactly(2L, 1L);
        }
    }

    @Test
    void storesEachRowsOwnAgentAndAddressWhetherItsStringsAreSharedOrNot() {
        // the writer encodes a string it met before only once, by identity: shared strings, equal
        // copies and different values in every order, over more than one of DuckDB's chunks
        List<String> agents = List.of("Googlebot/2.1", "bingbot/2.0", "GPTBot/1.2");
        List<CrawlerHit> hits = new ArrayList<>();
        Instant start = Instant.parse("2025-05-14T00:00:00Z");
        for (int i = 0; i < 5_000; i++) {
            String agent = switch (i % 4) {
                case 0, 1 -> agents.get(i % 3);
                case 2 -> new String(agents.get(i % 3).toCharArray());
                default -> "agent " + i;
            };
            String ip = i % 2 == 0 ? "66.249.66." + (i % 7) : new String(("66.249.66." + (i % 7)).toCharArray());
            Hit hit = new Hit(start.plusSeconds(i).toEpochMilli(), 0, ip, i % 5 == 0 ? "HEAD" : "GET", "/" + i, 404, -1, null,
                    agent, Double.NaN, null);
            hits.add(new CrawlerHit(hit, GOOGLEBOT, VERIFIED));
        }
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(hits);

            List<StoredHit> rows = store.reader().page(HitFilter.ERRORS, 0, 5_000);

            assertThat(rows).hasSize(5_000);
            for (StoredHit row : rows) {
                Hit hit = hits.get((int) row.id() - 1).hit();
                assertThat(row.url()).isEqualTo(hit.url());
                assertThat(row.userAgent()).as(row.url()).isEqualTo(hit.userAgent());
                assertThat(row.ip()).as(row.url()).isEqualTo(hit.ip());
                assertThat(row.method()).as(row.url()).isEqualTo(hit.method());
            }
        }
    }

    @Test
    void ordersNewestFirstAndBreaksTiesByTheLaterId() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:00Z", "66.249.66.1", "/first", 308, VERIFIED),
                    hit("2025-05-14T11:00:00Z", "66.249.66.1", "/newest", 308, VERIFIED),
                    hit("2025-05-14T10:00:00Z", "66.249.66.2", "/second", 308, VERIFIED)));

            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url)
                    .containsExactly("/newest", "/second", "/first");
            assertThat(store.reader().page(HitFilter.ERRORS, 1, 1)).extracting(StoredHit::url).containsExactly("/second");
        }
    }

    @Test
    void countsOnlyErrorsAndLeavesSpoofedHitsOutByDefault() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            Verdict spoofed = new Verdict(Verification.spoofed, "claims Googlebot; not in any list");
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:00Z", "66.249.66.1", "/ok", 200, VERIFIED),
                    hit("2025-05-14T10:00:01Z", "66.249.66.1", "/moved", 301, VERIFIED),
                    hit("2025-05-14T10:00:02Z", "203.0.113.9", "/fake", 404, spoofed)));

            assertThat(store.health().size()).isEqualTo(3);
            assertThat(store.reader().count(HitFilter.ERRORS)).isEqualTo(1);
            HitFilter onlySpoofed = new HitFilter(List.of(), Set.of(), Set.of(Verification.spoofed), null, null, null, null);
            assertThat(store.reader().page(onlySpoofed, 0, 10)).extracting(StoredHit::url).containsExactly("/fake");
        }
    }

    @Test
    void showsTheVerdictAsOfNowForEveryHitFromTheAddress() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            Verdict pending = new Verdict(Verification.unverified, "not checked yet");
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, pending),
                    hit("2025-05-14T10:00:01Z", "66.249.66.1", "/b", 404, pending)));

            store.verdicts().update("66.249.66.1", "Googlebot Desktop", VERIFIED);

            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10))
                    .extracting(StoredHit::verification, StoredHit::reason)
                    .containsOnly(org.assertj.core.groups.Tuple.tuple("verified", VERIFIED.reason()));
        }
    }

    @Test
    void aProvisionalVerdictArrivingAfterTheFinalOneDoesNotOverwriteIt() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            Verdict provisional = new Verdict(Verification.unverified, "claims Googlebot; reverse DNS check pending");
            store.verdicts().update("66.249.66.9", "Googlebot Desktop", VERIFIED);
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.9", "/a", 404, provisional)));

            assertThat(store.reader().page(HitFilter.ERRORS, 0, 1).get(0).verification()).isEqualTo("verified");
            assertThat(store.verdicts().of(Verification.verified)).extracting(StoredVerdict::ip).containsExactly("66.249.66.9");
            assertThat(store.verdicts().of(Verification.unverified)).isEmpty();
        }
    }

    @Test
    void filtersByStatusClassTimeUrlPrefixAndBotType() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            List<CrawlerHit> hits = new ArrayList<>();
            hits.add(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/antwerp/meir", 308, VERIFIED));
            hits.add(hit("2025-05-14T12:00:00Z", "66.249.66.1", "/antwerp/straten/a", 404, VERIFIED));
            hits.add(hit("2025-05-15T10:00:00Z", "66.249.66.1", "/ghent/straten/b", 404, VERIFIED));
            store.writer().append(hits);

            HitFilter notFound = new HitFilter(List.of(new StatusRange(400, 499)), Set.of(), Set.of(), null, null, null, null);
            HitFilter antwerp = new HitFilter(List.of(), Set.of(), Set.of(), null, null, "/antwerp/", null);
            HitFilter day = new HitFilter(List.of(), Set.of(), Set.of(), Instant.parse("2025-05-14T00:00:00Z"),
                    Instant.parse("2025-05-15T00:00:00Z"), null, null);
            HitFilter ads = new HitFilter(List.of(), Set.of(BotType.crawler_ads), Set.of(), null, null, null, null);

            assertThat(store.reader().count(notFound)).isEqualTo(2);
            assertThat(store.reader().count(antwerp)).isEqualTo(2);
            assertThat(store.reader().count(day)).isEqualTo(2);
            assertThat(store.reader().count(ads)).isZero();
        }
    }

    @Test
    void recordsHowFarALogWasImportedWithItsHitsAndKeepsTheLatest() {
        Path file = dir.resolve("store.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED)),
                    start("f1", "access.log"), new SourceProgress("f1", "access.log", 180, 1));
            store.writer().append(List.of(), new SourceProgress("f1", "access.log", 180, 1), new SourceProgress("f1", "access.log", 360, 2));
            store.writer().append(List.of(hit("2025-05-14T10:00:01Z", "66.249.66.1", "/b", 404, VERIFIED)),
                    start("f2", "access.log.1"), new SourceProgress("f2", "access.log.1", 90, 1));
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThat(store.writer().imported(List.of("f1", "f2", "f3")))
                    .containsExactlyInAnyOrder(new SourceProgress("f1", "access.log", 360, 2), new SourceProgress("f2", "access.log.1", 90, 1));
            assertThat(store.writer().imported(List.of())).isEmpty();
            assertThat(store.health().size()).isEqualTo(2);
        }
    }

    @Test
    void recordsALogsPositionOnlyFromWhereTheStoreHasItAndRefusesAWriterThatReadFromElsewhere() {
        Path file = dir.resolve("store.duckdb");
        SourceProgress at100 = new SourceProgress("f1", "access.log", 100, 10);
        SourceProgress at200 = new SourceProgress("f1", "access.log", 200, 20);
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/first", 404, VERIFIED)), start("f1", "access.log"), at100);
            // a second reader of the same log, from its start: its lines are stored already, and its hits are not stored again
            assertThatThrownBy(() -> store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/first", 404, VERIFIED)),
                    start("f1", "access.log.1"), new SourceProgress("f1", "access.log.1", 100, 10)))
                    .isInstanceOf(PositionMovedException.class)
                    .hasMessage("access.log.1: another writer stored lines of it while this one read from line 1 (the store has it up to line 10"
                            + " now); read on from there")
                    .satisfies(e -> assertThat(((PositionMovedException) e).keys()).containsExactly("f1"));
            store.writer().append(List.of(hit("2025-05-14T10:00:01Z", "66.249.66.1", "/second", 404, VERIFIED)), at100, at200);
            store.writer().flush();
            // committed now: compared with what the store holds
            assertThatThrownBy(() -> store.writer().append(List.of(), at100, new SourceProgress("f1", "access.log", 150, 15)))
                    .isInstanceOf(PositionMovedException.class);
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(at200);
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThatThrownBy(() -> store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/first", 404, VERIFIED)),
                    start("f1", "access.log"), at100)).isInstanceOf(PositionMovedException.class);
            store.writer().append(List.of(hit("2025-05-14T10:00:02Z", "66.249.66.1", "/third", 404, VERIFIED)), at200,
                    new SourceProgress("f1", "access.log", 300, 30));
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/third", "/second", "/first");
        }
    }

    /**
     * A file is unchanged only with the very stamp it was recorded with, whichever way the store
     * compares: reading every recorded file (few recorded), handing the stamps to a query (many more
     * recorded than asked about), or, before a commit, against what was appended.
     */
    @Test
    void findsAFileUnchangedOnlyWithTheStampItWasRecordedWithWhicheverWayTheStampsAreCompared() {
        Path file = dir.resolve("store.duckdb");
        List<FileStamp> recorded = new ArrayList<>();
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            for (int i = 0; i < 40; i++) {
                FileStamp stamp = new FileStamp("(dev=803,ino=" + i + ")", 1_000 + i, 1_747_216_800_000_000_000L + i);
                recorded.add(stamp);
                store.writer().append(List.of(), start("f" + i, "E2.b" + i + ".gz"), new SourceProgress("f" + i, "E2.b" + i + ".gz", 5_000 + i, 20 + i,
                        "c" + i, stamp));
            }
            // not committed yet: what was appended answers
            assertThat(store.writer().unchangedLines(List.of(recorded.get(3), new FileStamp("(dev=803,ino=3)", 1_003, 1L)))).containsExactly(23, -1);
        }
        FileStamp grown = new FileStamp("(dev=803,ino=5)", 2_000, 1_747_216_800_000_000_005L);
        FileStamp touched = new FileStamp("(dev=803,ino=6)", 1_006, 1_747_216_900_000_000_000L);
        FileStamp otherDevice = new FileStamp("(dev=804,ino=7)", 1_007, 1_747_216_800_000_000_007L);
        FileStamp unknown = new FileStamp("(dev=803,ino=99)", 1_000, 1_747_216_800_000_000_000L);
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            // eleven asked about, forty recorded: every recorded file read
            List<FileStamp> asked = new ArrayList<>(recorded.subList(0, 5));
            asked.addAll(Arrays.asList(grown, touched, otherDevice, unknown, null, recorded.get(39)));
            assertThat(store.writer().unchangedLines(asked)).containsExactly(20, 21, 22, 23, 24, -1, -1, -1, -1, -1, 59);
            // three asked about, forty recorded: the stamps handed to the query
            assertThat(store.writer().unchangedLines(Arrays.asList(recorded.get(8), touched, null, recorded.get(9))))
                    .containsExactly(28, -1, -1, 29);
            assertThat(store.writer().unchangedLines(List.of())).isEmpty();
            // a file read again to its end: its new stamp is the one recorded, whether committed or not
            store.writer().append(List.of(), start("f5b", "E2.b5.gz"), new SourceProgress("f5b", "E2.b5.gz", 9_000, 40, "c5b", grown));
            assertThat(store.writer().unchangedLines(List.of(grown, recorded.get(5)))).containsExactly(40, -1);
            store.writer().flush();
            assertThat(store.writer().unchangedLines(List.of(grown, recorded.get(5)))).containsExactly(40, -1);
            assertThat(store.writer().unchangedLines(recorded.subList(10, 40))).containsExactly(
                    recorded.subList(10, 40).stream().mapToLong(stamp -> 20 + Long.parseLong(stamp.key().replaceAll("\\D+", " ").trim().split(" ")[1]))
                            .toArray());
        }
    }

    @Test
    void findsProgressAppendedSinceANewStoreOpenedAndProgressStoredBeforeItOpened() {
        Path file = dir.resolve("store.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThat(store.writer().imported(List.of("f1"))).isEmpty();
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED))); // hits without a log
            assertThat(store.writer().imported(List.of("f1"))).isEmpty();
            store.writer().append(List.of(), start("f1", "access.log"), new SourceProgress("f1", "access.log", 180, 1)); // buffered, not yet written
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", 180, 1));
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", 180, 1));
        }
    }

    @Test
    void writesBatchesInTheBackgroundWithoutLosingReorderingOrRepeatingARow() {
        Path file = dir.resolve("store.duckdb");
        int rows = 130_000; // more than two batches go to the writer while the appends go on
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            for (int i = 0; i < rows; i += 1000) {
                List<CrawlerHit> chunk = new ArrayList<>();
                for (int j = i; j < i + 1000; j++) {
                    chunk.add(hit(Instant.parse("2025-05-14T00:00:00Z").plusSeconds(j).toString(), "66.249.66." + (j % 200),
                            "/p" + j, 404, VERIFIED));
                }
                store.writer().append(chunk, new SourceProgress("f1", "access.log", i, i), new SourceProgress("f1", "access.log", i + 1000L, i + 1000L));
                if (i == 60_000) {
                    // a verdict that changes while a batch may be in flight is not lost to it
                    store.verdicts().update("66.249.66.7", GOOGLEBOT.name(), new Verdict(Verification.spoofed, "PTR refuted"));
                }
            }
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThat(store.health().size()).isEqualTo(rows);
            List<StoredHit> newest = store.reader().page(HitFilter.ERRORS, 0, 3);
            assertThat(newest).extracting(StoredHit::url).containsExactly("/p129999", "/p129998", "/p129997");
            assertThat(newest).extracting(StoredHit::id).containsExactly(130_000L, 129_999L, 129_998L);
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", rows, rows));
            assertThat(store.verdicts().of(Verification.spoofed)).extracting(StoredVerdict::ip).containsExactly("66.249.66.7");
        }
    }

    @Test
    void storesTheRowsOfABatchInTimeOrderKeepingLogOrderWithinAnInstant() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            // as Apache writes them: stamped with their start, logged when they end
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:02Z", "66.249.66.1", "/quick", 404, VERIFIED),
                    hit("2025-05-14T10:00:00Z", "66.249.66.1", "/slow", 404, VERIFIED),
                    hit("2025-05-14T10:00:02Z", "66.249.66.1", "/quick-too", 404, VERIFIED),
                    hit("2025-05-14T10:00:01Z", "66.249.66.1", "/middle", 404, VERIFIED)));

            List<StoredHit> rows = store.reader().page(HitFilter.ERRORS, 0, 10);

            assertThat(rows).extracting(StoredHit::url).containsExactly("/quick-too", "/quick", "/middle", "/slow");
            assertThat(rows).extracting(StoredHit::id).containsExactly(4L, 3L, 2L, 1L);
        }
    }

    @Test
    void sortsABatchWhoseTimeOrderBreaksBetweenTwoAppends() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:00Z", "66.249.66.1", "/first", 404, VERIFIED),
                    hit("2025-05-14T10:00:02Z", "66.249.66.1", "/late", 404, VERIFIED)));
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:01Z", "66.249.66.1", "/early", 404, VERIFIED),
                    hit("2025-05-14T10:00:02Z", "66.249.66.1", "/late-too", 404, VERIFIED)));

            List<StoredHit> rows = store.reader().page(HitFilter.ERRORS, 0, 10);

            assertThat(rows).extracting(StoredHit::url).containsExactly("/late-too", "/late", "/early", "/first");
            assertThat(rows).extracting(StoredHit::id).containsExactly(4L, 3L, 2L, 1L);
        }
    }

    @Test
    void aBatchIsInTimeOrderUntilAHitComesEarlierThanTheOneBeforeIt() {
        DuckDbBatch batch = new DuckDbBatch();
        assertThat(batch.inTimeOrder()).isTrue();

        batch.add(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED), 1);
        batch.add(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/b", 404, VERIFIED), 2);
        batch.add(hit("2025-05-14T10:00:01Z", "66.249.66.1", "/c", 404, VERIFIED), 3);
        assertThat(batch.inTimeOrder()).isTrue();

        batch.add(hit("2025-05-14T10:00:00.999Z", "66.249.66.1", "/d", 404, VERIFIED), 4);
        assertThat(batch.inTimeOrder()).isFalse();

        batch.add(hit("2025-05-14T10:00:05Z", "66.249.66.1", "/e", 404, VERIFIED), 5);
        assertThat(batch.inTimeOrder()).isFalse();
        assertThat(batch.hits).extracting(h -> h.hit().url()).containsExactly("/a", "/b", "/c", "/d", "/e");

        // sorted by time, stable within an instant, each hit keeping its claim's number
        batch.sortByTime();
        assertThat(batch.hits).extracting(h -> h.hit().url()).containsExactly("/a", "/b", "/d", "/c", "/e");
        assertThat(java.util.Arrays.copyOf(batch.claims, 5)).containsExactly(1, 2, 4, 3, 5);
    }

    @Test
    void storesUrlsAndAgentsExactlyAsGiven() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            String url = "/<script>alert('x')</script>?q=\"1\";DROP TABLE hits";
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", url, 404, VERIFIED)));

            assertThat(store.reader().page(HitFilter.ERRORS, 0, 1).get(0).url()).isEqualTo(url);
        }
    }

    @Test
    void storesEveryFieldOfAHitIncludingNullsAndTextBeyondAscii() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            Hit full = new Hit(Instant.parse("2025-05-14T10:00:00.123Z").toEpochMilli(), -330, "2001:4860:4801:10::1", "PROPFIND",
                    "/café/€?q=日本語", 503, 1234, "https://example.org/ä", "Googlebot/2.1 (ünïcödé 😀)", 12.5, "www.example.org");
            Hit bare = new Hit(Instant.parse("2025-05-14T10:00:01Z").toEpochMilli(), 0, "66.249.66.1", "", "/", 404, -1, null,
                    null, Double.NaN, null);
            store.writer().append(List.of(new CrawlerHit(full, GOOGLEBOT, VERIFIED), new CrawlerHit(bare, GOOGLEBOT, VERIFIED)));

            List<StoredHit> rows = store.reader().page(HitFilter.ERRORS, 0, 10);

            assertThat(rows).containsExactly(
                    new StoredHit(2, bare.epochMillis(), 0, "66.249.66.1", "", "/", 404, null, "Googlebot Desktop",
                            "crawler_search", "verified", VERIFIED.reason(), null, null),
                    new StoredHit(1, full.epochMillis(), -330, "2001:4860:4801:10::1", "PROPFIND", "/café/€?q=日本語", 503, 12.5,
                            "Googlebot Desktop", "crawler_search", "verified", VERIFIED.reason(), "Googlebot/2.1 (ünïcödé 😀)",
                            "www.example.org"));
        }
    }

    @Test
    void storesTheNumbersOfAHitAsGivenAndNullOnlyWhereTheLogHasNone() throws Exception {
        Path file = dir.resolve("store.duckdb");
        long time = Instant.parse("2025-05-14T10:00:00Z").toEpochMilli();
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(
                    new CrawlerHit(new Hit(time, -720, "66.249.66.1", "GET", "/", 599, 0, null, null, 0.0, null), GOOGLEBOT, VERIFIED),
                    new CrawlerHit(new Hit(time + 1, 840, "66.249.66.1", "GET", "/", 100, 9_876_543_210L, null, null, 0.25, null),
                            GOOGLEBOT, VERIFIED),
                    new CrawlerHit(new Hit(time + 2, 0, "66.249.66.1", "GET", "/", 404, -1, null, null, Double.NaN, null),
                            GOOGLEBOT, VERIFIED)));
        }
        DuckDbNativeLibrary.prepare();
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id, epoch_ms(ts), utc_offset_minutes, status, bytes, duration_ms FROM hits ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getLong(1) + " " + (rs.getLong(2) - time) + " " + rs.getObject(3) + " " + rs.getObject(4) + " "
                        + rs.getObject(5) + " " + rs.getObject(6));
            }
        }
        assertThat(rows).containsExactly("1 0 -720 599 0 0.0", "2 1 840 100 9876543210 0.25", "3 2 0 404 null null");
    }

    @Test
    void twoStoresOpenAtOnceEachWriteTheirOwnHits() {
        try (DuckDbHitStore one = DuckDbHitStore.open(dir.resolve("one.duckdb"));
                DuckDbHitStore two = DuckDbHitStore.open(dir.resolve("two.duckdb"))) {
            one.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/one", 404, VERIFIED)));
            two.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.2", "/two", 404, VERIFIED),
                    hit("2025-05-14T10:00:01Z", "66.249.66.2", "/two-again", 404, VERIFIED)));

            assertThat(one.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/one");
            assertThat(two.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/two-again", "/two");
        }
    }

    /** {@code rows} hits one second apart from {@code first} on, each a 404 of its own URL, in chunks of 1,000 with their progress. */
    static void appendChunks(DuckDbHitStore store, int first, int rows) {
        for (int i = first; i < first + rows; i += 1000) {
            List<CrawlerHit> chunk = new ArrayList<>();
            for (int j = i; j < i + 1000; j++) {
                chunk.add(hit(Instant.parse("2025-05-14T00:00:00Z").plusSeconds(j).toString(), "66.249.66." + (j % 200),
                        "/p" + j, 404, VERIFIED));
            }
            store.writer().append(chunk, new SourceProgress("f1", "access.log", i, i), new SourceProgress("f1", "access.log", i + 1000L, i + 1000L));
        }
    }

    @Test
    void commitsLargeTransactionsWholeRowGroupsAtATimeWithTheProgressThatCoversThem() {
        Path file = dir.resolve("store.duckdb");
        // three batches commit 150,000 rows (DuckDB writes them to the file at once), the last
        // 34,000 commit at close (through the write-ahead log)
        int rows = 184_000;
        try (DuckDbHitStore store = DuckDbHitStore.open(file, 1, DuckDbHitStore.ROW_GROUP_ROWS)) {
            appendChunks(store, 0, rows);
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThat(store.health().size()).isEqualTo(rows);
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", rows, rows));
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 2)).extracting(StoredHit::id).containsExactly((long) rows, rows - 1L);
            assertThat(store.reader().page(HitFilter.ERRORS, rows - 1, 2)).extracting(StoredHit::url).containsExactly("/p0");
        }
    }

    @Test
    void aQuerySeesTheBatchesThatAreWrittenButNotYetCommitted() {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("store.duckdb"))) {
            appendChunks(store, 0, 60_000); // 50,000 rows go to the writer, in a transaction left open

            assertThat(store.health().size()).isEqualTo(60_000);
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", 60_000, 60_000));
        }
    }

    @Test
    void aFailedWriteTakesTheHitsAndProgressOfItsWholeTransactionWithItAndTheStoreGoesOn() {
        Path file = dir.resolve("store.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            appendChunks(store, 0, 60_000); // the first 50,000 are written in a transaction left open
            // no method: its progress and verdict are written, then the hits' INSERT fails
            Hit noMethod = new Hit(Instant.parse("2025-05-15T00:00:00Z").toEpochMilli(), 0, "66.249.66.250", null, "/x", 404, -1,
                    null, "Googlebot", Double.NaN, null);
            CrawlerHit before = hit("2025-05-14T23:59:59Z", "66.249.66.2", "/before", 404, VERIFIED);
            store.writer().append(List.of(before, new CrawlerHit(noMethod, GOOGLEBOT, VERIFIED)), new SourceProgress("f1", "access.log", 60_000, 60_000),
                    new SourceProgress("f1", "access.log", 60_100, 60_001));

            assertThatThrownBy(store.writer()::flush).isInstanceOf(StoreException.class).hasMessageContaining("cannot write to");
            assertThat(store.health().size()).isZero();
            assertThat(store.writer().imported(List.of("f1"))).isEmpty();
            assertThat(store.verdicts().of(Verification.verified)).isEmpty();

            // the same claim, with the key string its hits before the failure carried (as the verifier hands it out)
            CrawlerHit again = new CrawlerHit(hit("2025-05-15T00:00:02Z", "66.249.66.2", "/again", 404, VERIFIED).hit(), GOOGLEBOT,
                    VERIFIED, before.claim());
            // the log's progress went too: its next append starts where the store has it, at its start
            store.writer().append(List.of(hit("2025-05-15T00:00:01Z", "66.249.66.1", "/after", 404, VERIFIED), again),
                    start("f1", "access.log"), new SourceProgress("f1", "access.log", 60_200, 60_003));
            store.writer().flush();
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/again", "/after");
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", 60_200, 60_003));
            // the verdicts went with the failed transaction, and came again with these hits, a claim met before too
            assertThat(store.verdicts().of(Verification.verified)).extracting(StoredVerdict::ip).containsExactlyInAnyOrder("66.249.66.1",
                    "66.249.66.2");
        }
    }
}
