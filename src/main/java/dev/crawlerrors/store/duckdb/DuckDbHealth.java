package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.DamagedStoreException;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoreHealth;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a DuckDB store answers: damage any read or write met is told at once, else what the
 * report's first page reads is read, so that a damaged block there fails here rather than on a
 * page; and how many hits the store holds.
 */
final class DuckDbHealth implements StoreHealth {

    /** The hits appended last that {@link #checkReadable} reads whole: a vector of DuckDB's. */
    private static final int LAST_APPENDED_READ = 2048;
    /** The hits appended last whose error hits {@link #checkNewest} reads: a row group of DuckDB's. */
    static final int NEWEST_READ = 122_880;

    private final DuckDbFailures failures;
    private final DuckDbQuery query;
    private final DuckDbHitWriter writer;
    private final DuckDbHitReader reader;

    DuckDbHealth(DuckDbFailures failures, DuckDbQuery query, DuckDbHitWriter writer, DuckDbHitReader reader) {
        this.failures = failures;
        this.query = query;
        this.writer = writer;
        this.reader = reader;
    }

    /**
     * Reads the time, status, address, crawler and claim of every error hit of the default view at
     * the newest snapshot (what the first page's count and order read), every column of the hits
     * appended last, of the verdicts and their log and of the logs' progress: about what a view of
     * the first page costs, so a health check stays cheap; {@code crawl-errors check} reads the rest.
     */
    @Override
    public void checkReadable() {
        check(Long.MIN_VALUE);
    }

    /** As {@link #checkReadable}, the error hits of the newest row group only: what the first page's newest rows read. */
    @Override
    public void checkNewest() {
        check(writer.snapshot().hits() - NEWEST_READ);
    }

    /** Reads as {@link #checkReadable} says, the error hits from id {@code fromId} on. */
    private void check(long fromId) {
        DamagedStoreException seen = failures.damage();
        if (seen != null) {
            throw seen;
        }
        Snapshot now = writer.snapshot();
        List<Object> params = new ArrayList<>();
        String errors = "SELECT count(*), sum(epoch_ms(h.ts) % 1000), sum(hash(h.ip, h.crawler, h.claim_id)) FROM hits h WHERE "
                + DuckDbFilter.where(HitFilter.ERRORS, params) + " AND h.id <= ? AND h.id > ? AND "
                + reader.claims(HitFilter.ERRORS.effectiveVerifications(), now);
        params.add(now.hits());
        params.add(fromId);
        query.run(errors, params, DuckDbHealth::oneRow);
        // a constant bound, so DuckDB skips every row group but the last by its min and max id
        query.run("SELECT sum(hash(COLUMNS(*))) FROM hits WHERE id > ?", List.of(now.hits() - LAST_APPENDED_READ), DuckDbHealth::oneRow);
        for (String table : List.of("verdicts", "verdict_log", "imports", "import_files", "store_meta")) {
            query.run("SELECT sum(hash(COLUMNS(*))) FROM " + table, List.of(), DuckDbHealth::oneRow);
        }
    }

    @Override
    public long size() {
        writer.snapshot(); // what this thread appended is committed, so it is counted
        return query.run("SELECT count(*) FROM hits", List.of(), rs -> {
            rs.next();
            return rs.getLong(1);
        });
    }

    private static Void oneRow(ResultSet rs) throws SQLException {
        rs.next();
        return null;
    }
}
