package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.sitemap.SitemapUrl;
import dev.crawlerrors.store.UrlKey;
import dev.crawlerrors.text.Threads;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBFunctions;

/**
 * The rows of one sitemap read (each URL with its numbers, {@link UrlKey#number}), inserted into
 * {@code sitemap_urls} on a thread of their own, a batch at a time, while the reader goes on
 * parsing: the store's side (encoding, chunks, compression) costs about as much as the parse, so the
 * two overlap instead of adding up. Each batch is one {@code INSERT ... SELECT} from a table function
 * of this read ({@link DuckDbSitemapRowsSource}), which hands DuckDB a column of a chunk in one call
 * where DuckDB's appender took a call a value. At most two batches wait, so memory stays bounded
 * however long the sitemap; an insert that fails is said at the next {@link #add} or at
 * {@link #finish}.
 */
final class DuckDbSitemapRows {

    private static final int BATCH = 8_192;
    /** Numbers the table functions: each under a name of its own, as a read may run beside another. */
    private static final AtomicLong SOURCES = new AtomicLong();

    /** A table function registered on the store's database (its system catalog: every connection sees it), used by one read at a time. */
    record Function(String name, DuckDbSitemapRowsSource source) {
    }

    /**
     * The store's table functions for reads: a read takes a free one, or registers one when none is
     * free, and gives it back when it is done. A registered function stays in DuckDB's catalog until
     * the store closes, so the catalog holds as many as reads ever ran at once, not one a read (a
     * serve that re-reads 20 sitemaps an hour would otherwise add some 175,000 a year).
     */
    static final class Functions {
        private final ArrayDeque<Function> free = new ArrayDeque<>();
        private int registered;

        /** Called before the read's transaction begins: a function registered in a transaction goes with it when it rolls back. */
        synchronized Function take(DuckDBConnection connection) throws SQLException {
            Function function = free.poll();
            if (function != null) {
                return function;
            }
            function = new Function("crawl_errors_sitemap_rows_" + SOURCES.incrementAndGet(), new DuckDbSitemapRowsSource());
            DuckDBFunctions.tableFunction().withName(function.name()).withFunction(function.source()).register(connection);
            registered++;
            return function;
        }

        synchronized void give(Function function) {
            function.source().urls = null;
            free.push(function);
        }

        /** How many were registered since the store opened. */
        synchronized int registered() {
            return registered;
        }
    }

    private final Functions functions;
    private final Function function;
    private final DuckDbSitemapRowsSource source;
    private final PreparedStatement insert;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(Threads.daemons("sitemap-rows"));
    private SitemapUrl[] batch = new SitemapUrl[BATCH];
    private int size;
    private Future<?> previous;
    private Future<?> last;

    /**
     * Takes a table function of the store's ({@code functions}, registering one on {@code connection}
     * when none is free) and prepares the insert from it. Called before the read's transaction
     * begins: a function registered in a transaction goes with it when it rolls back.
     */
    DuckDbSitemapRows(String sitemap, DuckDBConnection connection, Functions functions) throws SQLException {
        this.functions = functions;
        Function taken = null;
        PreparedStatement prepared = null;
        try {
            taken = functions.take(connection);
            prepared = connection.prepareStatement("INSERT INTO sitemap_urls SELECT ?, host, target, k, any_k FROM " + taken.name() + "()");
            prepared.setString(1, sitemap);
        } catch (SQLException | RuntimeException e) {
            thread.shutdownNow();
            if (prepared != null) {
                prepared.close();
            }
            if (taken != null) {
                functions.give(taken);
            }
            throw e;
        }
        function = taken;
        source = taken.source();
        insert = prepared;
    }

    /** Queues one row; hands a full batch to the appending thread, after waiting for the one before the last. */
    void add(SitemapUrl url) throws SQLException {
        batch[size++] = url;
        if (size == BATCH) {
            handOver();
        }
    }

    /** Inserts what is queued, waits for every batch and closes the statement: the transaction may then commit. */
    void finish() throws SQLException {
        if (size > 0) {
            handOver();
        }
        try {
            await(previous);
            await(last);
        } finally {
            close();
        }
    }

    /** Closes the statement after what was handed over (the read is dropped, or was finished). */
    void close() throws SQLException {
        if (thread.isShutdown()) {
            return;
        }
        previous = null;
        last = null;
        Future<?> closed = thread.submit(() -> {
            insert.close();
            return null;
        });
        thread.shutdown();
        try {
            await(closed);
        } finally {
            // every batch was awaited or dropped, and the statement is closed: the next read may use it
            functions.give(function);
        }
    }

    private void handOver() throws SQLException {
        await(previous);
        SitemapUrl[] full = batch;
        int n = size;
        previous = last;
        last = thread.submit(() -> {
            source.urls = full;
            source.size = n;
            try {
                insert.execute();
            } finally {
                source.urls = null;
            }
            return null;
        });
        batch = new SitemapUrl[BATCH];
        size = 0;
    }

    private static void await(Future<?> appended) throws SQLException {
        if (appended == null) {
            return;
        }
        try {
            appended.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while the sitemap's URLs were written", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw sql;
            }
            throw new SQLException(e.getCause());
        }
    }
}
