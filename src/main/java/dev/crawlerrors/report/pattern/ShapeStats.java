package dev.crawlerrors.report.pattern;

import dev.crawlerrors.store.UrlCount;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What is known of the hits of one shape: how many, of which statuses and bot types, when, how slow, and a few URLs. */
final class ShapeStats {

    /**
     * URLs kept as examples: the most recently requested (the latest hit of each), ties by URL.
     *
     * <p>Why the newest and not the most requested: a URL's hits come in several counts (one per
     * status and bot type, one per window of new hits) and in whatever order the store streams them,
     * and only a few examples are kept. A sum kept for the few cannot be right for a URL that was
     * dropped before its other counts came; a latest time can, whatever the order: a URL's latest hit
     * is in one of its counts, and once it is among the kept it stays (every URL that could push it
     * out is newer). So the examples are defined by the hits alone, the same from every store.
     */
    static final int EXAMPLES = 3;
    private static final Comparator<Example> NEWEST =
            Comparator.comparingLong(Example::lastMillis).reversed().thenComparing(Example::url);

    long hits;
    final Map<Integer, Long> statuses = new TreeMap<>();
    final Map<String, Long> botTypes = new TreeMap<>();
    long firstMillis = Long.MAX_VALUE;
    long lastMillis = Long.MIN_VALUE;
    long timedHits;
    long slowHits;
    /** How many distinct URLs were counted (a URL counted again in a later window counts again: a bound, not exact). */
    long urls;
    private final List<Example> examples = new ArrayList<>(EXAMPLES + 1);
    /**
     * The newest URLs among those answered 404 or 410, kept the same way: the example a diagnosis of
     * pages that do not exist names, where the newest of all may be one that redirected.
     */
    private final List<Example> notFound = new ArrayList<>(EXAMPLES + 1);
    /** The hits of each URL, kept for the paths of one segment only ({@code /{1}} on a flat site): null elsewhere. */
    TopUrls topUrls;
    /** Where its redirects went, when the log recorded it; null when it recorded none. */
    RedirectTargets targets;

    record Example(String url, long lastMillis) {
    }

    void add(UrlCount count) {
        hits += count.hits();
        statuses.merge(count.status(), count.hits(), Long::sum);
        botTypes.merge(count.botType(), count.hits(), Long::sum);
        firstMillis = Math.min(firstMillis, count.firstMillis());
        lastMillis = Math.max(lastMillis, count.lastMillis());
        timedHits += count.timedHits();
        slowHits += count.slowHits();
        urls++;
        offer(examples, new Example(count.url(), count.lastMillis()));
        if (count.status() == 404 || count.status() == 410) {
            offer(notFound, new Example(count.url(), count.lastMillis()));
        }
        if (count.location() != null && count.status() >= 300 && count.status() < 400) {
            if (targets == null) {
                targets = new RedirectTargets();
            }
            targets.add(count.url(), count.host(), count.location(), count.hits(), count.lastMillis());
        }
    }

    void addAll(ShapeStats other) {
        hits += other.hits;
        other.statuses.forEach((k, v) -> statuses.merge(k, v, Long::sum));
        other.botTypes.forEach((k, v) -> botTypes.merge(k, v, Long::sum));
        firstMillis = Math.min(firstMillis, other.firstMillis);
        lastMillis = Math.max(lastMillis, other.lastMillis);
        timedHits += other.timedHits;
        slowHits += other.slowHits;
        urls += other.urls;
        other.examples.forEach(example -> offer(examples, example));
        other.notFound.forEach(example -> offer(notFound, example));
        if (other.targets != null) {
            if (targets == null) {
                targets = other.targets.copy();
            } else {
                targets.addAll(other.targets);
            }
        }
        if (other.topUrls != null) {
            if (topUrls == null) {
                topUrls = other.topUrls.copy();
            } else {
                topUrls.addAll(other.topUrls);
            }
        }
    }

    /** Counts the URL's hits one by one too: for a path of one segment. */
    void addTop(UrlCount count) {
        if (topUrls == null) {
            topUrls = new TopUrls();
        }
        topUrls.add(count.url(), count.hits());
    }

    ShapeStats copy() {
        ShapeStats copy = new ShapeStats();
        copy.addAll(this);
        return copy;
    }

    /** The hits of the statuses from {@code low} to {@code high}. */
    long hits(int low, int high) {
        long n = 0;
        for (var e : statuses.entrySet()) {
            if (e.getKey() >= low && e.getKey() <= high) {
                n += e.getValue();
            }
        }
        return n;
    }

    /** The statuses from {@code low} to {@code high} the shape has, as "404" or "404, 410". */
    String codes(int low, int high) {
        return String.join(", ", statuses.keySet().stream().filter(s -> s >= low && s <= high).map(String::valueOf).toList());
    }

    /** The hits of redirecting statuses (301, 302, 303, 307, 308). */
    long redirects() {
        return hits(301, 303) + hits(307, 308);
    }

    /** Whether more than half the hits are redirects. */
    boolean mostlyRedirects() {
        return redirects() * 2 > hits;
    }

    /** At least half the hits: what a status must have to name the shape. */
    long half() {
        return (hits + 1) / 2;
    }

    /** The most recently requested URLs, the newest first (ties by URL). */
    List<String> examples() {
        return examples.stream().map(Example::url).toList();
    }

    /** The most recently requested URLs answered 404 or 410, the newest first (ties by URL). */
    List<String> notFoundExamples() {
        return notFound.stream().map(Example::url).toList();
    }

    private static void offer(List<Example> kept, Example example) {
        for (int i = 0; i < kept.size(); i++) {
            if (kept.get(i).url().equals(example.url())) {
                example = new Example(example.url(), Math.max(kept.get(i).lastMillis(), example.lastMillis()));
                kept.remove(i);
                break;
            }
        }
        kept.add(example);
        kept.sort(NEWEST);
        if (kept.size() > EXAMPLES) {
            kept.remove(EXAMPLES);
        }
    }
}
