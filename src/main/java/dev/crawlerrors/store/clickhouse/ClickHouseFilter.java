package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StatusRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A {@link HitFilter} in ClickHouse's SQL: a condition over the hits, values written in as literals
 * (escaped; the HTTP interface has no parameters in 18.16). The verdicts it asks for are not in it:
 * they are a condition on claims at a snapshot ({@link ClickHouseVerdicts#filter}).
 */
final class ClickHouseFilter {

    private ClickHouseFilter() {
    }

    static String where(HitFilter filter) {
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
            parts.add("ts_ms >= " + filter.from().toEpochMilli());
        }
        if (filter.to() != null) {
            parts.add("ts_ms < " + filter.to().toEpochMilli());
        }
        if (filter.urlPrefix() != null) {
            parts.add("startsWith(url, " + ClickHouseSql.quote(filter.urlPrefix()) + ")");
        }
        if (filter.host() != null) {
            parts.add("host = " + ClickHouseSql.quote(filter.host()));
        }
        return String.join(" AND ", parts);
    }

    private static List<String> names(Set<BotType> types) {
        return types.stream().map(BotType::name).sorted().toList();
    }
}
