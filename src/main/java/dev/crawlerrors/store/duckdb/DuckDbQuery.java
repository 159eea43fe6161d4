package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.duckdb.DuckDBConnection;

/**
 * Runs reads on duplicates of the store's connection, which DuckDB allows from any thread, kept in
 * a pool: a duplicate made for every query was a fresh client context each time. The pool holds
 * at most {@code size} connections; a read beyond them waits for one (the report server bounds how
 * many reads run at once before they get here). Each connection keeps the statements it prepared
 * lately: the report asks the same few questions with other values, and planning one again for
 * each page was a good part of its cost.
 */
final class DuckDbQuery implements AutoCloseable {

    /** Reads a result set into a value. */
    interface Rows<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private final DuckDBConnection connection;
    private final String location;
    private final DuckDbFailures failures;
    private final BlockingQueue<Pooled> idle;
    /** Statements a connection keeps prepared, the least recently used closed first. */
    private static final int STATEMENTS = 32;
    private final int size;
    private int made;

    DuckDbQuery(DuckDBConnection connection, DuckDbFailures failures, int size) {
        this.connection = connection;
        this.location = failures.location();
        this.failures = failures;
        this.size = size;
        this.idle = new ArrayBlockingQueue<>(size);
    }

    <T> T run(String sql, List<Object> params, Rows<T> rows) {
        return read(sql, (st, c) -> {
            for (int i = 0; i < params.size(); i++) {
                st.setObject(i + 1, params.get(i));
            }
        }, rows);
    }

    /**
     * Runs a read whose one parameter is a list of strings ({@code ?::VARCHAR[]}): thousands of
     * file names or fingerprints in one query, where as many {@code ?} would each be planned.
     */
    <T> T runWithList(String sql, Collection<String> values, Rows<T> rows) {
        return read(sql, (st, c) -> st.setArray(1, c.createArrayOf("VARCHAR", values.toArray())), rows);
    }

    /** A list parameter: the SQL type of its elements ({@code VARCHAR}, {@code BIGINT}) and the elements. */
    record Array(String type, Object[] values) {
    }

    /**
     * Runs a read whose parameters are lists ({@code ?::VARCHAR[]}, {@code ?::BIGINT[]}), unnested
     * side by side into rows (thousands of files' stamps in one query), then {@code last}.
     */
    <T> T runWithArrays(String sql, List<Array> arrays, Object last, Rows<T> rows) {
        return read(sql, (st, c) -> {
            for (int i = 0; i < arrays.size(); i++) {
                st.setArray(i + 1, c.createArrayOf(arrays.get(i).type(), arrays.get(i).values()));
            }
            st.setObject(arrays.size() + 1, last);
        }, rows);
    }

    /**
     * Runs a read whose last parameter is a list of numbers ({@code ?::BIGINT[]}), after {@code params}:
     * a page's hit numbers, which as literals would make each page a statement to plan.
     */
    <T> T runWithNumbers(String sql, List<Object> params, long[] numbers, Rows<T> rows) {
        return read(sql, (st, c) -> {
            for (int i = 0; i < params.size(); i++) {
                st.setObject(i + 1, params.get(i));
            }
            Long[] boxed = new Long[numbers.length];
            for (int i = 0; i < numbers.length; i++) {
                boxed[i] = numbers[i];
            }
            st.setArray(params.size() + 1, c.createArrayOf("BIGINT", boxed));
        }, rows);
    }

    /** Sets a statement's parameters; the connection makes what a parameter needs (an array). */
    private interface Binding {
        void bind(PreparedStatement st, Connection c) throws SQLException;
    }

    /** Runs {@code sql} on a pooled connection with its prepared statement, giving the connection back unless the read failed. */
    private <T> T read(String sql, Binding binding, Rows<T> rows) {
        Pooled c = borrow();
        boolean healthy = false;
        try {
            PreparedStatement st = c.statement(sql);
            binding.bind(st, c.connection);
            try (ResultSet rs = st.executeQuery()) {
                T value = rows.read(rs);
                healthy = true;
                return value;
            }
        } catch (SQLException e) {
            throw failures.of("cannot read", e);
        } finally {
            giveBack(c, healthy);
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
                    c = new Pooled(connection.duplicate());
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
            throw new StoreException("a read of " + location + " was interrupted", e);
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
        Pooled c;
        while ((c = idle.poll()) != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
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
