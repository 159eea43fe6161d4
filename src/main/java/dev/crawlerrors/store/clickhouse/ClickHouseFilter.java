package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StatusRange;
import java.util.ArrayList;
import java.util.List;

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
        if (!filter.botTypes().isEmpty()) {
            parts.add("bot_type IN (" + ClickHouseSql.quoted(filter.botTypes().stream().map(BotType::name).sorted().toList()) + ")");
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
}
