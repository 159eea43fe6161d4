package dev.crawlerrors.report.pattern;

import dev.crawlerrors.store.UrlCount;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What is known of the hits of one shape: how many, of which statuses and bot types, when, how slow, and a few URLs. */
final class ShapeStats {

    /** URLs kept as examples: the most requested. */
    static final int EXAMPLES = 3;
    private static final Comparator<Example> MOST_HITS =
            Comparator.comparingLong(Example::hits).reversed().thenComparing(Example::url);

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

    record Example(String url, long hits) {
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
        offer(new Example(count.url(), count.hits()));
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
        other.examples.forEach(this::offer);
    }

    ShapeStats copy() {
        ShapeStats copy = new ShapeStats();
        copy.addAll(this);
        return copy;
    }

    /** The most requested URLs, most first. */
    List<String> examples() {
        return examples.stream().map(Example::url).toList();
    }

    private void offer(Example example) {
        for (int i = 0; i < examples.size(); i++) {
            if (examples.get(i).url().equals(example.url())) {
                example = new Example(example.url(), examples.get(i).hits() + example.hits());
                examples.remove(i);
                break;
            }
        }
        examples.add(example);
        examples.sort(MOST_HITS);
        if (examples.size() > EXAMPLES) {
            examples.remove(EXAMPLES);
        }
    }
}
