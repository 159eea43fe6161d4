package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.sitemap.SitemapUrl;
import dev.crawlerrors.store.UrlKey;
import java.nio.charset.StandardCharsets;
import org.duckdb.DuckDBColumnType;
import org.duckdb.DuckDBDataChunkWriter;
import org.duckdb.DuckDBTableFunction;
import org.duckdb.DuckDBTableFunctionBindInfo;
import org.duckdb.DuckDBTableFunctionCallInfo;
import org.duckdb.DuckDBTableFunctionInitInfo;
import org.duckdb.DuckDBWritableVector;

/**
 * A table function over one batch of a sitemap read's URLs ({@link #urls}, {@link #size}): DuckDB
 * asks it for chunks of up to 2,048 rows and it fills the host and target a column at a time
 * ({@link DuckDBWritableVector#setStringUtf8Batch}: one JNI call per column and chunk) and the two
 * numbers ({@link UrlKey#number}) in place. The sitemap's name is the statement's parameter, not a
 * column: the same for every row. Replaces DuckDB's appender, which took one JNI call a value and
 * three more a row. One scan at a time ({@code setMaxThreads(1)}), so rows keep their order.
 */
final class DuckDbSitemapRowsSource implements DuckDBTableFunction<Object, DuckDbSitemapRowsSource.Cursor, Object> {

    /** The batch the statement reads, set on the appending thread around that statement (volatile: DuckDB may scan on a thread of its own). */
    volatile SitemapUrl[] urls;
    volatile int size;

    /** Where one statement's scan is, and the arrays it fills for each chunk. */
    static final class Cursor {
        int next;
        int rows = -1;
        byte[][] hosts;
        byte[][] targets;
        long[] numbers;
        long[] anyNumbers;
        /** The last host encoded and its bytes: a sitemap's URLs are mostly of one host. */
        String host;
        byte[] hostBytes;

        void size(int rows) {
            if (this.rows == rows) {
                return;
            }
            this.rows = rows;
            hosts = new byte[rows][];
            targets = new byte[rows][];
            numbers = new long[rows];
            anyNumbers = new long[rows];
        }
    }

    @Override
    public Object bind(DuckDBTableFunctionBindInfo info) {
        info.addResultColumn("host", DuckDBColumnType.VARCHAR)
                .addResultColumn("target", DuckDBColumnType.VARCHAR)
                .addResultColumn("k", DuckDBColumnType.BIGINT)
                .addResultColumn("any_k", DuckDBColumnType.BIGINT);
        return Boolean.TRUE; // no bind data is needed, but the driver wants some
    }

    @Override
    public Cursor init(DuckDBTableFunctionInitInfo info) {
        info.setMaxThreads(1);
        return new Cursor();
    }

    @Override
    public long apply(DuckDBTableFunctionCallInfo info, DuckDBDataChunkWriter out) {
        Cursor cursor = info.getInitData();
        SitemapUrl[] batch = this.urls;
        int from = cursor.next;
        int rows = (int) Math.min(out.capacity(), size - from);
        if (rows <= 0) {
            return 0;
        }
        cursor.size(rows);
        read(batch, from, rows, cursor);
        setLongs(out.vector(2), cursor.numbers, rows);
        setLongs(out.vector(3), cursor.anyNumbers, rows);
        out.vector(0).setStringUtf8Batch(0, cursor.hosts);
        out.vector(1).setStringUtf8Batch(0, cursor.targets);
        cursor.next = from + rows;
        return rows;
    }

    private static void read(SitemapUrl[] batch, int from, int rows, Cursor cursor) {
        byte[][] hosts = cursor.hosts, targets = cursor.targets;
        long[] numbers = cursor.numbers, anyNumbers = cursor.anyNumbers;
        for (int i = 0; i < rows; i++) {
            SitemapUrl url = batch[from + i];
            String host = url.host();
            String target = url.target();
            if (!host.equals(cursor.host)) {
                cursor.host = host;
                cursor.hostBytes = host.getBytes(StandardCharsets.UTF_8);
            }
            hosts[i] = cursor.hostBytes;
            targets[i] = target.getBytes(StandardCharsets.UTF_8);
            numbers[i] = UrlKey.number(host, target);
            anyNumbers[i] = UrlKey.number("", target);
        }
    }

    private static void setLongs(DuckDBWritableVector vector, long[] values, int rows) {
        for (int i = 0; i < rows; i++) {
            vector.setLong(i, values[i]);
        }
    }
}
