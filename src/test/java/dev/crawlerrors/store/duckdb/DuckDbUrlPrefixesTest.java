package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.StoredHit;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A URL prefix at any depth counted from the URLs kept in order and their hits read by number
 * ({@link DuckDbUrlPrefixes}): the same counts, minute by minute, and the same pages as the hits
 * themselves give, whatever else the view filters by, for prefixes SQL would read otherwise
 * ({@code %}, {@code _}, a quote), a case, a query string, and hits stored after the URLs were read.
 */
class DuckDbUrlPrefixesTest {

    private static final Crawler SEARCH = new Crawler("Googlebot Desktop", "Google", BotType.crawler_search,
            List.of("Googlebot"), null, List.of("common-crawlers.json"), null);
    private static final Crawler ADS = new Crawler("AdsBot-Google", "Google", BotType.crawler_ads,
            List.of("AdsBot-Google"), null, List.of("common-crawlers.json"), null);
    private static final Crawler MONITOR = new Crawler("UptimeRobot", "UptimeRobot", BotType.monitor,
            List.of("UptimeRobot"), null, List.of(), null);
    private static final Crawler[] CRAWLERS = {SEARCH, ADS, MONITOR};
    private static final Verification[] VERDICTS = {Verification.verified, Verification.unverified, Verification.spoofed};
    private static final String LONG = "/gent/straten/" + "x".repeat(3_000);
    private static final String[] URLS = {"/gent/", "/gent/kaart", "/gent/straten/a", "/gent/straten/ab", "/gent/straten/b?x=1",
        "/gent/straten/a#top", "/gent/straat-12/scholen", "/gent/straat-123", "/gent/straat-12", "/Gent/straten/a", "/ge%nt/_x",
        "/ge_nt/'q", "/gentse/feesten", "/zoeken?q=/gent/straten/a", "relative/gent", "/", "/ünï/çødé/1", "/ünï/çøx", LONG, LONG + "y",
        "/gent/straten/a%20b", "/gent/straten/a_b"};
    private static final String[] PREFIXES = {"/gent/straten/a", "/gent/straten/", "/gent/straat-12", "/gent/straat-12/",
        "/gent/str", "/gent/", "/ge", "/gent/straten/b?x", "/gent/straten/a#", "%", "/ge%", "/ge_", "_", "'", "/ge_nt/'", "/Gent/",
        "/gent/straten/A", "/ün", "/ünï/çø", "relative", "/zoeken?q=/gent", LONG, LONG + "yz", "/gent/straten/a%", "/gent/straten/a_",
        "/nothing/here", "/"};
    private static final String[] HOSTS = {null, "a.example", "b.example"};
    private static final long START = Instant.parse("2026-10-01T00:00:00Z").toEpochMilli();

    private record Sent(long id, long millis, String url, String host, int status, Crawler crawler, Verification verdict) {
    }

    @Test
    void countsAndPagesAPrefixAtAnyDepthAsTheHitsDo() throws Exception {
        SplittableRandom random = new SplittableRandom(34);
        List<Sent> sent = new ArrayList<>();
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            append(store, sent, random, 1_500);
            store.reader().urlStates().fold(); // the first hits into url_log, the rest stay in url_tail
            append(store, sent, random, 500);
            DuckDbHitReader reader = (DuckDbHitReader) store.reader();
            Snapshot snapshot = reader.snapshot();

            // the first count asks for the URLs in order: until they are read, the hits are matched by their text
            checkAll(reader, snapshot, sent);
            waitForUrls(reader);
            checkAll(reader, snapshot, sent);

            // hits stored after the URLs were read, some of URLs never met before: matched by their text, added to the rest
            append(store, sent, random, 300);
            Snapshot later = reader.snapshot();
            for (String prefix : PREFIXES) {
                HitFilter filter = prefixed(prefix);
                assertThat(reader.minuteCounts(filter, later).total()).as(prefix).isEqualTo(expected(sent, filter, later).size());
            }
            assertThat(reader.minuteCounts(prefixed("/gent/"), snapshot).total()).as("the older snapshot, as it was")
                    .isEqualTo(expected(sent, prefixed("/gent/"), snapshot).size());
        }
    }

    @Test
    void countsNothingOnAStoreWithoutHits() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            DuckDbHitReader reader = (DuckDbHitReader) store.reader();
            assertThat(reader.minuteCounts(prefixed("/gent/straten/a"), reader.snapshot()).total()).isZero();
            Thread.sleep(200);
            assertThat(reader.minuteCounts(prefixed("/gent/straten/a"), reader.snapshot()).total()).isZero();
        }
    }

    private static void checkAll(DuckDbHitReader reader, Snapshot snapshot, List<Sent> sent) {
        for (String prefix : PREFIXES) {
            for (HitFilter filter : filters(prefix)) {
                List<Sent> want = expected(sent, filter, snapshot);
                MinuteCounts counts = reader.minuteCounts(filter, snapshot);
                assertThat(perMinute(counts)).as(prefix + " " + filter).isEqualTo(perMinute(want));
                List<StoredHit> page = reader.rows(filter, snapshot, Long.MIN_VALUE / 2, Long.MAX_VALUE / 2, 0, 20);
                assertThat(page).extracting(StoredHit::id).as(prefix + " " + filter)
                        .containsExactlyElementsOf(want.stream().limit(20).map(Sent::id).toList());
            }
        }
    }

    /** The prefix alone, then with each other filter, then several at once. */
    private static List<HitFilter> filters(String prefix) {
        Instant from = Instant.ofEpochMilli(START + 17 * 60_000);
        Instant to = Instant.ofEpochMilli(START + 95 * 60_000);
        Instant oddFrom = Instant.ofEpochMilli(START + 17 * 60_000 + 12_345);
        List<HitFilter> filters = new ArrayList<>();
        filters.add(prefixed(prefix));
        filters.add(new HitFilter(List.of(new StatusRange(404, 404)), Set.of(), Set.of(), null, null, prefix, null));
        filters.add(new HitFilter(List.of(new StatusRange(200, 299), new StatusRange(500, 599)), Set.of(), Set.of(), null, null, prefix, null));
        filters.add(new HitFilter(List.of(), Set.of(BotType.crawler_ads), Set.of(), null, null, prefix, null));
        filters.add(new HitFilter(List.of(), HitFilter.ALL_BOT_TYPES, Set.of(), null, null, prefix, null));
        filters.add(new HitFilter(List.of(), Set.of(), Set.of(Verification.spoofed), null, null, prefix, null));
        filters.add(new HitFilter(List.of(), Set.of(), Set.of(), null, null, prefix, null, Set.of(MONITOR.name())));
        filters.add(new HitFilter(List.of(), Set.of(), Set.of(), null, null, prefix, "a.example"));
        filters.add(new HitFilter(List.of(), Set.of(), Set.of(), null, null, prefix, "nowhere.example"));
        filters.add(new HitFilter(List.of(), Set.of(), Set.of(), from, to, prefix, null));
        filters.add(new HitFilter(List.of(), Set.of(), Set.of(), oddFrom, null, prefix, null));
        filters.add(new HitFilter(List.of(new StatusRange(400, 499)), Set.of(BotType.crawler_search), Set.of(Verification.verified), from,
                to, prefix, "b.example", Set.of(SEARCH.name())));
        filters.add(new HitFilter(List.of(new StatusRange(300, 599)), HitFilter.ALL_BOT_TYPES,
                Set.of(Verification.spoofed, Verification.unverified), oddFrom, to, prefix, null, Set.of(MONITOR.name(), ADS.name())));
        return filters;
    }

    private static HitFilter prefixed(String prefix) {
        return new HitFilter(List.of(), Set.of(), Set.of(), null, null, prefix, null);
    }

    /** The hits of {@code filter} at {@code snapshot}, newest first (ties by number, descending), from what was sent. */
    private static List<Sent> expected(List<Sent> sent, HitFilter filter, Snapshot snapshot) {
        return sent.stream()
                .filter(s -> s.id() <= snapshot.hits())
                .filter(s -> filter.showsStatus(s.status()))
                .filter(s -> filter.botTypes().isEmpty() || filter.botTypes().contains(s.crawler().botType()))
                .filter(s -> !filter.hiddenBotTypes().contains(s.crawler().botType()))
                .filter(s -> filter.crawlers().isEmpty() || filter.crawlers().contains(s.crawler().name()))
                .filter(s -> filter.effectiveVerifications().contains(s.verdict()))
                .filter(s -> filter.from() == null || s.millis() >= filter.from().toEpochMilli())
                .filter(s -> filter.to() == null || s.millis() < filter.to().toEpochMilli())
                .filter(s -> s.url().startsWith(filter.urlPrefix()))
                .filter(s -> filter.host() == null || filter.host().equals(s.host()))
                .sorted(Comparator.comparingLong(Sent::millis).thenComparingLong(Sent::id).reversed())
                .toList();
    }

    private static TreeMap<Long, Long> perMinute(List<Sent> hits) {
        TreeMap<Long, Long> minutes = new TreeMap<>();
        hits.forEach(s -> minutes.merge(Math.floorDiv(s.millis(), 60_000L), 1L, Long::sum));
        return minutes;
    }

    private static TreeMap<Long, Long> perMinute(MinuteCounts counts) {
        TreeMap<Long, Long> minutes = new TreeMap<>();
        for (MinuteCounts.Range slice : counts.slices(1)) {
            long minute = slice.fromMillis() / 60_000L;
            minutes.put(minute, counts.within(slice.fromMillis(), slice.toMillis()).total());
        }
        return minutes;
    }

    /**
     * Appends {@code n} hits in time order: each address always the same crawler and verdict (a claim's
     * verdict never changes here), so what was sent says each hit's verdict.
     */
    private static void append(DuckDbHitStore store, List<Sent> sent, SplittableRandom random, int n) {
        List<CrawlerHit> hits = new ArrayList<>();
        long last = sent.isEmpty() ? START : sent.get(sent.size() - 1).millis();
        int[] statuses = {200, 301, 304, 404, 404, 410, 500};
        for (int i = 0; i < n; i++) {
            long millis = last + random.nextInt(20_000);
            last = millis;
            int address = random.nextInt(9);
            Crawler crawler = CRAWLERS[address % 3];
            Verification verdict = VERDICTS[address / 3];
            String url = URLS[random.nextInt(URLS.length)];
            String host = HOSTS[random.nextInt(HOSTS.length)];
            int status = statuses[random.nextInt(statuses.length)];
            String ip = "66.249.66." + address;
            Hit hit = new Hit(millis, 120, ip, "GET", url, status, -1, null, "Googlebot", Double.NaN, host);
            hits.add(new CrawlerHit(hit, crawler, new Verdict(verdict, "as sent")));
            sent.add(new Sent(sent.size() + 1, millis, url, host, status, crawler, verdict));
        }
        store.writer().append(hits);
    }

    private static void waitForUrls(DuckDbHitReader reader) throws InterruptedException {
        for (int i = 0; i < 600 && reader.prefixFootprint().get(0) == 0; i++) {
            Thread.sleep(50);
        }
        assertThat(reader.prefixFootprint().get(0)).as("the URLs read in order").isPositive();
    }
}
