package dev.crawlerrors.store.duckdb;

import static dev.crawlerrors.crawler.SampleHits.SPOOFED;
import static dev.crawlerrors.crawler.SampleHits.UNVERIFIED;
import static dev.crawlerrors.crawler.SampleHits.VERIFIED;
import static dev.crawlerrors.crawler.SampleHits.googlebot;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoredHit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * A page's rows when the view takes more claims than a statement lists (more than 100 on each
 * side): read in one statement without the claims' condition, the claims checked against the
 * snapshot's verdicts outside DuckDB. Each page is checked against the view worked out here from the hits as appended.
 */
class DuckDbPageRowsTest {

    private static final long START = java.time.Instant.parse("2025-05-14T00:00:00Z").toEpochMilli();
    private static final int CLAIMS = 300;

    /** Claim {@code n}'s address; claims 0 to 159 are spoofed, 160 to 229 verified, the rest unverified. */
    private static String ip(int n) {
        return "10.0." + (n / 200) + "." + (n % 200);
    }

    private static Verdict verdict(int claim) {
        return claim < 160 ? SPOOFED : claim < 230 ? VERIFIED : UNVERIFIED;
    }

    /** A hit as appended (its URL names it; the store numbers a batch in time order), with its claim. */
    private record Appended(long order, long millis, int claim, int status) {
    }

    @Test
    void everyPageOfAViewOfManyClaimsIsTheViewsHitsNewestFirstWhereverItStartsAndEnds() {
        SplittableRandom random = new SplittableRandom(19);
        List<Appended> appended = new ArrayList<>();
        List<CrawlerHit> hits = new ArrayList<>();
        for (int i = 0; i < 6_000; i++) {
            // thirty minutes, many hits to a second: ties broken by the later number
            long millis = START + random.nextInt(30 * 60) * 1_000L;
            int claim = random.nextInt(CLAIMS);
            int status = random.nextInt(10) == 0 ? 200 : 404;
            appended.add(new Appended(i, millis, claim, status));
            hits.add(googlebot(millis, ip(claim), "/" + i, status, verdict(claim)));
        }
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(hits);
            Snapshot at = store.reader().snapshot();
            HitFilter spoofedOnly = new HitFilter(List.of(), Set.of(), Set.of(Verification.spoofed), null, null, null, null);

            for (HitFilter filter : List.of(HitFilter.ERRORS, spoofedOnly)) {
                Predicate<Appended> shown = filter == HitFilter.ERRORS ? a -> a.status() >= 300 && a.claim() >= 160
                        : a -> a.status() >= 300 && a.claim() < 160;
                for (int minute = 0; minute < 30; minute += 7) {
                    long from = START + minute * 60_000L;
                    long to = from + (1 + minute % 3) * 60_000L;
                    List<String> view = expected(appended, a -> shown.test(a) && a.millis() >= from && a.millis() < to);
                    for (int skip : new int[] {0, 1, 37, 150, view.size() - 5, view.size()}) {
                        for (int limit : new int[] {1, 100, 1_000}) {
                            List<String> page = view.subList(Math.min(skip, view.size()), Math.min(skip + limit, view.size()));
                            assertThat(store.reader().rows(filter, at, from, to, skip, limit)).extracting(StoredHit::url)
                                    .as("%s, minutes %d to %d, skip %d, limit %d", filter == HitFilter.ERRORS ? "errors" : "spoofed",
                                            minute, (to - START) / 60_000, skip, limit)
                                    .containsExactlyElementsOf(page);
                        }
                    }
                }
                List<String> whole = expected(appended, shown);
                assertThat(store.reader().page(filter, 250, 100)).extracting(StoredHit::url).containsExactlyElementsOf(whole.subList(250, 350));
            }
        }
    }

    @Test
    void aPageBehindThousandsOfHitsTheViewLeavesOutReadsOnUntilItIsFull() {
        List<CrawlerHit> hits = new ArrayList<>();
        // every claim named once first, so that the view lists more than a statement would
        for (int claim = 0; claim < CLAIMS; claim++) {
            hits.add(googlebot(START, ip(claim), "/claim", 404, verdict(claim)));
        }
        for (int i = 0; i < 50; i++) {
            hits.add(googlebot(START + 60_000 + i, ip(200), "/kept/" + i, 404, VERIFIED));
        }
        for (int i = 0; i < 5_000; i++) {
            hits.add(googlebot(START + 120_000 + i, ip(i % 160), "/spoofed/" + i, 404, SPOOFED));
        }
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(hits);
            Snapshot at = store.reader().snapshot();
            long from = START + 60_000;
            long to = START + 600_000;

            assertThat(store.reader().rows(HitFilter.ERRORS, at, from, to, 0, 100)).extracting(StoredHit::url)
                    .containsExactlyElementsOf(kept(49, 0));
            assertThat(store.reader().rows(HitFilter.ERRORS, at, from, to, 10, 20)).extracting(StoredHit::url)
                    .containsExactlyElementsOf(kept(39, 20));
        }
    }

    /** A 404 of each claim, a second after the claim before, at {@code /} and the claim's number. */
    private static List<CrawlerHit> aHitOfEachClaimASecondApart() {
        List<CrawlerHit> hits = new ArrayList<>();
        for (int claim = 0; claim < CLAIMS; claim++) {
            hits.add(googlebot(START + claim * 1_000L, ip(claim), "/" + claim, 404, verdict(claim)));
        }
        return hits;
    }

    @Test
    void aPageAtASnapshotShowsTheHitsOfAClaimWhoseVerdictChangedAfterIt() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(aHitOfEachClaimASecondApart());
            Snapshot before = store.reader().snapshot();
            store.verdicts().update(ip(299), "Googlebot Desktop", SPOOFED);
            store.verdicts().update(ip(5), "Googlebot Desktop", VERIFIED);
            Snapshot after = store.reader().snapshot();

            assertThat(store.reader().rows(HitFilter.ERRORS, before, START, START + 3_600_000, 0, 3)).extracting(StoredHit::url, StoredHit::verification)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("/299", "unverified"),
                            org.assertj.core.groups.Tuple.tuple("/298", "unverified"),
                            org.assertj.core.groups.Tuple.tuple("/297", "unverified"));
            assertThat(store.reader().rows(HitFilter.ERRORS, after, START, START + 3_600_000, 0, 2)).extracting(StoredHit::url)
                    .containsExactly("/298", "/297");
            assertThat(store.reader().rows(HitFilter.ERRORS, after, START, START + 3_600_000, 138, 5)).extracting(StoredHit::url, StoredHit::verification)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("/160", "verified"),
                            org.assertj.core.groups.Tuple.tuple("/5", "verified"));
        }
    }

    @Test
    void aPageReadAgainAtItsSnapshotIsTheSameWhateverArrivedSinceAndANewerSnapshotSeesTheNewHits() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(aHitOfEachClaimASecondApart());
            Snapshot before = store.reader().snapshot();
            List<StoredHit> first = store.reader().rows(HitFilter.ERRORS, before, START, START + 3_600_000, 0, 2);
            store.writer().append(List.of(googlebot(START + 400_000, ip(250), "/new", 404, UNVERIFIED)));
            store.verdicts().update(ip(299), "Googlebot Desktop", SPOOFED);
            Snapshot after = store.reader().snapshot();

            assertThat(store.reader().rows(HitFilter.ERRORS, before, START, START + 3_600_000, 0, 2)).isEqualTo(first)
                    .extracting(StoredHit::url).containsExactly("/299", "/298");
            assertThat(store.reader().rows(HitFilter.ERRORS, after, START, START + 3_600_000, 0, 2)).extracting(StoredHit::url)
                    .containsExactly("/new", "/298");
        }
    }

    /** The URLs of the kept hits {@code /kept/first} down, {@code count} of them. */
    private static List<String> kept(int first, int count) {
        List<String> urls = new ArrayList<>();
        for (int i = first; i > first - (count == 0 ? first + 1 : count); i--) {
            urls.add("/kept/" + i);
        }
        return urls;
    }

    private static List<String> expected(List<Appended> appended, Predicate<Appended> shown) {
        return appended.stream().filter(shown)
                .sorted(Comparator.comparingLong(Appended::millis).thenComparingLong(Appended::order).reversed())
                .map(a -> "/" + a.order()).toList();
    }
}
