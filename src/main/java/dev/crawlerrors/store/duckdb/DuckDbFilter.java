package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.UrlPattern;
import dev.crawlerrors.store.UrlPatternMatch;
import java.util.ArrayList;
import java.util.Collection;
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
        return where(filter, params, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /**
     * The condition of {@code filter} for hits known to fall from {@code fromMillis} (inclusive) to
     * {@code toMillis} (a page's times): {@code in_sitemap} then reads only the URL histories' rows
     * of those times, not every one of the statuses shown.
     */
    static String where(HitFilter filter, List<Object> params, long fromMillis, long toMillis) {
        return where(filter, params, fromMillis, toMillis, null);
    }

    /**
     * As {@link #where(HitFilter, List, long, long)}, {@code in_sitemap} of a page's bounded times
     * tested by {@code listedHits} (when not null) on the times' few rows.
     */
    static String where(HitFilter filter, List<Object> params, long fromMillis, long toMillis, DuckDbListedHits listedHits) {
        List<String> parts = new ArrayList<>();
        List<String> status = new ArrayList<>();
        List<String> historyStatus = new ArrayList<>();
        for (StatusRange range : filter.effectiveStatuses()) {
            if (range.low() == range.high()) {
                status.add("h.status = ?");
                params.add(range.low());
            } else {
                status.add("h.status BETWEEN ? AND ?");
                params.add(range.low());
                params.add(range.high());
            }
            historyStatus.add("s BETWEEN " + range.low() + " AND " + range.high());
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
            // the URL histories' rows asked only of the statuses shown: a smaller set of hits to match
            String rows = historyStatus.isEmpty() ? "TRUE" : "(" + String.join(" OR ", historyStatus) + ")";
            long from = Math.max(fromMillis, filter.from() == null ? Long.MIN_VALUE : filter.from().toEpochMilli());
            long to = Math.min(toMillis, filter.to() == null ? Long.MAX_VALUE : filter.to().toEpochMilli());
            rows += (from == Long.MIN_VALUE ? "" : " AND t >= " + from) + (to == Long.MAX_VALUE ? "" : " AND t < " + to);
            // a start alone bounds the rows too: a first page asked before its view is counted reads the newest
            // hits from a time on (NewestRows), whose condition was the join of every listed number, seconds at 10M hits
            String tested = listedHits == null || from == Long.MIN_VALUE ? null : listedHits.condition(filter.inSitemap(), rows, params);
            String listed = DuckDbSitemaps.listed(rows);
            parts.add(tested != null ? tested : filter.inSitemap() ? listed : "NOT " + listed);
        }
        return String.join(" AND ", parts);
    }

    /** The condition of {@code window}'s hit numbers (its verdicts are the claims', {@link DuckDbClaims}). */
    static String window(HitWindow window, List<Object> params) {
        params.add(window.afterHits());
        params.add(window.snapshot().hits());
        return " AND h.id > ? AND h.id <= ?";
    }

    /** A URL shape ({@link UrlPatternMatch}), its words written into the expression (DuckDB's RE2 reads UTF-8). */
    static String pattern(UrlPattern pattern, List<Object> params) {
        UrlPatternMatch match = UrlPatternMatch.of(pattern, true);
        if (match.nothing()) {
            return "FALSE";
        }
        if (match.target() != null) {
            params.add(match.target());
            return PATH + " = ?";
        }
        List<String> parts = new ArrayList<>();
        parts.add("regexp_full_match(" + PATH + ", ?)");
        params.add(match.expression());
        for (UrlPatternMatch.SegmentTest test : match.segments()) {
            String nth = "split_part(" + PATH + ", '/', " + test.index() + ")";
            parts.add(switch (test.test()) {
                case IS -> nth + " = ?";
                case NOT_IN -> nth + " NOT IN (" + placeholders(test.words().size()) + ")";
                case NOT_NUMBER -> "NOT regexp_full_match(" + nth + ", '" + UrlPatternMatch.NUMBER + "')";
                case NOT_LETTER -> "NOT regexp_full_match(" + nth + ", '" + UrlPatternMatch.LETTER + "')";
            });
            params.addAll(test.words());
        }
        return "(" + String.join(" AND ", parts) + ")";
    }

    static String placeholders(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }

    /**
     * The numbers of the claims of the crawlers named {@code crawlers}, from {@code verdicts}: those
     * recorded under a name, and the signed ones recorded under a name and a group
     * ({@link dev.crawlerrors.crawler.CrawlerHit#signedClaim}); the names go to {@code params}.
     */
    static String claimsOf(Collection<String> crawlers, List<Object> params) {
        params.addAll(crawlers);
        params.addAll(crawlers);
        String group = "chr(" + (int) dev.crawlerrors.crawler.CrawlerHit.GROUP + ")";
        return "SELECT claim_id FROM verdicts WHERE crawler IN (" + placeholders(crawlers.size()) + ") OR (contains(crawler, " + group
                + ") AND split_part(crawler, " + group + ", 1) IN (" + placeholders(crawlers.size()) + "))";
    }
}
