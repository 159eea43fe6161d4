package dev.crawlerrors.alert;

import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.AlertStore;
import dev.crawlerrors.store.BreakdownCount;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.TimeCount;
import dev.crawlerrors.store.UrlPattern;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Fills the kept counts from the store at {@code serve}'s start, so alerts are evaluated on the week
 * before as well as on what arrives: the families' counts by minute (the report's counts, not its
 * hits), the recent error hits' URL shapes, each family's latest robots.txt fetch, and the shapes
 * that erred in the hits stored since the alerts last looked. A few queries once; no evaluation
 * reads the store.
 */
final class CountsSeed {

    /** The recent error hits read at most; past them a burst under way is counted from what arrives. */
    static final int MAX_RECENT_ERRORS = 100_000;
    /** The robots.txt fetches read at most, newest first, for the latest of each family and host. */
    static final int MAX_ROBOTS_FETCHES = 2_000;
    private static final long MINUTE = 60_000;
    static final UrlPattern ROBOTS_TXT = new UrlPattern(true, List.of(UrlPattern.Segment.literal("robots.txt")), false);
    static final StatusRange ERRORS = new StatusRange(400, 599);

    private CountsSeed() {
    }

    /**
     * Counts into {@code counts} what the store held at {@code at}, as of {@code now}.
     *
     * @param familyOf a crawler's family, by its name
     */
    static void seed(HitReader reader, Snapshot at, CrawlCounts counts, Duration span, Function<String, String> familyOf, long now) {
        Set<Verification> counted = counts.counted();
        HitWindow window = HitWindow.at(at);
        Instant weekAgo = Instant.ofEpochMilli(now - CrawlCounts.BASELINE.toMillis() - Duration.ofHours(1).toMillis());
        HitFilter week = filter(List.of(StatusRange.ANY), counted, weekAgo);
        Map<String, Set<String>> families = new TreeMap<>();
        for (BreakdownCount count : reader.countByCrawler(week, window)) {
            families.computeIfAbsent(familyOf.apply(count.crawler()), f -> new TreeSet<>()).add(count.crawler());
        }
        families.forEach((family, crawlers) -> {
            counts.seedCrawlers(family, crawlers);
            HitFilter ofFamily = new HitFilter(week.statuses(), week.botTypes(), week.verifications(), week.from(), null, null, null, crawlers);
            for (TimeCount count : reader.countByTime(ofFamily, window, MINUTE)) {
                counts.seedCount(family, count.bucketStartMillis(), count.status(), count.hits(), now);
            }
        });
        HitFilter recentErrors = filter(List.of(ERRORS), counted, Instant.ofEpochMilli(now - span.toMillis()));
        for (StoredHit hit : reader.rows(recentErrors, at, now - span.toMillis(), Long.MAX_VALUE / 2, 0, MAX_RECENT_ERRORS)) {
            counts.seedRecentError(hit.url(), hit.status(), hit.epochMillis(), now);
        }
        for (StoredHit fetch : robotsFetches(reader, at, counted)) {
            counts.seedRobots(familyOf.apply(fetch.crawler()), fetch.crawler(), fetch.host(), fetch.status(), fetch.epochMillis());
        }
    }

    /** The latest robots.txt fetches of crawlers of {@code verifications}, newest first. */
    static List<StoredHit> robotsFetches(HitReader reader, Snapshot at, Set<Verification> verifications) {
        HitFilter robots = filter(List.of(StatusRange.ANY), verifications, null).withUrlPattern(ROBOTS_TXT);
        return reader.rows(robots, at, Long.MIN_VALUE / 2, Long.MAX_VALUE / 2, 0, MAX_ROBOTS_FETCHES);
    }

    /**
     * Learns the URL shapes of the error hits stored since {@code store} last looked (all of them,
     * the first time), with the first time each erred, and keeps them in the store.
     */
    static void learnShapes(HitReader reader, Snapshot at, CrawlCounts counts, AlertStore store) {
        counts.knowShapes(store.errorShapes());
        long through = store.shapesThrough();
        if (through > at.hits()) {
            through = 0; // the store was made again since
        }
        if (through == at.hits()) {
            return;
        }
        Map<String, Long> shapes = new HashMap<>();
        reader.forEachUrl(filter(List.of(ERRORS), counts.counted(), null), new HitWindow(through, at), url ->
                shapes.merge(UrlShape.of(url.url()), url.firstMillis(), Math::min));
        counts.knowShapes(shapes);
        store.addErrorShapes(shapes);
        store.shapesThrough(at.hits());
    }

    private static HitFilter filter(List<StatusRange> statuses, Set<Verification> verifications, Instant from) {
        return new HitFilter(statuses, HitFilter.ALL_BOT_TYPES, verifications, from, null, null, null);
    }
}
