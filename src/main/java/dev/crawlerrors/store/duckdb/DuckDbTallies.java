package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.BreakdownCount;
import dev.crawlerrors.store.DurationBuckets;
import dev.crawlerrors.store.DurationCount;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.MinuteCell;
import dev.crawlerrors.store.TimeCount;
import dev.crawlerrors.store.UrlCount;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The counts the patterns page, the overview and the report's summary are made of: matching hits
 * grouped by time, crawler, duration or URL, over a window of a snapshot's hits so that the report
 * can count what arrived since it last counted. No count joins the verdicts: a hit's verdict is its
 * claim's as of the snapshot ({@link DuckDbHitReader#verdict}).
 */
final class DuckDbTallies {

    private static final String FROM = " FROM hits h ";
    /**
     * {@link DurationBuckets#bucket} in SQL. Concatenated, not formatted (numbers as Java writes
     * them, whatever the locale): the store opens with its reader, and an import starts no Formatter.
     */
    private static final String DURATION_BUCKET = "CASE WHEN h.duration_ms >= " + DurationBuckets.FLOOR_MS + " THEN least("
            + DurationBuckets.LAST + ", 1 + floor(ln(h.duration_ms / " + DurationBuckets.FLOOR_MS + ") / ln(" + DurationBuckets.RATIO
            + ")))::INTEGER ELSE 0 END";

    private final DuckDbQuery query;
    private final DuckDbHitReader reader;

    DuckDbTallies(DuckDbQuery query, DuckDbHitReader reader) {
        this.query = query;
        this.reader = reader;
    }

    /**
     * The condition of {@code filter} over {@code window}: its hits, with the verdicts it asks for as
     * of the window's snapshot (a condition on claim numbers, as the report's pages have it).
     */
    private String where(HitFilter filter, HitWindow window, List<Object> params) {
        return DuckDbFilter.where(filter, params) + DuckDbFilter.window(window, params) + " AND "
                + reader.claims(filter.effectiveVerifications(), window.snapshot());
    }

    List<TimeCount> byTime(HitFilter filter, HitWindow window, long bucketMillis) {
        List<Object> params = new ArrayList<>();
        params.add(bucketMillis);
        params.add(bucketMillis);
        String sql = "SELECT (epoch_ms(h.ts) // ?) * ?, h.status, " + reader.verdict(window.snapshot()) + ", count(*)" + FROM + "WHERE "
                + where(filter, window, params) + " GROUP BY ALL";
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
        String sql = "SELECT h.crawler, h.bot_type, " + reader.verdict(window.snapshot()) + ", h.status, count(*)" + FROM + "WHERE "
                + where(filter, window, params) + " GROUP BY ALL";
        return query.run(sql, params, rs -> {
            List<BreakdownCount> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(new BreakdownCount(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getLong(5)));
            }
            return rows;
        });
    }

    /**
     * Every hit of {@code window} by minute, status, bot type, crawler and verdict, and when
     * {@code byUrl} by host and URL head too, streamed (see {@link MinuteCell}).
     */
    void byMinute(HitWindow window, boolean byUrl, Consumer<MinuteCell> cells) {
        List<Object> params = new ArrayList<>();
        String url = byUrl ? ", h.host, coalesce(nullif(regexp_extract(h.url, '" + MinuteCell.URL_HEAD
                + "'), ''), CASE WHEN starts_with(h.url, '/') THEN '/' ELSE '' END)" : "";
        String sql = "SELECT epoch_ms(h.ts) // 60000, h.status, h.bot_type, h.crawler, " + reader.verdict(window.snapshot()) + url
                + ", count(*)" + FROM + "WHERE " + where(MinuteCell.EVERY_HIT, window, params) + " GROUP BY ALL";
        query.run(sql, params, rs -> {
            while (rs.next()) {
                cells.accept(byUrl
                        ? new MinuteCell(rs.getLong(1), rs.getInt(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6),
                                rs.getString(7), rs.getLong(8))
                        : new MinuteCell(rs.getLong(1), rs.getInt(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getLong(6)));
            }
            return null;
        });
    }

    /** Every hit of {@code window} by minute, status, bot type, crawler, verdict and whether a sitemap lists its URL, streamed. */
    void bySitemap(HitWindow window, Consumer<MinuteCell> cells) {
        List<Object> params = new ArrayList<>();
        String sql = "SELECT epoch_ms(h.ts) // 60000, h.status, h.bot_type, h.crawler, " + reader.verdict(window.snapshot()) + ", "
                + DuckDbSitemaps.listed("TRUE") + ", count(*)" + FROM + "WHERE " + where(MinuteCell.EVERY_HIT, window, params) + " GROUP BY ALL";
        query.run(sql, params, rs -> {
            while (rs.next()) {
                cells.accept(MinuteCell.listed(rs.getLong(1), rs.getInt(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getBoolean(6),
                        rs.getLong(7)));
            }
            return null;
        });
    }

    List<DurationCount> byDuration(HitFilter filter, HitWindow window) {
        List<Object> params = new ArrayList<>();
        String sql = "SELECT h.status, " + reader.verdict(window.snapshot()) + ", " + DURATION_BUCKET + ", count(*)" + FROM + "WHERE "
                + where(filter, window, params)
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
                + " count(h.duration_ms), count(*) FILTER (WHERE h.duration_ms >= " + DurationBuckets.SLOW_MS + "), max(h.location),"
                + " max(h.host) FILTER (WHERE h.location IS NOT NULL)"
                + " FROM hits h WHERE " + where(filter, window, params)
                + " GROUP BY h.url, h.status, h.bot_type";
        query.run(sql, params, rs -> {
            while (rs.next()) {
                urls.accept(new UrlCount(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getLong(4), rs.getLong(5),
                        rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getString(9), rs.getString(10)));
            }
            return null;
        });
    }
}
