package dev.crawlerrors.report.pattern;

import dev.crawlerrors.store.UrlCount;
import dev.crawlerrors.store.UrlPattern;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The URL shapes of a set of error hits, kept as hits are counted: URLs go in ({@link #add}), the
 * patterns come out ({@link #report}). Not thread-safe: its owner serialises access.
 */
public final class UrlShapes {

    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm");
    /** The URLs listed for a pattern that is a placeholder alone. */
    static final int TOP_URLS = 10;

    private final ShapeTrie trie = new ShapeTrie();

    public void add(UrlCount count) {
        trie.add(count);
    }

    /** The patterns, most hits first (ties by text); times in {@code zone}, placeholders named by {@code names}. */
    public PatternReport report(ZoneId zone, PlaceholderNames names) {
        List<ShapeGeneralizer.Shape> shapes = ShapeGeneralizer.shapes(trie);
        Diagnoses diagnoses = new Diagnoses(shapes, names);
        long total = shapes.stream().mapToLong(s -> s.stats().hits).sum() + trie.otherTargets.hits;
        List<ErrorPattern> patterns = new ArrayList<>();
        Map<String, UrlPattern> matchers = new HashMap<>();
        for (ShapeGeneralizer.Shape shape : shapes) {
            ShapeStats stats = shape.stats();
            String text = names.text(shape.pattern());
            matchers.putIfAbsent(text, shape.pattern());
            patterns.add(new ErrorPattern(text, stats.hits, total == 0 ? 0 : (double) stats.hits / total,
                    new LinkedHashMap<>(stats.statuses), new LinkedHashMap<>(stats.botTypes),
                    minute(stats.firstMillis, zone), minute(stats.lastMillis, zone), stats.examples(), diagnoses.of(shape),
                    placeholderAlone(shape.pattern()) && stats.topUrls != null ? stats.topUrls.top(TOP_URLS) : List.of()));
        }
        patterns.sort(Comparator.comparingLong(ErrorPattern::hits).reversed().thenComparing(ErrorPattern::pattern));
        return new PatternReport(total, patterns, matchers);
    }

    /** A pattern of one placeholder and nothing else ({@code /{1}}, {@code /{1}/}): its URLs are listed, as it says nothing itself. */
    private static boolean placeholderAlone(UrlPattern pattern) {
        return pattern.rooted() && pattern.segments().size() == 1 && pattern.segments().get(0).kind() == UrlPattern.Kind.ANY;
    }

    /** How many nodes the summary holds (bounded by {@link ShapeTrie#MAX_NODES} and a little). */
    public int size() {
        return trie.nodes();
    }

    private static String minute(long millis, ZoneId zone) {
        return MINUTE.format(Instant.ofEpochMilli(millis).atZone(zone));
    }
}
