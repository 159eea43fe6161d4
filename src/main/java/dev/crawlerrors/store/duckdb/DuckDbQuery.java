package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.ReadStoppedException;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.text.Threads;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.duckdb.DuckDBConnection;

/**
 * Runs reads on duplicates of the store's connection, which DuckDB allows from any thread, kept in
 * a pool: a duplicate made for every query was a fresh client context each time. Every one of them
 * commits each query on its own, so each read sees the newest commit: they are duplicated from a
 * connection of their own, made when the store opened, never from the writer's, whose duplicate
 * made in the middle of a transaction was one too and read that transaction's snapshot for as long
 * as it lived (the report stuck in the past until serve restarted). The pool holds
 * at most {@code size} connections; a read beyond them waits for one (the report server bounds how
 * many reads run at once before they get here). Each connection keeps the statements it prepared
 * lately: the report asks the same few questions with other values, and planning one again for
 * each page was a good part of its cost. A read whose thread is interrupted is cancelled within
 * {@link #WATCH_MILLIS}, as a ClickHouse read over HTTP is: DuckDB does not see a Java interrupt, and
 * serve stopping under a first count of 10,000,000 hits waited minutes for counts nobody would read.
 */
final class DuckDbQuery implements AutoCloseable {

    /** Reads a result set into a value. */
    interface Rows<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /** What the pool's connections are duplicated from: never in a transaction, never written through. */
    private final DuckDBConnection origin;
    private final String location;
    private final DuckDbFailures failures;
    private final BlockingQueue<Pooled> idle;
    /** Statements a connection keeps prepared, the least recently used closed first. */
    private static final int STATEMENTS = 32;
    private final int size;
    private int made;
    /** How often the reads running are looked at for an interrupted thread. */
    static final long WATCH_MILLIS = 100;
    private final Set<Running> running = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(Threads.daemons("duckdb-read-watch"));

    /** A pool of at most {@code size} readers of the store whose connection is {@code store}, which must be in no transaction now. */
    DuckDbQuery(DuckDBConnection store, DuckDbFailures failures, int size) throws SQLException {
        this.origin = store.duplicate();
        this.origin.setAutoCommit(true);
        this.location = failures.location();
        this.failures = failures;
        this.size = size;
        this.idle = new ArrayBlockingQueue<>(size);
        watch.scheduleWithFixedDelay(this::cancelInterrupted, WATCH_MILLIS, WATCH_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Runs a read with {@code params} bound in order; an {@link Array} is bound as a list
     * ({@code ?::VARCHAR[]}, {@code ?::BIGINT[]}).
     */
    <T> T run(String sql, List<Object> params, Rows<T> rows) {
        return read(sql, (st, c) -> {
            for (int i = 0; i < params.size(); i++) {
                if (params.get(i) instanceof Array array) {
                    st.setArray(i + 1, c.createArrayOf(array.type(), array.values()));
                } else {
                    st.setObject(i + 1, params.get(i));
                }
            }
        }, rows);
    }

    /** The first column of every row, as numbers in the rows' order: a list of URL numbers, of hit numbers. */
    static long[] longs(ResultSet rs) throws SQLException {
        long[] read = new long[1024];
        int n = 0;
        while (rs.next()) {
            if (n == read.length) {
                read = java.util.Arrays.copyOf(read, n * 2);
            }
            read[n++] = rs.getLong(1);
        }
        return java.util.Arrays.copyOf(read, n);
    }

    /**
     * A list parameter: the SQL type of its elements and the elements. Thousands of file names,
     * fingerprints or a page's hit numbers go in one list, where as many {@code ?} or literals would
     * make each query a statement to plan.
     */
    record Array(String type, Object[] values) {

        static Array strings(Collection<String> values) {
            return new Array("VARCHAR", values.toArray());
        }

        static Array numbers(long[] values) {
            Long[] boxed = new Long[values.length];
            for (int i = 0; i < values.length; i++) {
                boxed[i] = values[i];
            }
            return new Array("BIGINT", boxed);
        }
    }

    /** Something registered on the store's database (a function), which every connection of it then sees. */
    interface Registration {
        void register(DuckDBConnection connection) throws SQLException;
    }

    /** Registers {@code registration} through the connection the pool's are duplicated from (the same database, so theirs too). */
    synchronized void register(Registration registration) throws SQLException {
        registration.register(origin);
    }

    /** Sets a statement's parameters; the connection makes what a parameter needs (an array). */
    private interface Binding {
        void bind(PreparedStatement st, Connection c) throws SQLException;
    }

    /** Runs {@code sql} on a pooled connection with its prepared statement, giving the connection back unless the read failed. */
    private <T> T read(String sql, Binding binding, Rows<T> rows) {
        Pooled c = borrow();
        boolean healthy = false;
        Running read = null;
        try {
            PreparedStatement st = c.statement(sql);
            binding.bind(st, c.connection);
            read = new Running(Thread.currentThread(), st);
            running.add(read);
            try (ResultSet rs = st.executeQuery()) {
                T value = rows.read(rs);
                healthy = true;
                return value;
            }
        } catch (SQLException e) {
            if (read != null && read.cancelled()) {
                throw new ReadStoppedException("a read of " + location + " was stopped: its thread was interrupted", e);
            }
            throw failures.of("cannot read", unmasked(e, sql, binding));
        } finally {
            // a read cancelled as it ended may leave its connection's interrupt behind: such a connection is closed
            giveBack(c, healthy && (read == null || !read.end()));
            if (read != null) {
                running.remove(read);
            }
        }
    }

    /**
     * The engine's own error behind {@code e}. A streamed result ({@link #streamResults}) that fails while
     * its rows are fetched is told by DuckDB's driver as "Invalid result set", and the engine's error is
     * lost: a block that fails its checksum (a damaged store, which the user must be told of as such)
     * would read as any failed read. The read is run once more, made whole, on a connection of its own,
     * to hear the engine's error; its rows are not used, and when it succeeds {@code e} stands.
     */
    private SQLException unmasked(SQLException e, String sql, Binding binding) {
        if (e.getMessage() == null || !e.getMessage().contains("Invalid result set")) {
            return e;
        }
        Connection own;
        synchronized (this) {
            try {
                own = origin.duplicate();
            } catch (SQLException | RuntimeException closed) {
                return e;
            }
        }
        try (own; PreparedStatement st = own.prepareStatement(sql)) {
            binding.bind(st, own);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    // read to its end, as the failed read would have
                }
            }
            return e;
        } catch (SQLException engine) {
            engine.addSuppressed(e);
            return engine;
        }
    }

    /** Cancels each read whose thread is interrupted. */
    private void cancelInterrupted() {
        for (Running read : running) {
            read.cancelIfInterrupted();
        }
    }

    /** A read on its way: its thread, its statement, and whether it ended or was cancelled, decided under its lock. */
    private static final class Running {

        private final Thread thread;
        private final PreparedStatement statement;
        private boolean ended;
        private boolean cancelled;

        Running(Thread thread, PreparedStatement statement) {
            this.thread = thread;
            this.statement = statement;
        }

        synchronized void cancelIfInterrupted() {
            if (!ended && !cancelled && thread.isInterrupted()) {
                cancelled = true;
                try {
                    statement.cancel();
                } catch (SQLException e) {
                    // the read ends by itself
                }
            }
        }

        /** Marks the read ended; true when it was cancelled. */
        synchronized boolean end() {
            ended = true;
            return cancelled;
        }

        synchronized boolean cancelled() {
            return cancelled;
        }
    }

    private Pooled borrow() {
        Pooled c = idle.poll();
        if (c != null) {
            return c;
        }
        synchronized (this) {
            if (made < size) {
                try {
                    Connection duplicate = origin.duplicate();
                    duplicate.setAutoCommit(true);
                    streamResults(duplicate);
                    c = new Pooled(duplicate);
                    made++;
                    return c;
                } catch (SQLException e) {
                    throw failures.of("cannot read", e);
                }
            }
        }
        try {
            return idle.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReadStoppedException("a read of " + location + " was stopped while it waited for a connection: its thread was interrupted", e);
        }
    }

    /**
     * Has a connection's results streamed to the reader a few chunks at a time, not made whole before its
     * first row: DuckDB's driver makes them whole by default, in memory outside DuckDB's buffer manager
     * (so beyond its memory limit, and unseen by {@code duckdb_memory()}), and the count cube's cells of a
     * 10,000,000-hit store by minute, status, crawler, verdict and URL head were 4,982,811 rows, some
     * 400-500 MB held whole while the cube read them (and dropped them past its bound only after). A
     * streamed result holds at most DuckDB's {@code streaming_buffer_size} (10 MiB) beyond what the
     * query's operators take inside the limit. One result at a time on a connection, as the pool reads.
     */
    private static void streamResults(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("SET SESSION jdbc_stream_results = true");
        }
    }

    /** A connection whose query failed is closed, not reused: its state after a failure is unknown. */
    private void giveBack(Pooled c, boolean healthy) {
        if (healthy && idle.offer(c)) {
            return;
        }
        try {
            c.close();
        } catch (SQLException ignored) {
            // already failing or closing
        }
        synchronized (this) {
            made--;
        }
    }

    @Override
    public void close() {
        watch.shutdownNow();
        Pooled c;
        while ((c = idle.poll()) != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
        }
        try {
            origin.close();
        } catch (SQLException ignored) {
            // closing anyway
        }
    }

    /** A connection of the pool and the statements it keeps prepared. */
    private static final class Pooled {

        private final Connection connection;
        private final LinkedHashMap<String, PreparedStatement> statements = new LinkedHashMap<>(STATEMENTS, 0.75f, true);

        Pooled(Connection connection) {
            this.connection = connection;
        }

        PreparedStatement statement(String sql) throws SQLException {
            PreparedStatement st = statements.get(sql);
            if (st == null) {
                st = connection.prepareStatement(sql);
                statements.put(sql, st);
                if (statements.size() > STATEMENTS) {
                    var eldest = statements.entrySet().iterator();
                    eldest.next().getValue().close();
                    eldest.remove();
                }
            }
            return st;
        }

        void close() throws SQLException {
            for (PreparedStatement st : statements.values()) {
                st.close();
            }
            statements.clear();
            connection.close();
        }
    }
}
