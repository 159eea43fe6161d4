package dev.crawlerrors.store;

import static dev.crawlerrors.crawler.SampleHits.SPOOFED;
import static dev.crawlerrors.crawler.SampleHits.UNVERIFIED;
import static dev.crawlerrors.crawler.SampleHits.VERIFIED;
import static dev.crawlerrors.crawler.SampleHits.googlebot;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What every engine keeps of the URLs' states, asserted the same way on each: as hits arrive,
 * folded or not, at an older snapshot after a fold, as verdicts change, and kept states paged in
 * every order as the histories make them.
 */
public final class UrlStatesContract {

    private UrlStatesContract() {
    }

    /** Appends {@code hits} and commits them, as an import's batch ends. */
    private static void store(HitStore store, List<CrawlerHit> hits) {
        store.writer().append(hits);
        store.writer().flush();
    }

    private static final UrlQuery EVERY = new UrlQuery(HitFilter.ERRORS, Set.of(), false, false, UrlSort.errors);

    private static List<CrawlerHit> planted() {
        return List.of(
                googlebot("2025-05-14T08:00:00Z", "66.249.66.1", "/fixed", 404, VERIFIED),
                googlebot("2025-05-14T09:00:00Z", "66.249.66.1", "/fixed", 404, VERIFIED),
                googlebot("2025-05-14T10:00:00Z", "66.249.66.1", "/fixed", 200, VERIFIED),
                googlebot("2025-05-14T11:00:00Z", "66.249.66.1", "/fixed", 200, VERIFIED),
                googlebot("2025-05-14T08:00:00Z", "66.249.66.2", "/regressed", 200, VERIFIED),
                googlebot("2025-05-14T12:00:00Z", "66.249.66.2", "/regressed", 503, VERIFIED),
                googlebot("2025-05-14T08:00:00Z", "66.249.66.3", "/flaps", 200, VERIFIED),
                googlebot("2025-05-14T09:00:00Z", "66.249.66.3", "/flaps", 503, VERIFIED),
                googlebot("2025-05-14T10:00:00Z", "66.249.66.3", "/flaps", 200, VERIFIED),
                googlebot("2025-05-14T11:00:00Z", "66.249.66.3", "/flaps", 503, VERIFIED),
                googlebot("2025-05-14T08:00:00Z", "66.249.66.4", "/old", 301, VERIFIED),
                // an impostor's 503 after the fix changes nothing
                googlebot("2025-05-14T12:30:00Z", "203.0.113.9", "/fixed", 503, SPOOFED),
                googlebot("2025-05-14T12:30:00Z", "203.0.113.9", "/only-spoofed", 503, SPOOFED));
    }

    private static Map<String, UrlState> all(HitStore store, Snapshot at) {
        UrlPage page = store.reader().urlStates().page(EVERY, at, 0, 100);
        return page.rows().stream().collect(Collectors.toMap(UrlState::url, Function.identity()));
    }

    /** Each URL's state is the same read from the histories or from the fold. */
    public static void keepsEachUrlsStateFoldedOrNot(HitStore store) {
        store(store, planted());
        Snapshot at = store.reader().snapshot();
        Map<String, UrlState> before = all(store, at);
        store.reader().urlStates().fold();
        Map<String, UrlState> after = all(store, at);
        assertThat(after).isEqualTo(before);
        assertThat(after).containsOnlyKeys("/fixed", "/regressed", "/flaps", "/old");
        UrlState fixed = after.get("/fixed");
        assertThat(fixed.state()).isEqualTo(UrlState.State.ok);
        assertThat(fixed.fixedSince()).isEqualTo(Instant.parse("2025-05-14T10:00:00Z").toEpochMilli());
        assertThat(fixed.errorHits()).isEqualTo(2);
        assertThat(fixed.hits()).isEqualTo(4);
        assertThat(after.get("/regressed").state()).isEqualTo(UrlState.State.broken);
        assertThat(after.get("/regressed").fixed()).isFalse();
        assertThat(after.get("/flaps").inconsistent()).isTrue();
        assertThat(after.get("/flaps").flips()).isEqualTo(3);
        assertThat(after.get("/old").state()).isEqualTo(UrlState.State.redirected);
        UrlPage broken = store.reader().urlStates().page(UrlQuery.BROKEN, at, 0, 100);
        assertThat(broken.rows()).extracting(UrlState::url).containsExactly("/flaps", "/regressed");
        assertThat(store.reader().urlStates().history(new UrlKey(null, "/fixed"), at).orElseThrow().hits()).hasSize(5);
    }

    /** A snapshot taken before a fold is answered as it was. */
    public static void answersAnOlderSnapshotAsItWasAfterAFold(HitStore store) {
        store(store, planted().subList(0, 2));
        Snapshot early = store.reader().snapshot();
        Map<String, UrlState> then = all(store, early);
        store(store, planted().subList(2, planted().size()));
        store.reader().urlStates().fold();
        assertThat(all(store, early)).isEqualTo(then);
        assertThat(then.get("/fixed").state()).isEqualTo(UrlState.State.broken);
        assertThat(all(store, store.reader().snapshot()).get("/fixed").fixed()).isTrue();
    }

    /** A claim found spoofed after its hits leaves the URLs' states from then on. */
    public static void aClaimFoundSpoofedLaterLeavesTheStates(HitStore store) {
        store(store, List.of(googlebot("2025-05-14T08:00:00Z", "66.249.66.1", "/a", 200, VERIFIED),
                googlebot("2025-05-14T09:00:00Z", "198.51.100.7", "/a", 503, UNVERIFIED)));
        store.reader().urlStates().fold();
        Snapshot before = store.reader().snapshot();
        assertThat(all(store, before).get("/a").state()).isEqualTo(UrlState.State.broken);
        store.verdicts().update("198.51.100.7", "Googlebot Desktop", new Verdict(Verification.spoofed, "not Google's"));
        Snapshot after = store.reader().snapshot();
        assertThat(all(store, after).get("/a").state()).isEqualTo(UrlState.State.ok);
        store.reader().urlStates().fold();
        assertThat(all(store, after).get("/a").state()).isEqualTo(UrlState.State.ok);
        assertThat(store.reader().urlStates().page(EVERY, before, 0, 100).rows()).as("at %s, now %s", before, after).isNotEmpty();
        assertThat(all(store, before).get("/a").state()).isEqualTo(UrlState.State.broken);
        UrlQuery spoofedOnly = new UrlQuery(HitFilter.ERRORS.withVerifications(EnumSet.of(Verification.spoofed)), Set.of(), false,
                false, UrlSort.errors);
        assertThat(store.reader().urlStates().page(spoofedOnly, after, 0, 10).rows()).extracting(UrlState::lastStatus).containsExactly(503);
    }

    /** Kept states are paged in every order as the histories make them. */
    public static void pagesKeptStatesInTheirOrderAsTheHistoriesMakeThem(HitStore store) {
        // 260 URLs, each with its own count of errors: pages of 100 read by number, 50 numbers a read
        List<CrawlerHit> hits = new java.util.ArrayList<>();
        long start = Instant.parse("2025-05-14T08:00:00Z").toEpochMilli();
        for (int u = 0; u < 260; u++) {
            for (int h = 0; h <= u % 7; h++) {
                hits.add(googlebot(start + u * 60_000L + h * 1000L, "66.249.66.1", "/u/" + u, h % 3 == 2 ? 200 : 404, VERIFIED));
            }
        }
        store(store, hits);
        store.reader().urlStates().fold();
        Snapshot at = store.reader().snapshot();
        HitFilter googlebot = new HitFilter(List.of(), Set.of(), Set.of(), null, null, null, null, Set.of("Googlebot Desktop"));
        HitFilter ranged = new HitFilter(List.of(), Set.of(), Set.of(), Instant.ofEpochMilli(start - 1), Instant.ofEpochMilli(start
                + 86_400_000L), null, null);
        for (UrlSort sort : UrlSort.values()) {
            List<UrlState> made = pages(store, new UrlQuery(ranged, Set.of(), false, false, sort), at);
            assertThat(made).as("made from the histories, by %s", sort).hasSize(260);
            assertThat(pages(store, new UrlQuery(HitFilter.ERRORS, Set.of(), false, false, sort), at)).as("kept, by %s", sort)
                    .isEqualTo(made);
            assertThat(pages(store, new UrlQuery(googlebot, Set.of(), false, false, sort), at)).as("one crawler's, by %s", sort)
                    .isEqualTo(made);
        }
    }

    /**
     * A view read again and again between folds, as hits arrive and after a fold, answers as the
     * histories make it, on its first pages and past them (more URLs than a view's rows kept between folds).
     */
    public static void readsAViewAgainAsHitsArriveAndAsTheyFold(HitStore store) {
        long start = Instant.parse("2025-05-14T08:00:00Z").toEpochMilli();
        List<CrawlerHit> hits = new java.util.ArrayList<>();
        for (int u = 0; u < 640; u++) {
            for (int h = 0; h <= u % 5; h++) {
                hits.add(googlebot(start + u * 60_000L + h * 1000L, "66.249.66.1", "/u/" + u, u % 11 == 0 ? 301 : 404, VERIFIED));
            }
        }
        store(store, hits);
        store.reader().urlStates().fold();
        Snapshot folded = store.reader().snapshot();
        sameAsMade(store, folded);
        sameAsMade(store, folded);
        store(store, List.of(googlebot(start + 50_000_000L, "66.249.66.1", "/u/4", 200, VERIFIED),
                googlebot(start + 50_000_500L, "66.249.66.1", "/u/0", 200, VERIFIED),
                googlebot(start + 50_001_000L, "66.249.66.1", "/u/3", 404, VERIFIED),
                googlebot(start + 50_002_000L, "66.249.66.1", "/u/3", 404, VERIFIED),
                googlebot(start + 50_003_000L, "66.249.66.1", "/u/3", 404, VERIFIED),
                googlebot(start + 50_004_000L, "66.249.66.1", "/new", 503, VERIFIED)));
        Snapshot after = store.reader().snapshot();
        sameAsMade(store, after);
        sameAsMade(store, folded);
        store.reader().urlStates().fold();
        sameAsMade(store, after);
        sameAsMade(store, folded);
        assertThat(store.reader().urlStates().page(UrlQuery.BROKEN, after, 0, 1).rows()).extracting(UrlState::url).containsExactly("/u/3");
    }

    /** Pages of the kept views (every crawler's, one crawler's; every state, broken, redirected) equal the same views made from the histories. */
    private static void sameAsMade(HitStore store, Snapshot at) {
        long start = Instant.parse("2025-05-14T08:00:00Z").toEpochMilli();
        HitFilter ranged = new HitFilter(List.of(), Set.of(), Set.of(), Instant.ofEpochMilli(start - 1), Instant.ofEpochMilli(start
                + 86_400_000L), null, null);
        HitFilter googlebot = new HitFilter(List.of(), Set.of(), Set.of(), null, null, null, null, Set.of("Googlebot Desktop"));
        for (Set<UrlState.State> states : List.of(Set.<UrlState.State>of(), Set.of(UrlState.State.broken),
                Set.of(UrlState.State.redirected))) {
            UrlQuery made = new UrlQuery(ranged, states, false, false, UrlSort.errors);
            for (long offset : new long[] {0, 100, 400, 500}) {
                UrlPage expected = store.reader().urlStates().page(made, at, offset, 100);
                assertThat(store.reader().urlStates().page(new UrlQuery(HitFilter.ERRORS, states, false, false, UrlSort.errors), at, offset,
                        100)).as("every crawler's %s from %d at %s", states, offset, at).isEqualTo(expected);
                assertThat(store.reader().urlStates().page(new UrlQuery(googlebot, states, false, false, UrlSort.errors), at, offset, 100))
                        .as("one crawler's %s from %d at %s", states, offset, at).isEqualTo(expected);
            }
        }
    }

    private static List<UrlState> pages(HitStore store, UrlQuery query, Snapshot at) {
        List<UrlState> rows = new java.util.ArrayList<>();
        for (int offset = 0; offset < 300; offset += 100) {
            UrlPage page = store.reader().urlStates().page(query, at, offset, 100);
            assertThat(page.total()).isEqualTo(260);
            rows.addAll(page.rows());
        }
        return rows;
    }
}
