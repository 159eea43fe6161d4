package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.sitemap.SitemapUrl;
import dev.crawlerrors.store.UrlKey;
import dev.crawlerrors.text.Threads;
import java.sql.SQLException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * The rows of one sitemap read (each URL with its numbers, {@link UrlKey#number}), appended to
 * {@code sitemap_urls} on a thread of their own, a batch
 * at a time, while the reader goes on parsing: DuckDB's appender (encoding, chunks, compression)
 * costs about as much as the parse, so the two overlap instead of adding up. At most two batches
 * wait, so memory stays bounded however long the sitemap; an append that fails is said at the next
 * {@link #add} or at {@link #finish}. DuckDB's appender belongs to the thread that made it, so it is
 * made, used and closed on the appending thread alone.
 */
final class DuckDbSitemapRows {

    private static final int BATCH = 4_096;

    private final String sitemap;
    private final Future<DuckDBAppender> appender;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(Threads.daemons("sitemap-rows"));
    private SitemapUrl[] batch = new SitemapUrl[BATCH];
    private int size;
    private Future<?> previous;
    private Future<?> last;

    /** Opens the appender on {@code connection}, whose transaction began with a statement (the appender joins it only then). */
    DuckDbSitemapRows(String sitemap, DuckDBConnection connection) throws SQLException {
        this.sitemap = sitemap;
        this.appender = thread.submit(() -> connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "sitemap_urls"));
        try {
            await(appender);
        } catch (SQLException e) {
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

    /** Appends what is queued, waits for every batch and closes the appender: the transaction may then commit. */
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

    /** Closes the appender after what was handed over (the read is dropped, or was finished). */
    void close() throws SQLException {
        if (thread.isShutdown()) {
            return;
        }
        previous = null;
        last = null;
        Future<?> closed = thread.submit(() -> {
            appender.get().close();
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
            DuckDBAppender rows = appender.get();
            for (int i = 0; i < n; i++) {
                String host = full[i].host();
                String target = full[i].target();
                rows.beginRow().append(sitemap).append(host).append(target).append(UrlKey.number(host, target))
                        .append(UrlKey.number("", target)).endRow();
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
