package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.StoredHit;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** The report's reads on DuckDB: every hit joined with its verdict as of now. */
final class DuckDbHitReader implements HitReader {

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

    @Override
    public long count(HitFilter filter) {
        List<Object> params = new ArrayList<>();
        String sql = "SELECT count(*)" + FROM + "WHERE " + DuckDbFilter.where(filter, VERDICT, params);
        return query.run(sql, params, rs -> {
            rs.next();
            return rs.getLong(1);
        });
    }

    @Override
    public List<StoredHit> page(HitFilter filter, long offset, int limit) {
        List<Object> params = new ArrayList<>();
        String sql = COLUMNS + FROM + "WHERE " + DuckDbFilter.where(filter, VERDICT, params) + ORDER + " LIMIT ? OFFSET ?";
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

    @Override
    public void forEach(HitFilter filter, Consumer<StoredHit> rows) {
        List<Object> params = new ArrayList<>();
        String sql = COLUMNS + FROM + "WHERE " + DuckDbFilter.where(filter, VERDICT, params) + ORDER;
        query.run(sql, params, rs -> {
            while (rs.next()) {
                rows.accept(row(rs));
            }
            return null;
        });
    }

    /** The hits appended last that {@link #checkReadable} reads whole: a vector of DuckDB's. */
    private static final int LAST_APPENDED_READ = 2048;

    /**
     * Reads what the report's first page reads, so that a damaged block there fails here rather
     * than on a page: the time, status, address and crawler of every error hit joined with its
     * verdict (what the page's count and order read), every column of the hits appended last,
     * of the verdicts and of the logs' progress. About what a view of the first page costs (50 to
     * 150 ms a million hits on two busy cores); {@code crawl-errors check} reads the rest.
     */
    void checkReadable() {
        List<Object> params = new ArrayList<>();
        String errors = "SELECT count(*), sum(epoch_ms(h.ts) % 1000)" + FROM + "WHERE " + DuckDbFilter.where(HitFilter.ERRORS, VERDICT, params);
        query.run(errors, params, DuckDbHitReader::oneRow);
        long lastId = query.run("SELECT coalesce(max(id), 0) FROM hits", List.of(), rs -> {
            rs.next();
            return rs.getLong(1);
        });
        // a constant bound, so DuckDB skips every row group but the last by its min and max id
        query.run("SELECT sum(hash(COLUMNS(*))) FROM hits WHERE id > ?", List.of(lastId - LAST_APPENDED_READ), DuckDbHitReader::oneRow);
        query.run("SELECT sum(hash(COLUMNS(*))) FROM verdicts", List.of(), DuckDbHitReader::oneRow);
        query.run("SELECT sum(hash(COLUMNS(*))) FROM imports", List.of(), DuckDbHitReader::oneRow);
    }

    private static Void oneRow(ResultSet rs) throws SQLException {
        rs.next();
        return null;
    }

    @Override
    public long size() {
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
