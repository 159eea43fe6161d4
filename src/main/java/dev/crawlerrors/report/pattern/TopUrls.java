package dev.crawlerrors.report.pattern;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The most requested URLs of a shape, with their hits: the answer to "which pages" for a shape that
 * says nothing by itself ({@code /{1}} on a flat site). Exact while at most {@value #CAPACITY} URLs
 * were counted; beyond, a Space-Saving summary (Metwally et al., 2005): a new URL takes the place of
 * the least counted one and inherits its count as its error, so a URL's hits less its error is a
 * count it surely had, and every URL with more hits than the least counted one is kept.
 */
final class TopUrls {

    static final int CAPACITY = 64;

    /** Per URL: its hits as counted, and how many of them may belong to URLs it displaced. */
    private final Map<String, long[]> counts = new HashMap<>();

    void add(String url, long hits) {
        long[] known = counts.get(url);
        if (known != null) {
            known[0] += hits;
            return;
        }
        if (counts.size() < CAPACITY) {
            counts.put(url, new long[] {hits, 0});
            return;
        }
        Map.Entry<String, long[]> least = null;
        for (Map.Entry<String, long[]> e : counts.entrySet()) {
            if (least == null || e.getValue()[0] < least.getValue()[0]
                    || (e.getValue()[0] == least.getValue()[0] && e.getKey().compareTo(least.getKey()) > 0)) {
                least = e;
            }
        }
        long floor = least.getValue()[0];
        counts.remove(least.getKey());
        counts.put(url, new long[] {floor + hits, floor});
    }

    void addAll(TopUrls other) {
        other.counts.forEach((url, c) -> {
            add(url, c[0]);
            counts.get(url)[1] += c[1];
        });
    }

    TopUrls copy() {
        TopUrls copy = new TopUrls();
        counts.forEach((url, c) -> copy.counts.put(url, c.clone()));
        return copy;
    }

    /** The {@code n} most requested, the most first (ties by URL), each with the hits it surely had. */
    List<UrlHits> top(int n) {
        List<UrlHits> all = new ArrayList<>(counts.size());
        counts.forEach((url, c) -> all.add(new UrlHits(url, c[0] - c[1], c[1] == 0)));
        all.sort(Comparator.comparingLong(UrlHits::hits).reversed().thenComparing(UrlHits::url));
        return List.copyOf(all.subList(0, Math.min(n, all.size())));
    }
}
