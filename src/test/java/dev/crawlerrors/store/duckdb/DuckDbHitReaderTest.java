package dev.crawlerrors.store.duckdb;

import static dev.crawlerrors.store.duckdb.DuckDbHitStoreTest.GOOGLEBOT;
import static dev.crawlerrors.store.duckdb.DuckDbHitStoreTest.VERIFIED;
import static dev.crawlerrors.store.duckdb.DuckDbHitStoreTest.hit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.BreakdownCount;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.TimeCount;
import dev.crawlerrors.store.UrlCount;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The DuckDB store's reads through its {@code reader()}: the order of the hits, the filters, the
 * verdict of now for every hit of an address, and what one snapshot answers.
 */
class DuckDbHitReaderTest {

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
                    .containsOnly(tuple("verified", VERIFIED.reason()));
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
    void answersOneSnapshotAlikeWhileHitsAndVerdictsComeAfterIt() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED),
                    hit("2025-05-14T10:01:00Z", "66.249.66.2", "/b", 404, VERIFIED)));
            Snapshot before = store.reader().snapshot();

            store.writer().append(List.of(hit("2025-05-14T10:02:00Z", "66.249.66.1", "/c", 404, VERIFIED)));
            store.verdicts().update("66.249.66.1", GOOGLEBOT.name(), new Verdict(Verification.spoofed, "PTR refuted"));
            Snapshot after = store.reader().snapshot();

            assertThat(store.reader().serves(before)).isTrue();
            assertThat(store.reader().minuteCounts(HitFilter.ERRORS, before).total()).isEqualTo(2);
            assertThat(store.reader().rows(HitFilter.ERRORS, before, Long.MIN_VALUE, Long.MAX_VALUE, 0, 10))
                    .extracting(StoredHit::url, StoredHit::verification).containsExactly(tuple("/b", "verified"), tuple("/a", "verified"));
            assertThat(store.reader().minuteCounts(HitFilter.ERRORS, after).total()).as("spoofed hits are left out").isEqualTo(1);
            assertThat(store.reader().sameVerdicts(before, after)).isFalse();
            assertThat(store.reader().hit(1, before)).map(StoredHit::verification).contains("verified");
            assertThat(store.reader().hit(1, after)).map(StoredHit::verification).contains("spoofed");
            assertThat(store.reader().hit(3, before)).as("stored after the snapshot").isEmpty();
        }
    }

    @Test
    void readsRowsWithinATimeRangeAfterSkippingSome() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            List<CrawlerHit> hits = new ArrayList<>();
            for (int minute = 0; minute < 10; minute++) {
                hits.add(hit("2025-05-14T10:0" + minute + ":00Z", "66.249.66.1", "/m" + minute, 404, VERIFIED));
            }
            store.writer().append(hits);
            Snapshot snapshot = store.reader().snapshot();
            long from = Instant.parse("2025-05-14T10:02:00Z").toEpochMilli();
            long to = Instant.parse("2025-05-14T10:07:00Z").toEpochMilli();

            assertThat(store.reader().rows(HitFilter.ERRORS, snapshot, from, to, 1, 2)).extracting(StoredHit::url).containsExactly("/m5", "/m4");
            assertThat(store.reader().minuteCounts(HitFilter.ERRORS, snapshot).size()).isEqualTo(10);
        }
    }

    @Test
    void countsByCrawlerAndTimeAndGivesEachUrlsCountsForAWindow() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/gone", 404, VERIFIED),
                    hit("2025-05-14T10:30:00Z", "66.249.66.1", "/gone", 404, VERIFIED)));
            Snapshot first = store.reader().snapshot();
            store.writer().append(List.of(hit("2025-05-14T11:10:00Z", "66.249.66.2", "/down", 503, VERIFIED)));
            Snapshot second = store.reader().snapshot();

            assertThat(store.reader().countByCrawler(HitFilter.ERRORS, HitWindow.at(second))).containsExactlyInAnyOrder(
                    new BreakdownCount("Googlebot Desktop", "crawler_search", "verified", 404, 2),
                    new BreakdownCount("Googlebot Desktop", "crawler_search", "verified", 503, 1));
            assertThat(store.reader().countByTime(HitFilter.ERRORS, HitWindow.at(second), 3_600_000L)).containsExactlyInAnyOrder(
                    new TimeCount(Instant.parse("2025-05-14T10:00:00Z").toEpochMilli(), 404, "verified", 2),
                    new TimeCount(Instant.parse("2025-05-14T11:00:00Z").toEpochMilli(), 503, "verified", 1));
            List<UrlCount> since = new ArrayList<>();
            store.reader().forEachUrl(HitFilter.ERRORS, HitWindow.since(first, second), since::add);
            assertThat(since).extracting(UrlCount::url, UrlCount::status, UrlCount::hits).containsExactly(tuple("/down", 503, 1L));
            List<UrlCount> all = new ArrayList<>();
            store.reader().forEachUrl(HitFilter.ERRORS, HitWindow.at(second), all::add);
            assertThat(all).extracting(UrlCount::url, UrlCount::hits).containsExactlyInAnyOrder(tuple("/gone", 2L), tuple("/down", 1L));
        }
    }

    @Test
    void readsTheSpoofedViewOfManyClaimsExactlyWhenItIsAFewOfTheHits() {
        // 150 spoofed addresses (more claims than a statement lists), one hit in 21: the view's pages
        // are read with the claims' condition in the statement, and must equal the hits themselves
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            Verdict spoofed = new Verdict(Verification.spoofed, "claims Googlebot; not in any list");
            Instant start = Instant.parse("2025-05-14T00:00:00Z");
            List<CrawlerHit> hits = new ArrayList<>();
            List<String> spoofedUrls = new ArrayList<>();
            for (int i = 0; i < 150 * 21; i++) {
                String time = start.plusSeconds(7L * i).toString();
                if (i % 21 == 10) {
                    int address = i / 21;
                    hits.add(hit(time, "203.0.113." + (address % 250) + (address < 250 ? "" : "0"), "/fake" + address, 404, spoofed));
                    spoofedUrls.add(0, "/fake" + address);
                } else {
                    hits.add(hit(time, "66.249.66." + (i % 20), "/real" + i, 404, VERIFIED));
                }
            }
            store.writer().append(hits);
            HitFilter onlySpoofed = new HitFilter(List.of(), Set.of(), Set.of(Verification.spoofed), null, null, null, null);
            Snapshot before = store.reader().snapshot();
            for (int address = 0; address < 10; address++) {
                store.verdicts().update("203.0.113." + address, GOOGLEBOT.name(), VERIFIED);
            }
            Snapshot after = store.reader().snapshot();

            assertThat(store.reader().minuteCounts(onlySpoofed, before).total()).isEqualTo(150);
            assertThat(store.reader().rows(onlySpoofed, before, Long.MIN_VALUE, Long.MAX_VALUE, 0, 100)).extracting(StoredHit::url)
                    .containsExactlyElementsOf(spoofedUrls.subList(0, 100));
            assertThat(store.reader().rows(onlySpoofed, before, Long.MIN_VALUE, Long.MAX_VALUE, 100, 100)).extracting(StoredHit::url)
                    .containsExactlyElementsOf(spoofedUrls.subList(100, 150));
            List<String> stillSpoofed = spoofedUrls.subList(0, 140);
            assertThat(store.reader().minuteCounts(onlySpoofed, after).total()).as("ten addresses verified since").isEqualTo(140);
            assertThat(store.reader().rows(onlySpoofed, after, Long.MIN_VALUE, Long.MAX_VALUE, 90, 100)).extracting(StoredHit::url)
                    .containsExactlyElementsOf(stillSpoofed.subList(90, 140));
            assertThat(store.reader().rows(onlySpoofed, before, Long.MIN_VALUE, Long.MAX_VALUE, 140, 100)).as("the snapshot before, again")
                    .extracting(StoredHit::url).containsExactlyElementsOf(spoofedUrls.subList(140, 150));
        }
    }
}
