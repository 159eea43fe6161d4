package dev.crawlerrors.alert;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The counts the built-in alerts are evaluated on, kept as hits are stored (and at start from the
 * store, {@link CountsSeed}), so no evaluation reads a hit: per crawler family, the recent hits,
 * client and server errors in slots of a few seconds, and the last seven days by hour; per URL
 * shape, its recent errors and when it first erred; per family and host, the latest
 * {@code /robots.txt} fetch. Only hits of the verdicts alerts count ({@code --alert-verification})
 * are counted. Bounded: a shape's recent counts go once it is quiet, and at most
 * {@link #MAX_SHAPES} shapes are known.
 *
 * <p>Thread-safe: hits come from the threads that store them, evaluations from the alerts' thread.
 */
public final class CrawlCounts {

    /** Counters of a slot: every hit, client errors (4xx), server errors (5xx). */
    static final int ALL = 0;
    static final int CLIENT_ERRORS = 1;
    static final int SERVER_ERRORS = 2;
    /** The past a rate is compared with. */
    static final Duration BASELINE = Duration.ofDays(7);
    /** URL shapes known at most: beyond them a shape not seen erring before is not taken for new (and a line says so). */
    static final int MAX_SHAPES = 200_000;
    private static final long HOUR = Duration.ofHours(1).toMillis();

    private final Set<Verification> counted;
    private final long span;
    private final long slotWidth;
    private final int slots;
    private final Map<String, Family> families = new TreeMap<>();
    private final Map<String, ShapeErrors> recentShapes = new HashMap<>();
    private final Map<String, Long> knownShapes = new HashMap<>();
    private final Map<String, Long> newShapes = new LinkedHashMap<>();
    private final Map<String, RobotsFetch> robots = new TreeMap<>();
    private boolean shapesFull;

    /**
     * @param counted the verdicts whose hits count
     * @param span    the longest window a rule looks at: recent counts cover it
     */
    public CrawlCounts(Set<Verification> counted, Duration span) {
        this.counted = Set.copyOf(counted);
        this.span = Math.max(span.toMillis(), 1_000);
        // some 120 slots a window: a window's edge is a slot's width away at most
        this.slotWidth = Math.max(1_000, this.span / 120);
        this.slots = (int) (this.span / slotWidth) + 3;
    }

    /** Whether hits of {@code verification} count. */
    public boolean counts(Verification verification) {
        return counted.contains(verification);
    }

    /** The verdicts whose hits count. */
    public Set<Verification> counted() {
        return counted;
    }

    /** Counts the hits of {@code hits} whose verdict counts; {@code now} caps a time written ahead of the clock. */
    public void add(List<CrawlerHit> hits, long now) {
        synchronized (this) {
            for (CrawlerHit crawlerHit : hits) {
                if (counted.contains(crawlerHit.verdict().verification())) {
                    Hit hit = crawlerHit.hit();
                    add(crawlerHit.crawler().family(), crawlerHit.crawler().name(), Math.min(hit.epochMillis(), now), hit.status(), hit.url(),
                            hit.host(), now);
                }
            }
        }
    }

    private void add(String familyName, String crawler, long millis, int status, String url, String host, long now) {
        Family family = family(familyName);
        family.crawlers.add(crawler);
        int counter = counter(status);
        if (millis >= now - span) {
            family.recent.add(millis, ALL, 1);
            if (counter != ALL) {
                family.recent.add(millis, counter, 1);
            }
        }
        family.hourly.add(millis, ALL, 1);
        if (counter != ALL) {
            family.hourly.add(millis, counter, 1);
            errorAt(UrlShape.of(url), status, millis, now);
        }
        if (isRobotsTxt(url)) {
            robotsFetch(familyName, crawler, host, status, millis);
        }
    }

    /** Counts a URL shape's error at {@code millis}, learning the shape when it is new. */
    private void errorAt(String shape, int status, long millis, long now) {
        Long first = knownShapes.get(shape);
        if (first == null) {
            if (knownShapes.size() >= MAX_SHAPES) {
                shapesFull = true;
                return;
            }
            first = millis;
            knownShapes.put(shape, first);
            newShapes.put(shape, first);
        }
        if (millis < now - span) {
            return;
        }
        ShapeErrors errors = recentShapes.get(shape);
        if (errors == null) {
            errors = new ShapeErrors(new CountRing(slotWidth, slots, 1));
            recentShapes.put(shape, errors);
        }
        errors.recent.add(millis, 0, 1);
        errors.statuses.merge(status, 1L, Long::sum);
    }

    private void robotsFetch(String family, String crawler, String host, int status, long millis) {
        String key = family + '\n' + (host == null ? "" : host);
        RobotsFetch last = robots.get(key);
        if (last == null || last.millis() <= millis) {
            robots.put(key, new RobotsFetch(family, host, crawler, status, millis));
        }
    }

    /** Whether {@code url}'s path is {@code /robots.txt}. */
    static boolean isRobotsTxt(String url) {
        return url.startsWith("/robots.txt") && (url.length() == 11 || url.charAt(11) == '?');
    }

    private Family family(String name) {
        Family family = families.get(name);
        if (family == null) {
            family = new Family(new CountRing(slotWidth, slots, 3), new CountRing(HOUR, (int) (BASELINE.toMillis() / HOUR) + 2, 3));
            families.put(name, family);
        }
        return family;
    }

    private static int counter(int status) {
        return status >= 500 && status <= 599 ? SERVER_ERRORS : status >= 400 && status <= 499 ? CLIENT_ERRORS : ALL;
    }

    // ---- seeding, from the store at start

    /** Adds {@code hits} hits of {@code status} of a family, at {@code millis} (a minute's start). */
    synchronized void seedCount(String familyName, long millis, int status, long hits, long now) {
        Family family = family(familyName);
        int counter = counter(status);
        if (millis >= now - span) {
            family.recent.add(millis, ALL, hits);
            if (counter != ALL) {
                family.recent.add(millis, counter, hits);
            }
        }
        family.hourly.add(millis, ALL, hits);
        if (counter != ALL) {
            family.hourly.add(millis, counter, hits);
        }
    }

    /** Learns the names of a family's crawlers, for the links of its alerts. */
    synchronized void seedCrawlers(String familyName, Set<String> crawlers) {
        family(familyName).crawlers.addAll(crawlers);
    }

    /** Counts one recent error hit on {@code url}'s shape (the shape already known). */
    synchronized void seedRecentError(String url, int status, long millis, long now) {
        errorAt(UrlShape.of(url), status, millis, now);
    }

    /** Learns shapes known before, keeping a first time seen when one is known already. */
    synchronized void knowShapes(Map<String, Long> shapes) {
        for (Map.Entry<String, Long> shape : shapes.entrySet()) {
            if (knownShapes.size() >= MAX_SHAPES && !knownShapes.containsKey(shape.getKey())) {
                shapesFull = true;
                continue;
            }
            knownShapes.merge(shape.getKey(), shape.getValue(), Math::min);
        }
    }

    /** The latest robots.txt fetch of a family from the store. */
    synchronized void seedRobots(String family, String crawler, String host, int status, long millis) {
        robotsFetch(family, crawler, host, status, millis);
    }

    // ---- reading, for the rules

    /** A family's counts over a window and over the week before it. */
    public record FamilyWindow(String family, long hits, long clientErrors, long serverErrors, long baselineHits, long baselineErrors,
            Set<String> crawlers) {

        public long errors() {
            return clientErrors + serverErrors;
        }
    }

    /** Each family's counts over the {@code window} before {@code now}, and its baseline over the seven days before the window's first hour. */
    public synchronized List<FamilyWindow> families(long now, Duration window) {
        long from = now - window.toMillis();
        long baselineTo = Math.floorDiv(from, HOUR) * HOUR;
        long baselineFrom = baselineTo - BASELINE.toMillis();
        List<FamilyWindow> windows = new ArrayList<>(families.size());
        families.forEach((name, family) -> windows.add(new FamilyWindow(name, family.recent.sum(ALL, from, Long.MAX_VALUE),
                family.recent.sum(CLIENT_ERRORS, from, Long.MAX_VALUE), family.recent.sum(SERVER_ERRORS, from, Long.MAX_VALUE),
                family.hourly.sum(ALL, baselineFrom, baselineTo),
                family.hourly.sum(CLIENT_ERRORS, baselineFrom, baselineTo) + family.hourly.sum(SERVER_ERRORS, baselineFrom, baselineTo),
                Set.copyOf(new TreeSet<>(family.crawlers)))));
        return windows;
    }

    /** A URL shape's errors over a window, by status, and when it first erred. */
    public record ShapeWindow(String shape, long errors, long firstSeenMillis, Map<Integer, Long> statuses) {
    }

    /**
     * The shapes with errors in the {@code window} before {@code now}; shapes quiet for longer
     * than the counts cover are dropped from the recent counts on the way.
     */
    public synchronized List<ShapeWindow> shapes(long now, Duration window) {
        long from = now - window.toMillis();
        List<ShapeWindow> shapes = new ArrayList<>();
        for (Iterator<Map.Entry<String, ShapeErrors>> it = recentShapes.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, ShapeErrors> entry = it.next();
            ShapeErrors errors = entry.getValue();
            if (!errors.recent.anySince(now - span)) {
                it.remove();
                continue;
            }
            long inWindow = errors.recent.sum(0, from, Long.MAX_VALUE);
            if (inWindow > 0) {
                shapes.add(new ShapeWindow(entry.getKey(), inWindow, knownShapes.getOrDefault(entry.getKey(), 0L),
                        Map.copyOf(errors.statuses)));
            }
        }
        return shapes;
    }

    /** The latest robots.txt fetch of one family on one host. */
    public record RobotsFetch(String family, String host, String crawler, int status, long millis) {
    }

    /** The latest robots.txt fetch of each family on each host. */
    public synchronized List<RobotsFetch> robots() {
        return List.copyOf(robots.values());
    }

    /** The shapes learned since the last call, with when each first erred: what the store is to keep. */
    synchronized Map<String, Long> takeNewShapes() {
        Map<String, Long> taken = new LinkedHashMap<>(newShapes);
        newShapes.clear();
        return taken;
    }

    /** Whether shapes were left unknown because {@link #MAX_SHAPES} are known. */
    synchronized boolean shapesFull() {
        return shapesFull;
    }

    /** One family's counts. */
    private record Family(CountRing recent, CountRing hourly, Set<String> crawlers) {
        Family(CountRing recent, CountRing hourly) {
            this(recent, hourly, new java.util.HashSet<>());
        }
    }

    /** A shape's recent errors, and their statuses since its counts began. */
    private record ShapeErrors(CountRing recent, Map<Integer, Long> statuses) {
        ShapeErrors(CountRing recent) {
            this(recent, new HashMap<>());
        }
    }
}
