package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.BreakdownCount;
import dev.crawlerrors.store.DurationBuckets;
import dev.crawlerrors.store.DurationCount;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.TimeCount;
import dev.crawlerrors.store.UrlCount;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The counts the patterns page, the overview and the report's summary are made of: matching hits
 * grouped by time, crawler, duration or URL, over a window of ids so that the report can count
 * what arrived since it last counted.
 */
final class DuckDbTallies {

    private static final String FROM = " FROM hits h LEFT JOIN verdicts v ON v.ip = h.ip AND v.crawler = h.crawler ";
    private static final String VERDICT = DuckDbHitReader.VERDICT;
    /** {@link DurationBuckets#bucket} in SQL. */
    private static final String DURATION_BUCKET = String.format(Locale.ROOT,
            "CASE WHEN h.duration_ms >= %s THEN least(%d, 1 + floor(ln(h.duration_ms / %s) / ln(%s)))::INTEGER ELSE 0 END",
            DurationBuckets.FLOOR_MS, DurationBuckets.LAST, DurationBuckets.FLOOR_MS, DurationBuckets.RATIO);

    private final DuckDbQuery query;

    DuckDbTallies(DuckDbQuery query) {
        this.query = query;
    }

    List<TimeCount> byTime(HitFilter filter, HitWindow window, long bucketMillis) {
        List<Object> params = new ArrayList<>();
        params.add(bucketMillis);
        params.add(bucketMillis);
        String sql = "SELECT (epoch_ms(h.ts) // ?) * ?, h.status, " + VERDICT + ", count(*)" + FROM + "WHERE "
                + DuckDbFilter.where(filter, params) + DuckDbFilter.window(window, params) + " GROUP BY ALL";
        return query.run(sql, params, rs -> {
            List<TimeCount> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(new TimeCount(rs.getLong(1), rs.getInt(2), rs.getString(3), rs.getLong(4)));
            }
            return rows;
        });
    }

    List<BreakdownCount> byCrawler(HitFilter filter, HitWindow window) {
        List<Object> params = new ArrayList<>();
        String sql = "SELECT h.crawler, h.bot_type, " + VERDICT + ", h.status, count(*)" + FROM + "WHERE "
                + DuckDbFilter.where(filter, params) + DuckDbFilter.window(window, params) + " GROUP BY ALL";
        return query.run(sql, params, rs -> {
            List<BreakdownCount> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(new BreakdownCount(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getLong(5)));
            }
            return rows;
        });
    }

    List<DurationCount> byDuration(HitFilter filter, HitWindow window) {
        List<Object> params = new ArrayList<>();
        String sql = "SELECT h.status, " + VERDICT + ", " + DURATION_BUCKET + ", count(*)" + FROM + "WHERE "
                + DuckDbFilter.where(filter, params) + DuckDbFilter.window(window, params)
                + " AND h.duration_ms IS NOT NULL GROUP BY ALL";
        return query.run(sql, params, rs -> {
            List<DurationCount> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(new DurationCount(rs.getInt(1), rs.getString(2), rs.getInt(3), rs.getLong(4)));
            }
            return rows;
        });
    }

    void forEachUrl(HitFilter filter, HitWindow window, Consumer<UrlCount> urls) {
        List<Object> params = new ArrayList<>();
        String sql = "SELECT h.url, h.status, h.bot_type, count(*), epoch_ms(min(h.ts)), epoch_ms(max(h.ts)),"
                + " count(h.duration_ms), count(*) FILTER (WHERE h.duration_ms >= " + DurationBuckets.SLOW_MS + ")"
                + " FROM hits h WHERE " + DuckDbFilter.where(filter, params) + DuckDbFilter.window(window, params)
                + " GROUP BY ALL";
        query.run(sql, params, rs -> {
            while (rs.next()) {
                urls.accept(new UrlCount(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getLong(4), rs.getLong(5),
                        rs.getLong(6), rs.getLong(7), rs.getLong(8)));
            }
            return null;
        });
    }
}
