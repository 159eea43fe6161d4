package dev.crawlerrors.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StatusRange;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The count cube answers what the store counts, on every engine: random combinations of statuses,
 * bot types, crawlers, verdicts and whole-minute time ranges, summed in memory, equal the store's
 * own count of each view (every page placed alike), at the snapshot counted and at later ones as
 * hits arrive; after a verdict changes and past its memory bound it answers nothing and the store
 * counts, so the pages stay right. The cube counted by URL answers hosts and the URL prefixes its
 * heads decide alike, and leaves deeper prefixes to the store.
 */
public abstract class CountCubeContract {

    private static final long START = Instant.parse("2026-10-01T00:00:00Z").toEpochMilli();
    private static final List<Crawler> CRAWLERS = List.of(
            new Crawler("Googlebot Smartphone", "Google", BotType.crawler_search, List.of("Googlebot"), null, null, null),
            new Crawler("GPTBot", "OpenAI", BotType.crawler_ai, List.of("GPTBot"), null, null, null),
            new Crawler("AhrefsBot", "Ahrefs", BotType.crawler_seo, List.of("AhrefsBot"), null, null, null),
            new Crawler("UptimeRobot", "UptimeRobot", BotType.monitor, List.of("UptimeRobot"), null, null, null));
    private static final int[] STATUSES = {200, 301, 304, 404, 410, 429, 500, 503};
    private static final Duration WAIT = Duration.ofSeconds(60);

    /** A fresh, empty store of the engine under test. */
    protected abstract HitStore open();

    @Test
    void randomFiltersSummedFromTheCubeEqualTheStoresCountsAsHitsArrive() throws Exception {
        try (HitStore store = open()) {
            SplittableRandom random = new SplittableRandom(34);
            store.writer().append(hits(random, 3_000, 0));
            store.writer().flush();
            AtomicInteger counted = new AtomicInteger();
            KeptCube cube = new KeptCube(store.reader(), 64L << 20);
            ViewIndex index = new ViewIndex(counting(store.reader(), counted), 64L << 20, cube);
            Snapshot first = counted(cube, store.reader());
            assertThat(cube.footprint().get(0)).as("cells").isPositive();

            compareRandomViews(store.reader(), index, first, random, 60);
            assertThat(counted).as("views counted by the store, not the cube").hasValue(0);

            // hits that arrive are added to the cube: a later snapshot is summed too (one of them three years old, so
            // that the minutes span more than the cube sums in one array)
            List<CrawlerHit> more = hits(random, 500, 3_000);
            CrawlerHit old = more.get(0);
            more.set(0, new CrawlerHit(new Hit(START - 3 * 365 * 86_400_000L, 0, old.hit().ip(), "GET", "/old", 404, 0, null,
                    old.crawler().name(), 12.5, null), old.crawler(), old.verdict()));
            store.writer().append(more);
            store.writer().flush();
            Snapshot second = store.reader().snapshot();
            compareRandomViews(store.reader(), index, second, random, 30);
            assertThat(counted).as("views counted by the store after new hits").hasValue(0);
            // an older snapshot than the cube's is not the cube's: the store counts it, rightly
            compareRandomViews(store.reader(), index, first, new SplittableRandom(7), 3);
            assertThat(counted.get()).isPositive();

            // a verdict that changes moves hits between verdicts: the store counts until the cube is counted again
            store.verdicts().update("66.249.66.3", "GPTBot", new Verdict(Verification.spoofed, "test"));
            Snapshot third = store.reader().snapshot();
            int before = counted.get();
            compareRandomViews(store.reader(), index, third, random, 5);
            assertThat(counted.get()).as("views counted by the store while the cube is recounted").isGreaterThan(before);
            counted(cube, store.reader());
            Snapshot fourth = store.reader().snapshot();
            int after = counted.get();
            compareRandomViews(store.reader(), index, fourth, random, 30);
            assertThat(counted.get()).as("views counted by the store once the cube is recounted").isEqualTo(after);
            cube.close();
        }
    }

    @Test
    void aCubePastItsBoundIsDroppedAndTheStoreCounts() throws Exception {
        try (HitStore store = open()) {
            SplittableRandom random = new SplittableRandom(35);
            store.writer().append(hits(random, 2_000, 0));
            store.writer().flush();
            long bound = 4_096;
            KeptCube cube = new KeptCube(store.reader(), bound);
            cube.start();
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (cube.footprint().get(2) == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(cube.footprint()).as("cells, bytes, dropped").containsExactly(0L, 0L, 1L);
            ViewIndex index = new ViewIndex(store.reader(), 64L << 20, cube);
            compareRandomViews(store.reader(), index, store.reader().snapshot(), random, 10);
            cube.close();
        }
    }

    @Test
    void aCountPastTheBoundStopsReadingTheStore() throws Exception {
        try (HitStore store = open()) {
            SplittableRandom random = new SplittableRandom(37);
            store.writer().append(hits(random, 100_000, 0));
            store.writer().flush();
            int[] cells = {0};
            store.reader().countByMinute(dev.crawlerrors.store.HitWindow.at(store.reader().snapshot()), false, cell -> cells[0]++);
            assertThat(cells[0]).as("cells of the store: more than a chunk of them").isGreaterThan(65_536);
            AtomicInteger handed = new AtomicInteger();
            HitReader reader = (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(), new Class<?>[] {HitReader.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("countByMinute")) {
                            @SuppressWarnings("unchecked")
                            java.util.function.Consumer<Object> cellsTo = (java.util.function.Consumer<Object>) args[2];
                            args[2] = (java.util.function.Consumer<Object>) cell -> {
                                handed.incrementAndGet();
                                cellsTo.accept(cell);
                            };
                        }
                        try {
                            return method.invoke(store.reader(), args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            KeptCube cube = new KeptCube(reader, 4_096);
            cube.start();
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (cube.footprint().get(2) == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(cube.footprint()).as("cells, bytes, dropped").containsExactly(0L, 0L, 1L);
            // the cells after the bound was passed are not read: the read stopped at the first chunk past it
            assertThat(handed.get()).as("cells read of " + cells[0]).isEqualTo(65_536);
            // and the store reads on after the read it stopped
            int[] again = {0};
            store.reader().countByMinute(dev.crawlerrors.store.HitWindow.at(store.reader().snapshot()), false, cell -> again[0]++);
            assertThat(again[0]).isEqualTo(cells[0]);
            cube.close();
        }
    }

    @Test
    void hostsAndUrlPrefixesSummedFromTheCubeByUrlEqualTheStoresCounts() throws Exception {
        try (HitStore store = open()) {
            SplittableRandom random = new SplittableRandom(36);
            store.writer().append(urlHits(random, 3_000, 0));
            store.writer().flush();
            AtomicInteger counted = new AtomicInteger();
            KeptCube plain = new KeptCube(store.reader(), 64L << 20);
            KeptCube byUrl = new KeptCube(store.reader(), 64L << 20, true, KeptCube.counter());
            ViewIndex index = new ViewIndex(counting(store.reader(), counted), 64L << 20, plain, byUrl);
            HitFilter oneHost = new HitFilter(List.of(), Set.of(), Set.of(), null, null, null, "h1.example");
            Snapshot now = store.reader().snapshot();
            byUrl.start();
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (byUrl.counts(oneHost, now) == null && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(byUrl.counts(oneHost, now)).as("the cube by URL, counted").isNotNull();
            assertThat(byUrl.counts(HitFilter.ERRORS, now)).as("a view without a URL is the other cube's").isNull();

            // hosts and prefixes the URL heads decide: summed, never counted by the store
            String[] decided = {null, "/", "/a/", "/b/", "/zz/", "x"};
            for (int i = 0; i < 60; i++) {
                compare(store.reader(), index, now, urlFilter(random, decided));
            }
            assertThat(counted).as("views counted by the store, not the cube").hasValue(0);

            // deeper prefixes, and ones a URL without a second "/" may start with: the store counts them, rightly
            String[] deeper = {"/a/b/", "/a", "/zoeken?q=a/", "/c1"};
            for (int i = 0; i < 20; i++) {
                compare(store.reader(), index, now, urlFilter(random, deeper));
            }
            assertThat(counted.get()).isPositive();

            // hits that arrive are added to the cube by URL too
            store.writer().append(urlHits(random, 500, 3_000));
            store.writer().flush();
            Snapshot later = store.reader().snapshot();
            int before = counted.get();
            for (int i = 0; i < 30; i++) {
                compare(store.reader(), index, later, urlFilter(random, decided));
            }
            assertThat(counted.get()).as("views counted by the store after new hits").isEqualTo(before);
            plain.close();
            byUrl.close();
        }
    }

    @Test
    void inSitemapViewsSummedFromTheCubeBySitemapEqualTheStoresCountsAndFollowASitemapRead() throws Exception {
        try (HitStore store = open()) {
            SplittableRandom random = new SplittableRandom(37);
            store.writer().append(urlHits(random, 3_000, 0));
            store.writer().flush();
            list(store, "/a/x", "/c");
            AtomicInteger counted = new AtomicInteger();
            KeptCube bySitemap = new KeptCube(store.reader(), 64L << 20, false, true, KeptCube.counter());
            ViewIndex index = new ViewIndex(counting(store.reader(), counted), 64L << 20, bySitemap);
            Snapshot now = store.reader().snapshot();
            HitFilter listed = HitFilter.ERRORS.withInSitemap(true);
            String sitemaps = SitemapVersion.of(store.reader().sitemaps());
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (bySitemap.counts(listed, now, sitemaps) == null && System.nanoTime() < deadline) {
                Thread.sleep(20); // counted on its first use, in the background
            }
            assertThat(bySitemap.counts(listed, now, sitemaps)).as("the cube by sitemap, counted").isNotNull();
            assertThat(bySitemap.counts(HitFilter.ERRORS, now, sitemaps)).as("a view of no sitemap is the other cubes'").isNull();
            for (int i = 0; i < 40; i++) {
                compare(store.reader(), index, now, randomFilter(random).withInSitemap(random.nextBoolean()));
            }
            assertThat(counted).as("views counted by the store, not the cube").hasValue(0);
            assertThat(index.counts(listed, now).total()).as("hits listed").isPositive();

            // a sitemap read again lists other URLs: the cube answers nothing at the old reads, and is counted again
            list(store, "/b/");
            String after = SitemapVersion.of(store.reader().sitemaps());
            assertThat(after).isNotEqualTo(sitemaps);
            // not the cube of the reads before: the view waits for the count at the new read (null only past the wait)
            MinuteCounts waited = bySitemap.counts(listed, now, after);
            if (waited != null) {
                assertThat(waited.total()).as("the cube of the new read, waited for").isEqualTo(store.reader().minuteCounts(listed, now).total());
            }
            deadline = System.nanoTime() + WAIT.toNanos();
            while (bySitemap.counts(listed, now, after) == null && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(bySitemap.counts(listed, now, after).total()).as("counted again at the new read")
                    .isEqualTo(store.reader().minuteCounts(listed, now).total());

            // hits that arrive are added to it
            store.writer().append(urlHits(random, 500, 3_000));
            store.writer().flush();
            Snapshot later = store.reader().snapshot();
            for (HitFilter filter : List.of(listed, HitFilter.ERRORS.withInSitemap(false), listed.withStatuses(List.of(new StatusRange(404, 404))))) {
                assertThat(bySitemap.counts(filter, later, after).total()).as("later, " + filter)
                        .isEqualTo(store.reader().minuteCounts(filter, later).total());
            }
            bySitemap.close();
        }
    }

    /** A sitemaps' read said to the cube by sitemap has it counted at the new reads before any view asks for it. */
    @Test
    void aSitemapReadSaidToTheCubeBySitemapHasItCountedBeforeAViewAsks() throws Exception {
        try (HitStore store = open()) {
            SplittableRandom random = new SplittableRandom(41);
            store.writer().append(urlHits(random, 2_000, 0));
            store.writer().flush();
            list(store, "/a/x");
            KeptCube bySitemap = new KeptCube(store.reader(), 64L << 20, false, true, KeptCube.counter());
            HitFilter listed = HitFilter.ERRORS.withInSitemap(true);
            Snapshot now = store.reader().snapshot();
            bySitemap.sitemapsRead();
            awaitCounted(bySitemap);
            assertThat(bySitemap.counts(listed, now, SitemapVersion.of(store.reader().sitemaps()))).as("counted when told").isNotNull();

            list(store, "/b/", "/c");
            bySitemap.sitemapsRead();
            awaitCounted(bySitemap);
            String after = SitemapVersion.of(store.reader().sitemaps());
            assertThat(bySitemap.counts(listed, now, after)).as("counted again at the new reads, no view having asked").isNotNull();
            assertThat(bySitemap.counts(listed, now, after).total()).isEqualTo(store.reader().minuteCounts(listed, now).total());
            bySitemap.close();
        }
    }

    /**
     * The summary above a page summed from the count cubes is the one counted from the store's rows: random views of
     * statuses, bot types, crawlers, verdicts, whole-minute times, hosts and the URL prefixes the heads decide, their
     * hits by crawler, type, verdict and status and their error hits by time bucket (hours and quarters), and the
     * summary read out of them (hits by status, the spoofed ones left out, the timeline) alike but for the durations,
     * which the cubes do not hold; a deeper prefix, or more cells than asked, is not summed.
     */
    @Test
    void summariesSummedFromTheCubesEqualThoseCountedFromTheRows() throws Exception {
        try (HitStore store = open()) {
            SplittableRandom random = new SplittableRandom(42);
            store.writer().append(urlHits(random, 3_000, 0));
            store.writer().flush();
            KeptCube plain = new KeptCube(store.reader(), 64L << 20);
            KeptCube byUrl = new KeptCube(store.reader(), 64L << 20, true, KeptCube.counter());
            ViewIndex index = new ViewIndex(store.reader(), 64L << 20, plain, byUrl);
            Snapshot now = counted(plain, store.reader());
            byUrl.start();
            HitFilter oneHost = new HitFilter(List.of(), Set.of(), Set.of(), null, null, null, "h1.example");
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (byUrl.counts(oneHost, now) == null && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(byUrl.counts(oneHost, now)).as("the cube by URL, counted").isNotNull();
            String[] decided = {null, "/", "/a/", "/b/", "/zz/", "x"};
            int summed = 0;
            for (int i = 0; i < 80; i++) {
                HitFilter filter = i % 2 == 0 ? randomFilter(random) : urlFilter(random, decided);
                if (filter.from() == null && filter.to() == null && random.nextBoolean()) {
                    long start = START + random.nextInt(3 * 24 * 60) * 60_000L;
                    filter = filter.withTimes(Instant.ofEpochMilli(start), Instant.ofEpochMilli(start + (60 + random.nextInt(47 * 60)) * 60_000L));
                }
                long bucketMillis = i % 3 == 0 ? 900_000L : 3_600_000L;
                ErrorCounts cube = index.errorCounts(filter, now, bucketMillis, Long.MAX_VALUE);
                assertThat(cube).as("summed from the cubes: " + filter).isNotNull();
                ErrorCounts rows = ErrorCounts.counting(store.reader(), bucketMillis).start();
                ErrorCounts.counting(store.reader(), bucketMillis).count(rows, ErrorCounts.key(filter), dev.crawlerrors.store.HitWindow.at(now));
                assertThat(cube.byCrawler).as("by crawler, " + filter).isEqualTo(rows.byCrawler);
                java.util.Map<ErrorCounts.TimeKey, Long> errorsByTime = new java.util.HashMap<>(rows.byTime);
                errorsByTime.keySet().removeIf(key -> key.status() < StatusRange.ERRORS.low());
                assertThat(cube.byTime).as("error hits by time, " + filter).isEqualTo(errorsByTime);
                // the summary: the cube's error hits by time and the store's others, as the report adds them
                rows.byTime.forEach((key, hits) -> {
                    if (key.status() < StatusRange.ERRORS.low()) {
                        cube.byTime.merge(key, hits, Long::sum);
                    }
                });
                Overview fromCube = new OverviewReading(filter, java.time.ZoneOffset.UTC).read(cube, null);
                Overview fromRows = new OverviewReading(filter, java.time.ZoneOffset.UTC).read(rows, null);
                assertThat(fromCube.durations()).isEmpty();
                assertThat(fromCube).as("summary of " + filter).usingRecursiveComparison().ignoringFields("durations").isEqualTo(fromRows);
                summed += fromCube.total() > 0 ? 1 : 0;
            }
            assertThat(summed).as("views with hits").isGreaterThan(20);

            // a prefix deeper than the heads, and a view of more cells than asked: not summed
            HitFilter deep = new HitFilter(List.of(), Set.of(), Set.of(), null, null, "/a/b/", null);
            assertThat(index.errorCounts(deep, now, 3_600_000L, Long.MAX_VALUE)).isNull();
            assertThat(index.errorCounts(HitFilter.ERRORS, now, 3_600_000L, 10)).isNull();
            assertThat(index.errorCounts(HitFilter.ERRORS.withTimes(Instant.ofEpochMilli(START + 30_000), null), now, 3_600_000L,
                    Long.MAX_VALUE)).as("times of part of a minute").isNull();
            plain.close();
            byUrl.close();
        }
    }

    @Test
    void anInSitemapViewIsSaidToWaitForTheCubeBySitemapWhileItIsCounted() throws Exception {
        try (HitStore store = open()) {
            SplittableRandom random = new SplittableRandom(43);
            store.writer().append(urlHits(random, 2_000, 0));
            store.writer().flush();
            list(store, "/a/x");
            java.util.concurrent.CountDownLatch letGo = new java.util.concurrent.CountDownLatch(1);
            HitReader held = (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(), new Class<?>[] {HitReader.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("countBySitemap") && !letGo.await(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
                            throw new IllegalStateException("the count was held back past the test's bound");
                        }
                        try {
                            return method.invoke(store.reader(), args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            KeptCube bySitemap = new KeptCube(held, 64L << 20, false, true, KeptCube.counter());
            ViewIndex index = new ViewIndex(held, 64L << 20, bySitemap);
            HitFilter listed = HitFilter.ERRORS.withInSitemap(true);
            try {
                assertThat(index.awaitsCube(listed)).as("not counted nor being counted").isFalse();
                bySitemap.start();
                assertThat(index.awaitsCube(listed)).as("being counted").isTrue();
                assertThat(index.awaitsCube(HitFilter.ERRORS.withInSitemap(false).withTimes(Instant.ofEpochMilli(START), null))).isTrue();
                assertThat(index.awaitsCube(HitFilter.ERRORS)).as("a view of no sitemap is the other cubes'").isFalse();
                letGo.countDown();
                awaitCounted(bySitemap);
                assertThat(index.awaitsCube(listed)).as("counted").isFalse();
                Snapshot now = store.reader().snapshot();
                assertThat(index.counts(listed, now).total()).isEqualTo(store.reader().minuteCounts(listed, now).total());
            } finally {
                letGo.countDown();
                index.close();
                bySitemap.close();
            }
        }
    }

    /** Waits for {@code cube} to hold cells, asking it nothing else (a view would start its count). */
    private static void awaitCounted(KeptCube cube) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (cube.footprint().get(0) == 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    /** Holds one sitemap listing, on each host {@link #urlHits} uses and on none, the URLs of {@code stems} it makes. */
    private static void list(HitStore store, String... stems) {
        try (var read = store.sitemaps().replacing("https://h1.example/sitemap.xml")) {
            for (String stem : stems) {
                for (int i = 0; i < 100; i++) {
                    String target = stem.endsWith("/") ? stem : stem + i;
                    read.add(new dev.crawlerrors.sitemap.SitemapUrl("h1.example", target));
                    read.add(new dev.crawlerrors.sitemap.SitemapUrl("h2.example", target));
                }
            }
            read.commit(Instant.now());
        }
    }

    /** A random filter of the cube's dimensions with a host, a URL prefix of {@code prefixes}, or both. */
    private static HitFilter urlFilter(SplittableRandom random, String[] prefixes) {
        String[] hosts = {null, "h1.example", "h2.example", "h9.example"};
        String host = hosts[random.nextInt(hosts.length)];
        String prefix = prefixes[random.nextInt(prefixes.length)];
        if (host == null && prefix == null) {
            host = "h1.example";
        }
        HitFilter base = randomFilter(random);
        return new HitFilter(base.statuses(), base.botTypes(), base.verifications(), null, null, prefix, host, base.crawlers());
    }

    /** {@code n} hits like {@link #hits}'s, on URLs of several heads (and none) and three hosts (and none). */
    private static List<CrawlerHit> urlHits(SplittableRandom random, int n, int first) {
        String[] hosts = {null, "h1.example", "h2.example"};
        List<CrawlerHit> hits = new ArrayList<>();
        for (CrawlerHit plain : hits(random, n, first)) {
            int i = random.nextInt(100);
            String url = switch (random.nextInt(7)) {
                case 0 -> "/a/x" + i;
                case 1 -> "/a/b/y" + i;
                case 2 -> "/b/";
                case 3 -> "/c" + i;
                case 4 -> "/?q=" + i;
                case 5 -> "/zoeken?q=a/b" + i;
                default -> "/a//z" + i;
            };
            Hit h = plain.hit();
            hits.add(new CrawlerHit(new Hit(h.epochMillis(), 0, h.ip(), "GET", url, h.status(), 0, null, h.userAgent(), 12.5,
                    hosts[random.nextInt(hosts.length)]), plain.crawler(), plain.verdict()));
        }
        return hits;
    }

    /** Starts the cube's count and waits for it; the snapshot it counted. */
    private static Snapshot counted(KeptCube cube, HitReader reader) throws InterruptedException {
        Snapshot now = reader.snapshot();
        cube.start();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (cube.counts(HitFilter.ERRORS, now) == null && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(cube.counts(HitFilter.ERRORS, now)).as("the cube, counted").isNotNull();
        return now;
    }

    private static void compareRandomViews(HitReader reader, ViewIndex index, Snapshot at, SplittableRandom random, int views) {
        for (int i = 0; i < views; i++) {
            compare(reader, index, at, randomFilter(random));
        }
    }

    /** The view counted by {@code index} is the store's own count, every page placed alike. */
    private static void compare(HitReader reader, ViewIndex index, Snapshot at, HitFilter filter) {
        MinuteCounts expected = reader.minuteCounts(filter, at);
        MinuteCounts actual = index.counts(filter, at);
        assertThat(actual.total()).as("total of " + filter).isEqualTo(expected.total());
        assertThat(actual.size()).as("minutes of " + filter).isEqualTo(expected.size());
        for (long skip = 0; skip < expected.total(); skip += 41) {
            assertThat(actual.locate(skip, 100)).as("hit " + skip + " of " + filter).isEqualTo(expected.locate(skip, 100));
        }
    }

    private static HitFilter randomFilter(SplittableRandom random) {
        List<StatusRange> statuses = switch (random.nextInt(4)) {
            case 0 -> List.of();
            case 1 -> List.of(new StatusRange(404, 404));
            case 2 -> List.of(new StatusRange(400, 499), new StatusRange(503, 503));
            default -> List.of(StatusRange.ANY);
        };
        Set<BotType> types = switch (random.nextInt(4)) {
            case 0 -> Set.of();
            case 1 -> Set.of(BotType.crawler_ai);
            case 2 -> Set.of(BotType.monitor, BotType.crawler_search);
            default -> HitFilter.ALL_BOT_TYPES;
        };
        Set<Verification> verdicts = random.nextInt(3) == 0 ? Set.of()
                : EnumSet.copyOf(List.of(Verification.values()[random.nextInt(3)], Verification.values()[random.nextInt(3)]));
        Set<String> crawlers = new HashSet<>();
        if (random.nextInt(3) == 0) {
            crawlers.add(CRAWLERS.get(random.nextInt(CRAWLERS.size())).name());
        }
        Instant from = null;
        Instant to = null;
        if (random.nextInt(2) == 0) {
            long start = START + random.nextInt(3 * 24 * 60) * 60_000L;
            from = random.nextBoolean() ? Instant.ofEpochMilli(start) : null;
            to = Instant.ofEpochMilli(start + (1 + random.nextInt(24 * 60)) * 60_000L);
        }
        return new HitFilter(statuses, types, verdicts, from, to, null, null, crawlers);
    }

    /** {@code n} hits over three days from a dozen addresses, of every status, crawler and verdict. */
    private static List<CrawlerHit> hits(SplittableRandom random, int n, int first) {
        List<CrawlerHit> hits = new ArrayList<>();
        for (int i = first; i < first + n; i++) {
            int address = random.nextInt(12);
            Crawler crawler = CRAWLERS.get(random.nextInt(CRAWLERS.size()));
            Verification verdict = Verification.values()[(address + crawler.name().length()) % 3];
            Hit hit = new Hit(START + random.nextLong(3 * 86_400_000L), 0, "66.249.66." + address, "GET", "/p" + i,
                    STATUSES[random.nextInt(STATUSES.length)], 0, null, crawler.name(), 12.5, null);
            hits.add(new CrawlerHit(hit, crawler, new Verdict(verdict, "test")));
        }
        return hits;
    }

    /** {@code reader}, counting the minute counts asked of it (also for the views' own tests). */
    static HitReader counting(HitReader reader, AtomicInteger counted) {
        return counting(reader, "minuteCounts", counted);
    }

    /** {@code reader}, counting the calls of its method {@code name}. */
    static HitReader counting(HitReader reader, String name, AtomicInteger counted) {
        return (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(), new Class<?>[] {HitReader.class}, (proxy, method, args) -> {
            if (method.getName().equals(name)) {
                counted.incrementAndGet();
            }
            try {
                return method.invoke(reader, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }
}
