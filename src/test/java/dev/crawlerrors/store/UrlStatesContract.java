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

    private static final dev.crawlerrors.crawler.Crawler BINGBOT = new dev.crawlerrors.crawler.Crawler("bingbot", "Microsoft",
            dev.crawlerrors.crawler.BotType.crawler_search, List.of("bingbot"), null, List.of("bingbot.json"), null);

    /**
     * Hits of two days on two hosts and none, under several heads ({@code /a/}, {@code /ab},
     * {@code /}, a query before a slash, a target not starting with {@code /}), by two crawlers,
     * one address spoofed, not in time order: what a view of a time range, a host, a prefix and a
     * crawler is made of.
     */
    private static List<CrawlerHit> mixed() {
        String[] hosts = {"a.example", "b.example", null};
        String[] urls = {"/a/1", "/a/2?x=1", "/a/", "/ab", "/abc/d", "/", "/q?x=/a/", "*", "/b/1", "/a"};
        int[] statuses = {200, 404, 301, 503, 304, 410};
        List<CrawlerHit> hits = new java.util.ArrayList<>();
        long day = Instant.parse("2025-05-14T00:00:00Z").toEpochMilli();
        for (int n = 0; n < 240; n++) {
            // a time that jumps between the two days, so that neither day's hits arrive in order
            long t = day + ((n * 7919L) % 48) * 3_600_000L + n * 1000L;
            String host = hosts[n % 3];
            String url = urls[(n / 3) % urls.length];
            int status = statuses[(n * 5) % statuses.length];
            boolean bing = n % 4 == 3;
            String ip = n % 17 == 0 ? "203.0.113.9" : bing ? "40.77.167.1" : "66.249.66.1";
            dev.crawlerrors.crawler.Verdict verdict = n % 17 == 0 ? SPOOFED : VERIFIED;
            dev.crawlerrors.ingest.Hit hit = new dev.crawlerrors.ingest.Hit(t, 0, ip, "GET", url, status, -1, null, bing ? "bingbot"
                    : "Googlebot", Double.NaN, host);
            hits.add(new CrawlerHit(hit, bing ? BINGBOT : dev.crawlerrors.crawler.SampleHits.GOOGLEBOT, verdict));
        }
        return hits;
    }

    /** The states {@code query} lists, made here from {@code hits} alone (ties in time in their order), in its order. */
    private static List<UrlState> expected(List<CrawlerHit> hits, UrlQuery query) {
        Map<UrlKey, List<CrawlerHit>> byUrl = new java.util.LinkedHashMap<>();
        for (CrawlerHit hit : hits) {
            byUrl.computeIfAbsent(new UrlKey(hit.hit().host(), hit.hit().url()), k -> new java.util.ArrayList<>()).add(hit);
        }
        List<UrlState> states = new java.util.ArrayList<>();
        byUrl.forEach((key, its) -> {
            if (!query.takesUrl(key.host(), key.url())) {
                return;
            }
            UrlStateBuilder builder = new UrlStateBuilder(key.number(), key.host(), key.url());
            its.stream().sorted(java.util.Comparator.comparingLong(h -> h.hit().epochMillis())).forEach(h -> {
                UrlHit hit = new UrlHit(h.hit().epochMillis(), 0, h.hit().status(), 0, h.crawler().name(), h.crawler().botType().name(), null,
                        h.verdict().verification());
                if (query.shows(hit, hit.verification())) {
                    builder.add(hit.epochMillis(), hit.status());
                }
            });
            UrlState state = builder.build();
            if (state != null && query.takesState(state)) {
                states.add(state);
            }
        });
        states.sort(query.sort().order());
        return states;
    }

    /**
     * A view of a time range with a host, a prefix (one the URLs' heads decide, and one they do not),
     * a crawler, a state and an order lists the URLs the hits say, half of them folded, half not;
     * and at an older snapshot as it was.
     */
    public static void filtersATimeRangeByHostPrefixAndCrawlerAsTheHitsSay(HitStore store) {
        List<CrawlerHit> hits = mixed();
        store(store, hits.subList(0, 120));
        Snapshot early = store.reader().snapshot();
        store.reader().urlStates().fold();
        store(store, hits.subList(120, hits.size()));
        filtersAsTheHitsSay(store, hits, store.reader().snapshot());
        filtersAsTheHitsSay(store, hits.subList(0, 120), early);
        assertThat(expected(hits, new UrlQuery(filters().get(1), Set.of(), false, false, UrlSort.errors))).extracting(UrlState::url)
                .contains("/a/1", "/a/2?x=1", "/a/").doesNotContain("/a", "/ab", "/q?x=/a/");
    }

    /**
     * A store the version before made ({@code downgrade} makes it so, after {@code open}'s store
     * stored some hits and closed) lists the views of a time range as the hits say once opened
     * again, and as more hits come, under a head it never met.
     */
    public static void aStoreOfTheVersionBeforeFiltersATimeRangeAsTheHitsSay(java.util.function.Supplier<HitStore> open, Runnable downgrade) {
        List<CrawlerHit> hits = new java.util.ArrayList<>(mixed());
        try (HitStore store = open.get()) {
            store(store, hits.subList(0, 120));
            store.reader().urlStates().fold();
            store(store, hits.subList(120, 200));
        }
        downgrade.run();
        try (HitStore store = open.get()) {
            filtersAsTheHitsSay(store, hits.subList(0, 200), store.reader().snapshot());
            hits.add(googlebot("2025-05-14T10:00:00Z", "66.249.66.1", "/zz/1", 404, VERIFIED));
            store(store, hits.subList(200, hits.size()));
            filtersAsTheHitsSay(store, hits, store.reader().snapshot());
            assertThat(store.reader().urlStates().page(new UrlQuery(filters().get(filters().size() - 1), Set.of(), false, false,
                    UrlSort.errors), store.reader().snapshot(), 0, 10).rows()).extracting(UrlState::url).containsExactly("/zz/1");
        }
    }

    private static List<HitFilter> filters() {
        Instant from = Instant.parse("2025-05-14T00:00:00Z");
        Instant to = Instant.parse("2025-05-15T00:00:00Z");
        return List.of(new HitFilter(List.of(), Set.of(), Set.of(), from, to, null, null),
                new HitFilter(List.of(), Set.of(), Set.of(), from, to, "/a/", null),
                new HitFilter(List.of(), Set.of(), Set.of(), from, to, "/", null),
                new HitFilter(List.of(), Set.of(), Set.of(), from, to, "/a/", "a.example"),
                new HitFilter(List.of(), Set.of(), Set.of(), from, null, null, "b.example"),
                new HitFilter(List.of(), Set.of(), Set.of(), null, to, "/a/", null, Set.of("Googlebot Desktop")),
                new HitFilter(List.of(), Set.of(), Set.of(), from, to, "/ab", null, Set.of("bingbot")),
                new HitFilter(List.of(), Set.of(), Set.of(), from, to, "/a", null),
                new HitFilter(List.of(), Set.of(), EnumSet.of(Verification.spoofed), from, to, "/a/", null),
                // no time range and no kept scope: two crawlers, a verdict (made from the hits by number on DuckDB)
                new HitFilter(List.of(), Set.of(), Set.of(), null, null, "/a/", null, Set.of("Googlebot Desktop", "bingbot")),
                new HitFilter(List.of(), Set.of(), EnumSet.of(Verification.verified), null, null, null, null),
                new HitFilter(List.of(), Set.of(), EnumSet.of(Verification.spoofed), null, null, "/a/", "a.example"),
                new HitFilter(List.of(), Set.of(), Set.of(), from, to, "/zz/", null));
    }

    /** Each view of {@link #filters()}, in two states and orders, lists at {@code at} what {@code hits} say. */
    private static void filtersAsTheHitsSay(HitStore store, List<CrawlerHit> hits, Snapshot at) {
        for (HitFilter filter : filters()) {
            for (UrlQuery query : List.of(new UrlQuery(filter, Set.of(), false, false, UrlSort.errors),
                    new UrlQuery(filter, EnumSet.of(UrlState.State.broken, UrlState.State.redirected), false, false, UrlSort.last_crawled))) {
                List<UrlState> expected = expected(hits, query);
                UrlPage page = store.reader().urlStates().page(query, at, 0, 100);
                assertThat(page.rows()).as("%s at %s", query, at).isEqualTo(expected);
                assertThat(page.total()).isEqualTo(expected.size());
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
