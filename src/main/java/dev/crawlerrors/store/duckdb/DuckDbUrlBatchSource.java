package dev.crawlerrors.store.duckdb;

import org.duckdb.DuckDBColumnType;
import org.duckdb.DuckDBDataChunkWriter;
import org.duckdb.DuckDBTableFunction;
import org.duckdb.DuckDBTableFunctionBindInfo;
import org.duckdb.DuckDBTableFunctionCallInfo;
import org.duckdb.DuckDBTableFunctionInitInfo;
import org.duckdb.DuckDBWritableVector;

/**
 * A table function over hits as their URLs' histories keep them (URL number, time, hit number,
 * status, claim, bot type, and the number of the URL's host and head), from arrays the writer fills
 * for each batch: what goes to {@code url_tail} and {@code url_times} beside the hits, in the same
 * statement's vectors, a column at a time.
 */
final class DuckDbUrlBatchSource implements DuckDBTableFunction<Object, int[], Object> {

    /** The rows: set on the writer thread around the statement that reads them. */
    volatile long[] keys;
    volatile long[] millis;
    volatile long[] ids;
    volatile long[] statuses;
    volatile long[] claims;
    volatile long[] botTypes;
    volatile long[] heads;
    volatile int rows;

    /** Room for {@code n} rows, kept between batches. */
    void size(int n) {
        if (keys == null || keys.length < n) {
            keys = new long[n];
            millis = new long[n];
            ids = new long[n];
            statuses = new long[n];
            claims = new long[n];
            botTypes = new long[n];
            heads = new long[n];
        }
        rows = n;
    }

    @Override
    public Object bind(DuckDBTableFunctionBindInfo info) {
        info.addResultColumn("k", DuckDBColumnType.BIGINT)
                .addResultColumn("t", DuckDBColumnType.BIGINT)
                .addResultColumn("i", DuckDBColumnType.BIGINT)
                .addResultColumn("s", DuckDBColumnType.BIGINT)
                .addResultColumn("c", DuckDBColumnType.BIGINT)
                .addResultColumn("b", DuckDBColumnType.BIGINT)
                .addResultColumn("h", DuckDBColumnType.BIGINT);
        return Boolean.TRUE;
    }

    @Override
    public int[] init(DuckDBTableFunctionInitInfo info) {
        info.setMaxThreads(1);
        return new int[1];
    }

    @Override
    public long apply(DuckDBTableFunctionCallInfo info, DuckDBDataChunkWriter out) {
        int[] next = info.getInitData();
        int from = next[0];
        int n = (int) Math.min(out.capacity(), rows - from);
        if (n <= 0) {
            return 0;
        }
        long[][] columns = {keys, millis, ids, statuses, claims, botTypes, heads};
        for (int c = 0; c < columns.length; c++) {
            set(out.vector(c), columns[c], from, n);
        }
        next[0] = from + n;
        return n;
    }

    private static void set(DuckDBWritableVector vector, long[] values, int from, int n) {
        for (int i = 0; i < n; i++) {
            vector.setLong(i, values[from + i]);
        }
    }
}
