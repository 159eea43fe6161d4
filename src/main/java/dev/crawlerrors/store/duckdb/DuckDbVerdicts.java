package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.StoredVerdict;
import dev.crawlerrors.store.VerdictStore;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * The verdicts table: one row per claim (address and crawler), the claim's current verdict, so a
 * verdict that changes later (a DNS check completing) is one row to update; and the verdict log,
 * every verdict recorded with its number, from which a report reads verdicts as of its snapshot.
 * Written in the writer's transactions ({@link DuckDbHitWriter}), beside the hits that brought them:
 * a verdict updated goes to the writer, which numbers it and writes it with its next batch.
 */
final class DuckDbVerdicts implements VerdictStore {

    /** The verdicts of the batch being written; TEMP: this connection's own, in memory, never in the file. */
    private static final String STAGING = """
            CREATE TEMP TABLE verdict_staging (
              claim_id INTEGER NOT NULL,
              ip VARCHAR NOT NULL,
              crawler VARCHAR NOT NULL,
              verification VARCHAR NOT NULL,
              reason VARCHAR NOT NULL,
              version BIGINT NOT NULL
            )""";

    private final DuckDBConnection connection;
    private final DuckDbQuery query;
    private final Supplier<DuckDbHitWriter> writer;
    /** The statements that move staged verdicts into verdicts and their log; made on the writer thread when first needed. */
    private PreparedStatement clearStaging;
    private PreparedStatement replace;
    private PreparedStatement log;

    /** @param writer the store's writer, made after its verdicts: verdicts are updated through it */
    DuckDbVerdicts(DuckDBConnection connection, DuckDbQuery query, Supplier<DuckDbHitWriter> writer) throws SQLException {
        this.connection = connection;
        this.query = query;
        this.writer = writer;
        // a batch's verdicts go in through an Appender into this connection's own staging table,
        // then into verdicts and their log by fixed statements (prepared once, whatever the number of rows)
        try (Statement st = connection.createStatement()) {
            st.execute(STAGING);
        }
    }

    /**
     * Writes verdicts, each the latest of its claim (the writer numbers a claim's first verdict when
     * it first meets the claim, so a provisional verdict never overwrites one that arrived first),
     * and logs each with its number: the report reads verdicts as of its snapshot. Runs inside the
     * batch's transaction, after a statement has begun it, so the Appender's rows belong to it too.
     */
    void write(Collection<DuckDbClaimVerdict> verdicts) throws SQLException {
        if (verdicts.isEmpty()) {
            return;
        }
        // a statement before the Appender: DuckDB's Appender joins the open transaction only once
        // a statement has begun it, and appending first would commit its rows on their own
        // (prepared once, as every statement a batch runs: planned again each time, they added up)
        if (clearStaging == null) {
            clearStaging = connection.prepareStatement("DELETE FROM verdict_staging");
        }
        clearStaging.execute();
        try (DuckDBAppender appender = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "verdict_staging")) {
            for (DuckDbClaimVerdict row : verdicts) {
                appender.beginRow()
                        .append(row.claim())
                        .append(row.ip())
                        .append(row.crawler())
                        .append(row.verdict().verification().name())
                        .append(row.verdict().reason())
                        .append(row.version())
                        .endRow();
            }
        }
        if (replace == null) {
            replace = connection.prepareStatement("INSERT OR REPLACE INTO verdicts (ip, crawler, verification, reason, checked_at, claim_id, version)"
                    + " SELECT ip, crawler, verification, reason, now(), claim_id, version FROM verdict_staging");
            log = connection.prepareStatement("INSERT INTO verdict_log"
                    + " SELECT version, claim_id, verification, reason, now() FROM verdict_staging");
        }
        replace.executeUpdate();
        log.executeUpdate();
    }

    @Override
    public void update(String ip, String crawler, Verdict verdict) {
        writer.get().updateVerdict(ip, crawler, verdict);
    }

    @Override
    public void updateAll(List<StoredVerdict> verdicts) {
        writer.get().updateVerdicts(verdicts);
    }

    @Override
    public void commit() {
        writer.get().flush();
    }

    /** The verdicts of one kind, what was appended committed first. */
    @Override
    public List<StoredVerdict> of(Verification verification) {
        writer.get().snapshot();
        return query.run("SELECT ip, crawler, verification, reason FROM verdicts WHERE verification = ? ORDER BY ip, crawler",
                List.of(verification.name()), rs -> {
                    List<StoredVerdict> rows = new ArrayList<>();
                    while (rs.next()) {
                        rows.add(new StoredVerdict(rs.getString(1), rs.getString(2),
                                new Verdict(Verification.valueOf(rs.getString(3)), rs.getString(4))));
                    }
                    return rows;
                });
    }

    /** Closes the prepared statements, to be prepared again when next needed; failures go to {@code failure}. */
    void closeStatements(SQLException failure) {
        for (PreparedStatement st : new PreparedStatement[] {clearStaging, replace, log}) {
            try {
                if (st != null) {
                    st.close();
                }
            } catch (SQLException e) {
                failure.addSuppressed(e);
            }
        }
        clearStaging = null;
        replace = null;
        log = null;
    }
}
