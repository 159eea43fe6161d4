package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.StoredVerdict;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * The verdicts table: one row per address and crawler, so a verdict that changes later (a DNS
 * check completing) is one row to update, and every query shows the verdict as of now. Written in
 * the writer's transactions ({@link DuckDbHitWriter}), beside the hits that brought them.
 */
final class DuckDbVerdicts {

    /** The verdicts of the batch being written; TEMP: this connection's own, in memory, never in the file. */
    private static final String STAGING = """
            CREATE TEMP TABLE verdict_staging (
              ip VARCHAR NOT NULL,
              crawler VARCHAR NOT NULL,
              verification VARCHAR NOT NULL,
              reason VARCHAR NOT NULL,
              changed BOOLEAN NOT NULL
            )""";

    private final DuckDBConnection connection;
    private final DuckDbQuery query;
    /** The statements that move staged verdicts into verdicts; made on the writer thread when first needed. */
    private PreparedStatement clearStaging;
    private PreparedStatement insertFirst;
    private PreparedStatement insertChanged;

    DuckDbVerdicts(DuckDBConnection connection, DuckDbQuery query) throws SQLException {
        this.connection = connection;
        this.query = query;
        // a batch's verdicts go in through an Appender into this connection's own staging table,
        // then into verdicts by two fixed statements (prepared once, whatever the number of rows)
        try (Statement st = connection.createStatement()) {
            st.execute(STAGING);
        }
    }

    /**
     * Writes verdicts: those of addresses first seen in this batch unless the address already has
     * one (a provisional verdict must not overwrite a final one that arrived first), and those that
     * changed over whatever was there. Runs inside the batch's transaction, after a statement has
     * begun it, so the Appender's rows belong to it too.
     */
    void write(Collection<StoredVerdict> first, Collection<StoredVerdict> changed) throws SQLException {
        if (first.isEmpty() && changed.isEmpty()) {
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
            stage(appender, first, false);
            stage(appender, changed, true);
        }
        if (insertFirst == null) {
            insertFirst = connection.prepareStatement("INSERT OR IGNORE INTO verdicts "
                    + "SELECT ip, crawler, verification, reason, now() FROM verdict_staging WHERE NOT changed");
            insertChanged = connection.prepareStatement("INSERT OR REPLACE INTO verdicts "
                    + "SELECT ip, crawler, verification, reason, now() FROM verdict_staging WHERE changed");
        }
        if (!first.isEmpty()) {
            insertFirst.executeUpdate();
        }
        if (!changed.isEmpty()) {
            insertChanged.executeUpdate();
        }
    }

    private static void stage(DuckDBAppender appender, Collection<StoredVerdict> verdicts, boolean changed) throws SQLException {
        for (StoredVerdict row : verdicts) {
            appender.beginRow()
                    .append(row.ip())
                    .append(row.crawler())
                    .append(row.verdict().verification().name())
                    .append(row.verdict().reason())
                    .append(changed)
                    .endRow();
        }
    }

    List<StoredVerdict> of(Verification verification) {
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
        for (PreparedStatement st : new PreparedStatement[] {clearStaging, insertFirst, insertChanged}) {
            try {
                if (st != null) {
                    st.close();
                }
            } catch (SQLException e) {
                failure.addSuppressed(e);
            }
        }
        clearStaging = null;
        insertFirst = null;
        insertChanged = null;
    }
}
