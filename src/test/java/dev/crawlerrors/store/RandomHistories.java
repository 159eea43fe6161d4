package dev.crawlerrors.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.SampleHits;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.ingest.Hit;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Hits of a few hundred URLs with random statuses (ok, not modified, redirects, 4xx, 5xx) from two
 * crawlers, one of a type the default view hides, some from impostors, in time order: for the
 * tests that a fold of them a batch at a time keeps the states one fold of all would.
 */
public final class RandomHistories {

    /** A crawler of a type the default view does not show. */
    public static final Crawler MONITOR = new Crawler("Uptime Monitor", "Example", BotType.monitor, List.of("UptimeMonitor"), null,
            List.of("common-crawlers.json"), null);
    private static final int[] STATUSES = {200, 200, 200, 304, 301, 302, 404, 410, 500, 503};
    private static final long START = Instant.parse("2025-05-14T00:00:00Z").toEpochMilli();

    private RandomHistories() {
    }

    /** {@code n} hits over {@code urls} URLs in time order, seeded. */
    public static List<CrawlerHit> inOrder(long seed, int n, int urls) {
        Random random = new Random(seed);
        List<CrawlerHit> hits = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long millis = START + random.nextInt(86_400) * 1000L;
            String url = "/u/" + random.nextInt(urls);
            int status = STATUSES[random.nextInt(STATUSES.length)];
            int who = random.nextInt(10);
            if (who == 0) {
                hits.add(SampleHits.googlebot(millis, "203.0.113.9", url, status, SampleHits.SPOOFED));
            } else if (who <= 2) {
                Hit hit = new Hit(millis, 120, "192.0.2.7", "GET", url, status, -1, null, "UptimeMonitor", Double.NaN, null);
                hits.add(new CrawlerHit(hit, MONITOR, new Verdict(dev.crawlerrors.crawler.Verification.verified, "listed")));
            } else {
                hits.add(SampleHits.googlebot(millis, "66.249.66." + (1 + who), url, status, SampleHits.VERIFIED));
            }
        }
        hits.sort(Comparator.comparingLong(hit -> hit.hit().epochMillis()));
        return hits;
    }

    /** The kept scopes' queries: the default view's, every bot type's, and each crawler's; all states, by URL. */
    public static List<UrlQuery> scopes() {
        List<UrlQuery> queries = new ArrayList<>();
        queries.add(new UrlQuery(HitFilter.ERRORS, Set.of(), false, false, UrlSort.errors));
        queries.add(new UrlQuery(new HitFilter(List.of(), HitFilter.ALL_BOT_TYPES, Set.of(), null, null, null, null), Set.of(), false,
                false, UrlSort.errors));
        for (String crawler : List.of(SampleHits.GOOGLEBOT.name(), MONITOR.name())) {
            queries.add(new UrlQuery(new HitFilter(List.of(), Set.of(), Set.of(), null, null, null, null, Set.of(crawler)), Set.of(),
                    false, false, UrlSort.errors));
        }
        return queries;
    }

    /** The same query read from the histories (a time range no kept state answers). */
    public static UrlQuery fromHistories(UrlQuery query) {
        HitFilter f = query.filter();
        HitFilter ranged = new HitFilter(f.statuses(), f.botTypes(), f.verifications(), Instant.ofEpochMilli(START - 1),
                Instant.ofEpochMilli(START + 2 * 86_400_000L), f.urlPrefix(), f.host(), f.crawlers());
        return new UrlQuery(ranged, query.states(), query.fixedOnly(), query.inconsistentOnly(), query.sort());
    }

    /** Every state a query gives at a snapshot, 100 a page; the pages must hold {@code least} states at least. */
    public static List<UrlState> all(HitReader reader, UrlQuery query, Snapshot at, int least) {
        List<UrlState> rows = new ArrayList<>();
        for (int offset = 0; ; offset += 100) {
            UrlPage page = reader.urlStates().page(query, at, offset, 100);
            rows.addAll(page.rows());
            if (page.rows().size() < 100) {
                break;
            }
        }
        assertThat(rows).hasSizeGreaterThanOrEqualTo(least);
        return rows;
    }
}
