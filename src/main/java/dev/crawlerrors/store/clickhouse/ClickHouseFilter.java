package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.UrlPattern;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A {@link HitFilter} in ClickHouse's SQL: a condition over the hits, values written in as literals
 * (escaped; the HTTP interface has no parameters in 18.16). The verdicts it asks for are not in it:
 * they are a condition on claims at a snapshot ({@link ClickHouseVerdicts#filter}).
 */
final class ClickHouseFilter {

    /** The path of a hit's URL: what comes before the query string. */
    private static final String PATH = "splitByChar('?', url)[1]";

    private ClickHouseFilter() {
    }

    static String where(HitFilter filter) {
        return where(filter, "ts_ms", 1);
    }

    /**
     * The filter as a condition on the per-minute counts ({@code minute_counts}: minute, writer,
     * batch, status, bot type, crawler and claim), or null when it asks what only the hits hold: a
     * URL, a host, a URL shape, whether a sitemap lists it, or a time that is not a whole minute.
     */
    static String minuteWhere(HitFilter filter) {
        if (filter.urlPrefix() != null || filter.host() != null || filter.urlPattern() != null || filter.inSitemap() != null
                || !wholeMinute(filter.from())
                || !wholeMinute(filter.to())) {
            return null;
        }
        return where(filter, "minute", MINUTE_MILLIS);
    }

    static final long MINUTE_MILLIS = 60_000;

    private static boolean wholeMinute(java.time.Instant time) {
        return time == null || Math.floorMod(time.toEpochMilli(), MINUTE_MILLIS) == 0;
    }

    /** The filter's conditions, its times on {@code timeColumn} in units of {@code millisPerUnit}. */
    private static String where(HitFilter filter, String timeColumn, long millisPerUnit) {
        List<String> parts = new ArrayList<>();
        List<String> status = new ArrayList<>();
        for (StatusRange range : filter.effectiveStatuses()) {
            status.add(range.low() == range.high() ? "status = " + range.low()
                    : "(status >= " + range.low() + " AND status <= " + range.high() + ")");
        }
        parts.add("(" + String.join(" OR ", status) + ")");
        if (!filter.botTypes().isEmpty() && !filter.everyBotType()) {
            parts.add("bot_type IN (" + ClickHouseSql.quoted(names(filter.botTypes())) + ")");
        }
        // monitors and scanners, left out unless bot= or crawler= asks for them
        if (!filter.hiddenBotTypes().isEmpty()) {
            parts.add("bot_type NOT IN (" + ClickHouseSql.quoted(names(filter.hiddenBotTypes())) + ")");
        }
        if (!filter.crawlers().isEmpty()) {
            parts.add("crawler IN (" + ClickHouseSql.quoted(filter.crawlers().stream().sorted().toList()) + ")");
        }
        if (filter.from() != null) {
            parts.add(timeColumn + " >= " + Math.floorDiv(filter.from().toEpochMilli(), millisPerUnit));
        }
        if (filter.to() != null) {
            parts.add(timeColumn + " < " + Math.floorDiv(filter.to().toEpochMilli(), millisPerUnit));
        }
        if (filter.urlPrefix() != null) {
            parts.add("startsWith(url, " + ClickHouseSql.quote(filter.urlPrefix()) + ")");
        }
        if (filter.host() != null) {
            parts.add("host = " + ClickHouseSql.quote(filter.host()));
        }
        if (filter.urlPattern() != null) {
            parts.add(pattern(filter.urlPattern()));
        }
        return String.join(" AND ", parts);
    }

    /**
     * A URL shape, as the embedded store reads it ({@code DuckDbFilter.pattern}): the path's shape
     * as an RE2 expression ({@code match}), each word the path must have as an equality on its
     * segment (so the expression stays ASCII, whatever ClickHouse's RE2 takes the bytes for), and
     * for each "any" segment the words it is not.
     */
    static String pattern(UrlPattern pattern) {
        if (pattern.matchesNothing()) {
            return "0"; // its expression would take /a/ for a and an empty segment (see UrlPattern.matchesNothing)
        }
        if (!pattern.rooted()) {
            return PATH + " = " + ClickHouseSql.quote(pattern.segments().get(0).literal());
        }
        List<String> parts = new ArrayList<>();
        StringBuilder regex = new StringBuilder("^/");
        List<UrlPattern.Segment> segments = pattern.segments();
        for (int i = 0; i < segments.size(); i++) {
            UrlPattern.Segment segment = segments.get(i);
            boolean last = i == segments.size() - 1;
            if (i > 0) {
                regex.append('/');
            }
            regex.append(switch (segment.kind()) {
                case LITERAL -> "[^/]*";
                case NUMBER -> "[0-9]+";
                case LETTER -> "[A-Za-z]";
                // a path without a trailing slash never ends in an empty segment
                case ANY -> last && !pattern.trailingSlash() ? "[^/]+" : "[^/]*";
            });
            String nth = "splitByChar('/', " + PATH + ")[" + (i + 2) + "]";
            if (segment.kind() == UrlPattern.Kind.LITERAL) {
                parts.add(nth + " = " + ClickHouseSql.quote(segment.literal()));
            }
            if (segment.kind() == UrlPattern.Kind.ANY) {
                if (!segment.except().isEmpty()) {
                    parts.add(nth + " NOT IN (" + ClickHouseSql.quoted(segment.except().stream().sorted().toList()) + ")");
                }
                if (segment.exceptNumbers()) {
                    parts.add("NOT match(" + nth + ", '^[0-9]+$')");
                }
                if (segment.exceptLetters()) {
                    parts.add("NOT match(" + nth + ", '^[A-Za-z]$')");
                }
            }
        }
        if (pattern.trailingSlash() && !segments.isEmpty()) {
            regex.append('/');
        }
        parts.add(0, "match(" + PATH + ", " + ClickHouseSql.quote(regex.append('$').toString()) + ")");
        return "(" + String.join(" AND ", parts) + ")";
    }

    private static List<String> names(Set<BotType> types) {
        return types.stream().map(BotType::name).sorted().toList();
    }
}
