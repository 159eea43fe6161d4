package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.UrlPattern;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A {@link HitFilter} in DuckDB's SQL: a condition over the hits {@code h}. */
final class DuckDbFilter {

    /** The path of a hit's URL: what comes before the query string. */
    private static final String PATH = "split_part(h.url, '?', 1)";

    private DuckDbFilter() {
    }

    /** The condition of {@code filter}, with its parameters appended to {@code params}. */
    static String where(HitFilter filter, List<Object> params) {
        List<String> parts = new ArrayList<>();
        List<String> status = new ArrayList<>();
        for (StatusRange range : filter.effectiveStatuses()) {
            if (range.low() == range.high()) {
                status.add("h.status = ?");
                params.add(range.low());
            } else {
                status.add("h.status BETWEEN ? AND ?");
                params.add(range.low());
                params.add(range.high());
            }
        }
        parts.add("(" + String.join(" OR ", status) + ")");
        if (!filter.botTypes().isEmpty() && !filter.everyBotType()) {
            parts.add("h.bot_type IN (" + placeholders(filter.botTypes().size()) + ")");
            filter.botTypes().forEach(b -> params.add(b.name()));
        }
        if (!filter.hiddenBotTypes().isEmpty()) {
            parts.add("h.bot_type NOT IN (" + placeholders(filter.hiddenBotTypes().size()) + ")");
            filter.hiddenBotTypes().forEach(b -> params.add(b.name()));
        }
        if (!filter.crawlers().isEmpty()) {
            parts.add("h.crawler IN (" + placeholders(filter.crawlers().size()) + ")");
            params.addAll(filter.crawlers());
        }
        if (filter.from() != null) {
            parts.add("h.ts >= epoch_ms(?)");
            params.add(filter.from().toEpochMilli());
        }
        if (filter.to() != null) {
            parts.add("h.ts < epoch_ms(?)");
            params.add(filter.to().toEpochMilli());
        }
        if (filter.urlPrefix() != null) {
            parts.add("starts_with(h.url, ?)");
            params.add(filter.urlPrefix());
        }
        if (filter.host() != null) {
            parts.add("h.host = ?");
            params.add(filter.host());
        }
        if (filter.urlPattern() != null) {
            parts.add(pattern(filter.urlPattern(), params));
        }
        if (filter.inSitemap() != null) {
            parts.add(filter.inSitemap() ? DuckDbSitemaps.LISTED : "NOT " + DuckDbSitemaps.LISTED);
        }
        return String.join(" AND ", parts);
    }

    /** The condition of {@code window}'s hit numbers (its verdicts are the claims', {@link DuckDbClaims}). */
    static String window(HitWindow window, List<Object> params) {
        params.add(window.afterHits());
        params.add(window.snapshot().hits());
        return " AND h.id > ? AND h.id <= ?";
    }

    /**
     * A URL shape: the path's whole shape as a regular expression (RE2, which DuckDB uses), and for
     * each "any" segment the words it is not, as {@link UrlPattern#matches} reads them.
     */
    static String pattern(UrlPattern pattern, List<Object> params) {
        if (pattern.matchesNothing()) {
            return "FALSE"; // its expression would take /a/ for a and an empty segment (see UrlPattern.matchesNothing)
        }
        if (!pattern.rooted()) {
            params.add(pattern.segments().get(0).literal());
            return PATH + " = ?";
        }
        List<String> parts = new ArrayList<>();
        List<Object> exceptions = new ArrayList<>();
        StringBuilder regex = new StringBuilder("/");
        List<UrlPattern.Segment> segments = pattern.segments();
        for (int i = 0; i < segments.size(); i++) {
            UrlPattern.Segment segment = segments.get(i);
            boolean last = i == segments.size() - 1;
            if (i > 0) {
                regex.append('/');
            }
            regex.append(switch (segment.kind()) {
                case LITERAL -> quote(segment.literal());
                case NUMBER -> "[0-9]+";
                case LETTER -> "[A-Za-z]";
                // a path without a trailing slash never ends in an empty segment
                case ANY -> last && !pattern.trailingSlash() ? "[^/]+" : "[^/]*";
            });
            if (segment.kind() == UrlPattern.Kind.ANY) {
                String nth = "split_part(" + PATH + ", '/', " + (i + 2) + ")";
                if (!segment.except().isEmpty()) {
                    parts.add(nth + " NOT IN (" + placeholders(segment.except().size()) + ")");
                    exceptions.addAll(segment.except().stream().sorted().toList());
                }
                if (segment.exceptNumbers()) {
                    parts.add("NOT regexp_full_match(" + nth + ", '[0-9]+')");
                }
                if (segment.exceptLetters()) {
                    parts.add("NOT regexp_full_match(" + nth + ", '[A-Za-z]')");
                }
            }
        }
        if (pattern.trailingSlash() && !segments.isEmpty()) {
            regex.append('/');
        }
        parts.add(0, "regexp_full_match(" + PATH + ", ?)");
        params.add(regex.toString());
        params.addAll(exceptions);
        return "(" + String.join(" AND ", parts) + ")";
    }

    /** {@code text} matched as written: every character but a letter or digit as a code point escape. */
    static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() * 2);
        text.codePoints().forEach(c -> {
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
                out.appendCodePoint(c);
            } else {
                out.append("\\x{").append(Integer.toHexString(c)).append('}');
            }
        });
        return out.toString();
    }

    static String placeholders(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }
}
