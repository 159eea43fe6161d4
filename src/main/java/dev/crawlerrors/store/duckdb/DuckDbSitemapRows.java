package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.sitemap.SitemapUrl;
import dev.crawlerrors.store.UrlKey;
import dev.crawlerrors.text.Threads;
import java.sql.PreparedStatement;
import java.sql.SQLException;
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
    /** Numbers the table functions: one a read, each under a name of its own, as a read may run beside another. */
    private static final AtomicLong SOURCES = new AtomicLong();

    private final DuckDbSitemapRowsSource source = new DuckDbSitemapRowsSource();
    private final PreparedStatement insert;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(Threads.daemons("sitemap-rows"));
    private SitemapUrl[] batch = new SitemapUrl[BATCH];
    private int size;
    private Future<?> previous;
    private Future<?> last;

    /**
     * Registers the read's table function on {@code connection} and prepares the insert from it.
     * Called before the read's transaction begins: a function registered in a transaction goes
     * with it when it rolls back.
     */
    DuckDbSitemapRows(String sitemap, DuckDBConnection connection) throws SQLException {
        String function = "crawl_errors_sitemap_rows_" + SOURCES.incrementAndGet();
        try {
            DuckDBFunctions.tableFunction().withName(function).withFunction(source).register(connection);
            insert = connection.prepareStatement("INSERT INTO sitemap_urls SELECT ?, host, target, k, any_k FROM " + function + "()");
            insert.setString(1, sitemap);
        } catch (SQLException | RuntimeException e) {
            thread.shutdownNow();
            throw e;
        }
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
        await(closed);
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
