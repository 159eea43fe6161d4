package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.UrlPattern;
import dev.crawlerrors.store.UrlPatternMatch;
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
     * URL, a host, a URL shape, or a time that is not a whole minute.
     */
    static String minuteWhere(HitFilter filter) {
        if (filter.urlPrefix() != null || filter.host() != null || filter.urlPattern() != null || !wholeMinute(filter.from())
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
     * A URL shape ({@link UrlPatternMatch}), each word the path must have as an equality on its
     * segment, so the expression stays ASCII whatever ClickHouse's RE2 takes the bytes for.
     */
    static String pattern(UrlPattern pattern) {
        UrlPatternMatch match = UrlPatternMatch.of(pattern, false);
        if (match.nothing()) {
            return "0";
        }
        if (match.target() != null) {
            return PATH + " = " + ClickHouseSql.quote(match.target());
        }
        List<String> parts = new ArrayList<>();
        parts.add("match(" + PATH + ", " + ClickHouseSql.quote("^" + match.expression() + "$") + ")");
        for (UrlPatternMatch.SegmentTest test : match.segments()) {
            String nth = "splitByChar('/', " + PATH + ")[" + test.index() + "]";
            parts.add(switch (test.test()) {
                case IS -> nth + " = " + ClickHouseSql.quote(test.words().get(0));
                case NOT_IN -> nth + " NOT IN (" + ClickHouseSql.quoted(test.words()) + ")";
                case NOT_NUMBER -> "NOT match(" + nth + ", '^" + UrlPatternMatch.NUMBER + "$')";
                case NOT_LETTER -> "NOT match(" + nth + ", '^" + UrlPatternMatch.LETTER + "$')";
            });
        }
        return "(" + String.join(" AND ", parts) + ")";
    }

    private static List<String> names(Set<BotType> types) {
        return types.stream().map(BotType::name).sorted().toList();
    }
}
