package dev.crawlerrors.store.duckdb;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;
import org.duckdb.DuckDBColumnType;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBDataChunkWriter;
import org.duckdb.DuckDBFunctions;
import org.duckdb.DuckDBTableFunction;
import org.duckdb.DuckDBTableFunctionBindInfo;
import org.duckdb.DuckDBTableFunctionCallInfo;
import org.duckdb.DuckDBTableFunctionInitInfo;
import org.duckdb.DuckDBWritableVector;

/**
 * A table function over rows held as columns ({@link #set}): BIGINTs, then VARCHARs (a null string
 * is a NULL), handed to DuckDB a column and a chunk of up to 2,048 rows at a time, each string
 * column in one call ({@link DuckDBWritableVector#setStringUtf8Batch}), as {@link DuckDbBatchSource}
 * does the hits. What an Appender takes a JNI call a string for: the rows of the signatures an import
 * keeps to check later, and the verdicts of a batch's claims (a signed import has a claim a line).
 * A statement may read the function more than once (each scan starts at the first row); one scan
 * at a time ({@code setMaxThreads(1)}).
 */
final class DuckDbColumnsSource implements DuckDBTableFunction<Object, int[], Object> {

    private static final AtomicLong SOURCES = new AtomicLong();
    private static final byte[] EMPTY = new byte[0];

    private final String name;
    private final String[] longNames;
    private final String[] textNames;
    /** The rows, a column an array: set on the thread of the statements that read them, around them. */
    private volatile long[][] longs;
    private volatile String[][] texts;
    private volatile int rows;

    private DuckDbColumnsSource(String name, String[] longNames, String[] textNames) {
        this.name = name;
        this.longNames = longNames;
        this.textNames = textNames;
    }

    /**
     * A source of columns {@code longNames} (BIGINT) and {@code textNames} (VARCHAR), registered on
     * {@code connection} under a name of its own ({@link #name}), outside any transaction: one
     * registered in a transaction goes with it when it rolls back.
     */
    static DuckDbColumnsSource register(DuckDBConnection connection, String prefix, String[] longNames, String[] textNames)
            throws SQLException {
        DuckDbColumnsSource source = new DuckDbColumnsSource(prefix + "_" + SOURCES.incrementAndGet(), longNames, textNames);
        DuckDBFunctions.tableFunction().withName(source.name).withFunction(source).register(connection);
        return source;
    }

    /** The function's name, for a statement's FROM. */
    String name() {
        return name;
    }

    /** The rows the next statements read: {@code longs[c][r]} and {@code texts[c][r]}, {@code rows} of them. */
    void set(long[][] longs, String[][] texts, int rows) {
        this.longs = longs;
        this.texts = texts;
        this.rows = rows;
    }

    /** Lets the rows go. */
    void clear() {
        set(null, null, 0);
    }

    @Override
    public Object bind(DuckDBTableFunctionBindInfo info) {
        for (String column : longNames) {
            info.addResultColumn(column, DuckDBColumnType.BIGINT);
        }
        for (String column : textNames) {
            info.addResultColumn(column, DuckDBColumnType.VARCHAR);
        }
        return Boolean.TRUE; // no bind data is needed, but the driver wants some
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
        long[][] numbers = longs;
        String[][] strings = texts;
        for (int c = 0; c < numbers.length; c++) {
            setLongs(out.vector(c), numbers[c], from, n);
        }
        byte[][] utf8 = new byte[n][]; // setStringUtf8Batch takes a whole array
        for (int c = 0; c < strings.length; c++) {
            encode(strings[c], from, utf8);
            out.vector(numbers.length + c).setStringUtf8Batch(0, utf8);
        }
        next[0] = from + n;
        return n;
    }

    private static void setLongs(DuckDBWritableVector vector, long[] values, int from, int n) {
        for (int i = 0; i < n; i++) {
            vector.setLong(i, values[from + i]);
        }
    }

    /** The UTF-8 bytes of {@code values} from {@code from} on, into {@code utf8}; a string the same as the one before (by identity) encoded once. */
    private static void encode(String[] values, int from, byte[][] utf8) {
        String last = null;
        byte[] lastBytes = null;
        for (int i = 0; i < utf8.length; i++) {
            String value = values[from + i];
            if (value == null) {
                utf8[i] = null;
            } else if (value.isEmpty()) {
                utf8[i] = EMPTY;
            } else {
                if (value != last) {
                    last = value;
                    lastBytes = value.getBytes(StandardCharsets.UTF_8);
                }
                utf8[i] = lastBytes;
            }
        }
    }
}
