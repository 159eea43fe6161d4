package dev.crawlerrors.alert;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.text.Threads;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * The crawler hits {@code serve} stores, as Prometheus's alert rules read them at {@code /metrics}:
 * {@code crawl_errors_crawler_hits_total} by status class, bot type, verification and crawler
 * family; {@code crawl_errors_crawler_error_hits_total} by status (4xx and 5xx), verification and
 * family; and for each verified family the status of its latest robots.txt fetch and when it was
 * ({@code crawl_errors_robots_txt_status}, {@code crawl_errors_robots_txt_fetch_timestamp_seconds}),
 * from the store at start and from the hits since. Every label has a bounded set of values (never a
 * URL, an address or an agent). Counted on the storing threads: a map lookup and an add a hit.
 */
public final class HitMeters implements MeterBinder {

    private record HitKey(String statusClass, BotType botType, Verification verification, String family) {
    }

    private record ErrorKey(int status, Verification verification, String family) {
    }

    /** A family's latest robots.txt fetch. */
    private record Fetch(int status, long millis) {
    }

    private final Map<HitKey, LongAdder> hits = new ConcurrentHashMap<>();
    private final Map<ErrorKey, LongAdder> errors = new ConcurrentHashMap<>();
    private final Map<String, Fetch> robots = new ConcurrentHashMap<>();
    private volatile MeterRegistry registry;

    /** Counts hits as they are stored: the store's tap. */
    public void stored(List<CrawlerHit> stored) {
        for (CrawlerHit hit : stored) {
            String family = hit.crawler().family();
            Verification verification = hit.verdict().verification();
            int status = hit.hit().status();
            hits.computeIfAbsent(new HitKey(statusClass(status), hit.crawler().botType(), verification, family), this::registered)
                    .increment();
            if (status >= 400 && status <= 599) {
                errors.computeIfAbsent(new ErrorKey(status, verification, family), this::registered).increment();
            }
            if (verification == Verification.verified && CrawlCounts.isRobotsTxt(hit.hit().url())) {
                fetched(family, status, hit.hit().epochMillis());
            }
        }
    }

    /** Takes each verified family's latest robots.txt fetch from {@code fetches} (the store's, at start). */
    public void seedRobots(List<StoredHit> fetches, Function<String, String> familyOf) {
        for (StoredHit fetch : fetches) {
            if (Verification.verified.name().equals(fetch.verification())) {
                fetched(familyOf.apply(fetch.crawler()), fetch.status(), fetch.epochMillis());
            }
        }
    }

    /**
     * Takes each verified family's latest robots.txt fetch from {@code store}, on a thread of its
     * own: a slow store must not delay serving, and a fetch stored meanwhile is newer anyway.
     */
    public void seedInBackground(HitReader store, Function<String, String> familyOf) {
        Threads.startDaemon("metrics-seed", () -> {
            try {
                seedRobots(CountsSeed.robotsFetches(store, store.snapshot(), Set.of(Verification.verified)), familyOf);
            } catch (RuntimeException e) {
                // the gauges start from the next fetch; the report says what is wrong with the store
            }
        });
    }

    private void fetched(String family, int status, long millis) {
        Fetch before = robots.get(family);
        robots.merge(family, new Fetch(status, millis), (a, b) -> b.millis >= a.millis ? b : a);
        if (before == null) {
            MeterRegistry bound = registry;
            if (bound != null) {
                robotsGauges(bound, family);
            }
        }
    }

    /** {@code 2xx}: the class of {@code status}; {@code other} out of 100-599. */
    static String statusClass(int status) {
        return status >= 100 && status <= 599 ? (status / 100) + "xx" : "other";
    }

    @Override
    public synchronized void bindTo(MeterRegistry bound) {
        registry = bound;
        hits.forEach((key, adder) -> register(bound, key, adder));
        errors.forEach((key, adder) -> register(bound, key, adder));
        robots.keySet().forEach(family -> robotsGauges(bound, family));
    }

    private LongAdder registered(Object key) {
        LongAdder adder = new LongAdder();
        MeterRegistry bound = registry;
        if (bound != null) {
            register(bound, key, adder);
        }
        return adder;
    }

    private static void register(MeterRegistry registry, Object key, LongAdder adder) {
        if (key instanceof HitKey k) {
            FunctionCounter.builder("crawl_errors_crawler_hits", adder, LongAdder::sum)
                    .description("crawler hits stored, by status class, bot type, verification and crawler family")
                    .tag("status_class", k.statusClass()).tag("bot_type", k.botType().name()).tag("verification", k.verification().name())
                    .tag("family", k.family()).register(registry);
        } else if (key instanceof ErrorKey k) {
            FunctionCounter.builder("crawl_errors_crawler_error_hits", adder, LongAdder::sum)
                    .description("crawler hits stored that got a 4xx or 5xx, by status, verification and crawler family")
                    .tag("status", Integer.toString(k.status())).tag("verification", k.verification().name()).tag("family", k.family())
                    .register(registry);
        }
    }

    private void robotsGauges(MeterRegistry registry, String family) {
        Gauge.builder("crawl_errors_robots_txt_status", robots, r -> r.containsKey(family) ? r.get(family).status : Double.NaN)
                .description("the status of the latest robots.txt fetch of a verified crawler of the family")
                .tag("family", family).register(registry);
        Gauge.builder("crawl_errors_robots_txt_fetch_timestamp_seconds", robots,
                        r -> r.containsKey(family) ? r.get(family).millis / 1000.0 : Double.NaN)
                .description("when a verified crawler of the family last fetched robots.txt, as the log says (Unix time)")
                .tag("family", family).register(registry);
    }
}
