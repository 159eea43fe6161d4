package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.store.StoreException;
import java.sql.DriverManager;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The pool of reads: a read answers its thread's interrupt, as serve's stopping needs. */
class DuckDbQueryTest {

    /** A read that would take hours: a trillion numbers hashed. */
    private static final String ENDLESS = "SELECT sum(hash(range)) FROM range(1000000000000)";

    private DuckDBConnection connection;
    private DuckDbQuery query;

    private DuckDbQuery open() throws Exception {
        connection = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
        query = new DuckDbQuery(connection, new DuckDbFailures("/memory"), 2);
        return query;
    }

    @AfterEach
    void close() throws Exception {
        if (query != null) {
            query.close();
        }
        if (connection != null) {
            connection.close();
        }
    }

    @Test
    void aReadGetsItsFirstRowsBeforeTheRestAreMade() throws Exception {
        DuckDbQuery reads = open();
        // a trillion rows: made whole before the first is read (the driver's default), they would take hours and
        // more memory than the machine has; streamed, the first come at once and the rest are never made
        long sum = reads.run("SELECT range FROM range(1000000000000)", List.of(), rs -> {
            long read = 0;
            for (int i = 0; i < 10 && rs.next(); i++) {
                read += rs.getLong(1);
            }
            return read;
        });
        assertThat(sum).isEqualTo(45);
        boolean streamed = reads.run("SELECT current_setting('jdbc_stream_results')", List.of(), rs -> rs.next() && rs.getBoolean(1));
        assertThat(streamed).isTrue();
    }

    @Test
    void aReadWhoseThreadIsInterruptedStopsAndThePoolReadsOn() throws Exception {
        DuckDbQuery reads = open();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try {
                reads.run(ENDLESS, List.of(), rs -> rs.next());
            } catch (Throwable e) {
                failed.set(e);
            }
        }, "endless-read");
        reader.start();
        TimeUnit.MILLISECONDS.sleep(300); // under way, most likely; an interrupt before the read starts stops it as well
        reader.interrupt();
        reader.join(TimeUnit.SECONDS.toMillis(30));

        assertThat(reader.isAlive()).as("the read still runs 30 s after its thread was interrupted").isFalse();
        assertThat(failed.get()).isInstanceOf(dev.crawlerrors.store.ReadStoppedException.class).hasMessageContaining("was stopped: its thread was interrupted");
        int answer = reads.run("SELECT 42", List.of(), rs -> rs.next() ? rs.getInt(1) : -1);
        assertThat(answer).isEqualTo(42);
    }

    @Test
    void aReadOnAThreadNotInterruptedIsLeftAlone() throws Exception {
        DuckDbQuery reads = open();
        // long enough for the watch to look at it several times
        long sum = reads.run("SELECT count(*) FROM range(100000000) WHERE hash(range) % 7 = 0", List.of(), rs -> rs.next() ? rs.getLong(1) : -1);

        assertThat(sum).isGreaterThan(10_000_000L);
    }
}
