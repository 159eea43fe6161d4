package dev.crawlerrors.report.pattern;

import dev.crawlerrors.store.UrlPattern;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The URL patterns of the error hits a filter shows, most hits first, and what each pattern's text matches. */
public record PatternReport(long total, List<ErrorPattern> patterns, Map<String, UrlPattern> matchers) {

    public PatternReport {
        patterns = List.copyOf(patterns);
        matchers = Map.copyOf(matchers);
    }

    public static final PatternReport EMPTY = new PatternReport(0, List.of(), Map.of());

    /** What the pattern with this text matches, when it is one of these. */
    public Optional<UrlPattern> matcher(String text) {
        return Optional.ofNullable(matchers.get(text));
    }
}
