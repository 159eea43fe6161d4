package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StatusRange;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A {@link HitFilter} in DuckDB's SQL: a condition over the hits {@code h}. The verdicts it asks
 * for are not in it: they are a condition on the claim numbers, as of a snapshot ({@link DuckDbClaims}).
 */
final class DuckDbFilter {

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
        return String.join(" AND ", parts);
    }

    static String placeholders(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }
}
