package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** The report's reads on DuckDB: every hit joined with its verdict as of now. */
final class DuckDbHitReader {

    static final String VERDICT = "coalesce(v.verification, 'unverified')";
    private static final String FROM = " FROM hits h LEFT JOIN verdicts v ON v.ip = h.ip AND v.crawler = h.crawler ";
    private static final String COLUMNS = "SELECT h.id, epoch_ms(h.ts), h.utc_offset_minutes, h.ip, h.method, h.url, h.status,"
            + " h.duration_ms, h.crawler, h.bot_type, " + VERDICT + ", coalesce(v.reason, 'not checked yet'),"
            + " h.user_agent, h.host";
    private static final String ORDER = " ORDER BY h.ts DESC, h.id DESC";

    private final DuckDbQuery query;

    DuckDbHitReader(DuckDbQuery query) {
        this.query = query;
    }

    long count(HitFilter filter) {
        List<Object> params = new ArrayList<>();
        // the verdict is a condition here, not a column: no join
        String sql = "SELECT count(*) FROM hits h WHERE " + DuckDbFilter.where(filter, params);
        return query.run(sql, params, rs -> {
            rs.next();
            return rs.getLong(1);
        });
    }

    List<StoredHit> page(HitFilter filter, long offset, int limit) {
        List<Object> params = new ArrayList<>();
        String sql = COLUMNS + FROM + "WHERE " + DuckDbFilter.where(filter, params) + ORDER + " LIMIT ? OFFSET ?";
        params.add(limit);
        params.add(offset);
        return query.run(sql, params, rs -> {
            List<StoredHit> rows = new ArrayList<>(limit);
            while (rs.next()) {
                rows.add(row(rs));
            }
            return rows;
        });
    }

    void forEach(HitFilter filter, Consumer<StoredHit> rows) {
        List<Object> params = new ArrayList<>();
        String sql = COLUMNS + FROM + "WHERE " + DuckDbFilter.where(filter, params) + ORDER;
        query.run(sql, params, rs -> {
            while (rs.next()) {
                rows.accept(row(rs));
            }
            return null;
        });
    }

    Optional<StoredHit> hit(long id) {
        String sql = COLUMNS + FROM + "WHERE h.id = ?";
        return query.run(sql, List.of(id), rs -> rs.next() ? Optional.of(row(rs)) : Optional.empty());
    }

    long size() {
        return query.run("SELECT count(*) FROM hits", List.of(), rs -> {
            rs.next();
            return rs.getLong(1);
        });
    }

    private static StoredHit row(ResultSet rs) throws SQLException {
        double duration = rs.getDouble(8);
        Double durationMs = rs.wasNull() ? null : duration;
        return new StoredHit(rs.getLong(1), rs.getLong(2), rs.getInt(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getInt(7), durationMs, rs.getString(9), rs.getString(10), rs.getString(11),
                rs.getString(12), rs.getString(13), rs.getString(14));
    }
}
