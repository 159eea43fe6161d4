package dev.crawlerrors.report;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.store.UrlSort;
import dev.crawlerrors.store.UrlState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the crawl budget goes: the view's crawler hits (every status, not only errors) by first path
 * segment and status class, and the share that got a page (2xx), most hits first. Added up from the
 * URLs' kept states, which count each URL's hits by class, at the overview's snapshot.
 */
public final class CrawlBudget {

    /** Segments shown at most; the rest are added up in one row. */
    static final int SHOWN = 25;
    /** The status classes, in the order the table and its bars show them. */
    public static final List<String> CLASSES = List.of("2xx", "304", "redirect", "4xx", "5xx");
    public static final String OTHERS = "(other segments)";

    /**
     * One first path segment ({@code /antwerp/}, or the whole path when it has no second slash).
     *
     * @param byClass   its hits by status class, in {@link #CLASSES}' order
     * @param pageShare the share of its hits answered 2xx, from 0 to 1
     * @param text      its largest share that got no page, in words, or null when most got one
     */
    public record Segment(String segment, long urls, long hits, Map<String, Long> byClass, double pageShare, String text) {
    }

    private final UrlReport urls;

    public CrawlBudget(UrlReport urls) {
        this.urls = urls;
    }

    /** The segments of the view {@code filter} shows (any status) at {@code at}, most hits first. */
    public List<Segment> of(HitFilter filter, String at) {
        Snapshot snapshot = at == null ? null : Snapshot.parse(at);
        Snapshot when = snapshot == null ? urls.newest() : snapshot;
        UrlQuery every = new UrlQuery(filter.withStatuses(List.of()), Set.of(), false, false, UrlSort.errors);
        Map<String, long[]> counts = new HashMap<>();
        UrlReport.read(() -> {
            urls.urls().forEach(every, when, state -> add(counts.computeIfAbsent(segment(state.url()), s -> new long[6]), state));
            return null;
        });
        List<Map.Entry<String, long[]>> sorted = new ArrayList<>(counts.entrySet());
        sorted.sort(Comparator.comparingLong((Map.Entry<String, long[]> e) -> -total(e.getValue())).thenComparing(Map.Entry::getKey));
        List<Segment> segments = new ArrayList<>();
        long[] others = null;
        for (int i = 0; i < sorted.size(); i++) {
            if (i < SHOWN) {
                segments.add(segment(sorted.get(i).getKey(), sorted.get(i).getValue()));
            } else {
                others = others == null ? new long[6] : others;
                for (int c = 0; c < others.length; c++) {
                    others[c] += sorted.get(i).getValue()[c];
                }
            }
        }
        if (others != null) {
            segments.add(segment(OTHERS, others));
        }
        return segments;
    }

    private static void add(long[] counts, UrlState state) {
        counts[0] += state.ok();
        counts[1] += state.notModified();
        counts[2] += state.redirects();
        counts[3] += state.clientErrors();
        counts[4] += state.serverErrors();
        counts[5]++;
    }

    private static long total(long[] counts) {
        return counts[0] + counts[1] + counts[2] + counts[3] + counts[4];
    }

    /** A path's first segment: {@code /antwerp/} of {@code /antwerp/meir?x=1}, the path itself when it has no second slash. */
    static String segment(String url) {
        int query = url.indexOf('?');
        String path = query < 0 ? url : url.substring(0, query);
        int slash = path.indexOf('/', 1);
        return slash < 0 ? path : path.substring(0, slash + 1);
    }

    private static Segment segment(String name, long[] counts) {
        long hits = total(counts);
        Map<String, Long> byClass = new LinkedHashMap<>();
        for (int c = 0; c < CLASSES.size(); c++) {
            byClass.put(CLASSES.get(c), counts[c]);
        }
        double pageShare = hits == 0 ? 0 : (double) counts[0] / hits;
        String text = null;
        int largest = 1;
        for (int c = 2; c < CLASSES.size(); c++) {
            largest = counts[c] > counts[largest] ? c : largest;
        }
        if (hits > 0 && counts[largest] * 2 >= hits - counts[0] && counts[0] * 2 < hits) {
            String what = switch (CLASSES.get(largest)) {
                case "304" -> "not modified (304)";
                case "redirect" -> "redirects";
                case "4xx" -> "client errors (4xx)";
                default -> "server errors (5xx)";
            };
            text = Math.round(100.0 * counts[largest] / hits) + "% of the fetches of " + name + " were " + what;
        }
        return new Segment(name, counts[5], hits, byClass, pageShare, text);
    }
}
