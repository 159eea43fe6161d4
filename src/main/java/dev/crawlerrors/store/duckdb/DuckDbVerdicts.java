package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.SettledHit;
import dev.crawlerrors.store.StoredVerdict;
import dev.crawlerrors.store.VerdictStore;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;

/**
 * The verdicts table: one row per claim (address and crawler), the claim's current verdict, so a
 * verdict that changes later (a DNS check completing) is one row to update; and the verdict log,
 * every verdict recorded with its number, from which a report reads verdicts as of its snapshot.
 * Written in the writer's transactions ({@link DuckDbHitWriter}), beside the hits that brought them:
 * a verdict updated goes to the writer, which numbers it and writes it with its next batch.
 */
final class DuckDbVerdicts implements VerdictStore {

    private final DuckDBConnection connection;
    private final DuckDbQuery query;
    private final Supplier<DuckDbHitWriter> writer;
    /** The verdicts of the batch being written, as the columns of a table function ({@link #write}). */
    private final DuckDbColumnsSource rows;
    /** The statements that write them into verdicts and their log; made on the writer thread when first needed. */
    private PreparedStatement replace;
    private PreparedStatement log;

    /** @param writer the store's writer, made after its verdicts: verdicts are updated through it */
    DuckDbVerdicts(DuckDBConnection connection, DuckDbQuery query, Supplier<DuckDbHitWriter> writer) throws SQLException {
        this.connection = connection;
        this.query = query;
        this.writer = writer;
        // a batch's verdicts go in from a table function over their columns, into verdicts and their
        // log by fixed statements (prepared once, whatever the number of rows)
        rows = DuckDbColumnsSource.register(connection, "crawl_errors_verdicts", new String[] {"claim_id", "version"},
                new String[] {"ip", "crawler", "verification", "reason"});
    }

    /**
     * Writes verdicts, each the latest of its claim (the writer numbers a claim's first verdict when
     * it first meets the claim, so a provisional verdict never overwrites one that arrived first),
     * and logs each with its number: the report reads verdicts as of its snapshot. Runs inside the
     * batch's transaction. The rows go in from a table function, a string column of 2,048 rows in one
     * call, where the Appender and staging table it replaces took a JNI call a string: a signed
     * import's batch has a claim a line.
     */
    void write(Collection<DuckDbClaimVerdict> verdicts) throws SQLException {
        insert(verdicts, true);
    }

    /** Writes {@code verdicts} to the verdict log, and with {@code current} to the claims' current verdicts too. */
    private void insert(Collection<DuckDbClaimVerdict> verdicts, boolean current) throws SQLException {
        if (verdicts.isEmpty()) {
            return;
        }
        prepare();
        set(verdicts);
        try {
            if (current) {
                replace.executeUpdate();
            }
            log.executeUpdate();
        } finally {
            rows.clear();
        }
    }

    private void prepare() throws SQLException {
        if (replace == null) {
            replace = connection.prepareStatement("INSERT OR REPLACE INTO verdicts (ip, crawler, verification, reason, checked_at, claim_id, version)"
                    + " SELECT ip, crawler, verification, reason, now(), claim_id::INTEGER, version FROM " + rows.name() + "()");
            log = connection.prepareStatement("INSERT INTO verdict_log"
                    + " SELECT version, claim_id::INTEGER, verification, reason, now() FROM " + rows.name() + "()");
        }
    }

    /** Hands {@code verdicts} to the table function the statements read, as its columns. */
    private void set(Collection<DuckDbClaimVerdict> verdicts) {
        int n = verdicts.size();
        long[] claimIds = new long[n];
        long[] versions = new long[n];
        String[][] texts = new String[4][n];
        int i = 0;
        for (DuckDbClaimVerdict row : verdicts) {
            column(row, i++, claimIds, versions, texts);
        }
        rows.set(new long[][] {claimIds, versions}, texts, n);
    }

    /**
     * {@code row} into row {@code i} of the columns. A method of its own: its loop runs once a
     * batch, too few times for the JIT to compile it, and a body inlined in it ran interpreted for
     * every claim (a signed import has a claim a line).
     */
    private static void column(DuckDbClaimVerdict row, int i, long[] claimIds, long[] versions, String[][] texts) {
        claimIds[i] = row.claim();
        versions[i] = row.version();
        texts[0][i] = row.ip();
        texts[1][i] = row.crawler();
        texts[2][i] = row.verdict().verification().name();
        texts[3][i] = row.verdict().reason();
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
    public void settleWaitingHits(List<SettledHit> settled) {
        writer.get().settleWaitingHits(settled);
    }

    /**
     * Logs verdicts a claim was given with another's history ({@link DuckDbClaims#copy}), each under its
     * old number: only the log, as the claim's current verdict is a newer one, written with them.
     */
    void logCopies(List<DuckDbClaimVerdict> copies) throws SQLException {
        insert(copies, false);
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
        for (PreparedStatement st : new PreparedStatement[] {replace, log}) {
            try {
                if (st != null) {
                    st.close();
                }
            } catch (SQLException e) {
                failure.addSuppressed(e);
            }
        }
        replace = null;
        log = null;
    }
}
