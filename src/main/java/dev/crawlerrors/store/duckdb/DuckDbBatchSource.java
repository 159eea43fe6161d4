package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.ingest.Hit;
import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.duckdb.DuckDBColumnType;
import org.duckdb.DuckDBDataChunkWriter;
import org.duckdb.DuckDBTableFunction;
import org.duckdb.DuckDBTableFunctionBindInfo;
import org.duckdb.DuckDBTableFunctionCallInfo;
import org.duckdb.DuckDBTableFunctionInitInfo;
import org.duckdb.DuckDBWritableVector;

/**
 * A table function over the batch being written ({@link #hits}): DuckDB asks it for chunks of
 * up to 2,048 rows and it fills their vectors, numbers in place, strings a column at a time
 * ({@link DuckDBWritableVector#setStringUtf8Batch}: one JNI call per column and chunk). One
 * scan at a time ({@code setMaxThreads(1)}), so chunks come in order and ids follow the rows.
 *
 * <p>Why a chunk is first read row by row into arrays and then handed over a column at a time
 * through three small loops ({@link #setLongs}, {@link #setDoubles}, {@link #utf8}): each
 * setter of a {@link DuckDBWritableVector} checks the row and the type and takes a lock, so one
 * per-row loop with every setter and encoding in it grows into a method too large to compile
 * cheaply. Each loop here holds one setter or one encoding, and serves every column of its kind. The
 * SMALLINTs go as BIGINTs and the nulls of the size and the duration as their own markers,
 * turned back by the statement that reads the function ({@link DuckDbHitWriter}), a vectorised
 * step per chunk.
 */
final class DuckDbBatchSource implements DuckDBTableFunction<Object, DuckDbBatchSource.Cursor, Object> {

    /**
     * The hits the writer's statement reads, set on the writer thread around that statement. Volatile:
     * with more than one DuckDB worker thread the function may run on one of DuckDB's threads.
     */
    volatile List<CrawlerHit> hits;
    /** The claim number of each of {@link #hits}. */
    volatile int[] claims;
    /** The id of the first of {@link #hits}. */
    volatile long firstId;
    /**
     * The text each of {@link #hits} waits with in its row, as the store keeps it ({@link DuckDbSignatureShapes}),
     * by place; null when none waits.
     */
    volatile byte[][] waiting;


    /** The BIGINT columns, in the order of the function's columns, and their places in it. */
    private static final int ID = 0, MICROS = 1, OFFSET = 2, STATUS = 3, SIZE = 4, CLAIM = 5;
    private static final int[] LONG_COLUMNS = {0, 1, 2, 6, 7, 14};
    private static final int DURATION_COLUMN = 8;
    /** The string columns, in the order of the function's columns, and their places in it. */
    private static final int IP = 0, METHOD = 1, URL = 2, CRAWLER = 3, BOT_TYPE = 4, USER_AGENT = 5, REFERER = 6, HOST = 7, LOCATION = 8, SIG = 9;
    private static final int[] STRING_COLUMNS = {3, 4, 5, 9, 10, 11, 12, 13, 15, 16};
    /** The string columns whose values recur as the same string (see {@link Cursor#seen}). */
    private static final boolean[] RECURRING = flags(STRING_COLUMNS.length, IP, METHOD, USER_AGENT);
    private static final int SEEN_SLOTS = 1024;

    private static boolean[] flags(int length, int... set) {
        boolean[] flags = new boolean[length];
        for (int index : set) {
            flags[index] = true;
        }
        return flags;
    }

    /** Where one statement's scan is, and the arrays it fills for each chunk. */
    static final class Cursor {
        int next;
        /** The length of the arrays below: the rows of the chunk being filled. */
        int rows = -1;
        final long[][] longs = new long[LONG_COLUMNS.length][];
        double[] durations;
        /** The strings of the hits, then their UTF-8 bytes; the crawler's only as bytes. */
        final String[][] texts = new String[STRING_COLUMNS.length][];
        final byte[][][] strings = new byte[STRING_COLUMNS.length][][];
        /**
         * A crawler's name and bot type, encoded once: few crawlers, every row has one. By
         * identity (a Crawler is a record, whose hash walks its lists); get and put, as
         * computeIfAbsent, a default method, was compiled on its own besides.
         */
        final Map<Crawler, byte[][]> crawlers = new IdentityHashMap<>();
        /**
         * The bytes of strings met before, by identity, in a table where the newest wins its slot:
         * the combined parser gives each distinct agent and address one string (its
         * RecurringText), so a crawler's agent is encoded once rather than once a hit.
         */
        final String[] seen = new String[SEEN_SLOTS];
        final byte[][] seenBytes = new byte[SEEN_SLOTS][];

        /** Makes the arrays {@code rows} long: setStringUtf8Batch takes a whole array. */
        void size(int rows) {
            if (this.rows == rows) {
                return;
            }
            this.rows = rows;
            for (int c = 0; c < longs.length; c++) {
                longs[c] = new long[rows];
            }
            durations = new double[rows];
            for (int c = 0; c < strings.length; c++) {
                texts[c] = new String[rows];
                strings[c] = new byte[rows][];
            }
        }

        /** Reads the hits {@code from} on into the arrays, row by row. */
        void read(List<CrawlerHit> hits, int[] claimIds, byte[][] waiting, int from, long firstId) {
            long[] ids = longs[ID], micros = longs[MICROS], offsets = longs[OFFSET], statuses = longs[STATUS],
                    sizes = longs[SIZE], claimNumbers = longs[CLAIM];
            String[] ips = texts[IP], methods = texts[METHOD], urls = texts[URL], agents = texts[USER_AGENT],
                    referers = texts[REFERER], hosts = texts[HOST], locations = texts[LOCATION];
            byte[][] crawlerNames = strings[CRAWLER], botTypes = strings[BOT_TYPE], sigs = strings[SIG];
            for (int i = 0; i < rows; i++) {
                CrawlerHit crawlerHit = hits.get(from + i);
                Hit hit = crawlerHit.hit();
                ids[i] = firstId + i;
                claimNumbers[i] = claimIds[from + i];
                micros[i] = hit.epochMillis() * 1000;
                offsets[i] = (short) hit.offsetMinutes();
                statuses[i] = (short) hit.status();
                sizes[i] = hit.bytes(); // negative for none: NULL
                durations[i] = hit.durationMs(); // NaN for none: NULL
                ips[i] = hit.ip();
                methods[i] = hit.method();
                urls[i] = hit.url();
                agents[i] = hit.userAgent();
                referers[i] = hit.referer();
                hosts[i] = hit.host();
                locations[i] = hit.location();
                sigs[i] = waiting == null ? null : waiting[from + i];
                byte[][] crawler = crawler(crawlerHit.crawler());
                crawlerNames[i] = crawler[0];
                botTypes[i] = crawler[1];
            }
        }

        private byte[][] crawler(Crawler crawler) {
            byte[][] encoded = crawlers.get(crawler);
            if (encoded == null) {
                encoded = new byte[][] {crawler.name().getBytes(StandardCharsets.UTF_8),
                        crawler.botType().name().getBytes(StandardCharsets.UTF_8)};
                crawlers.put(crawler, encoded);
            }
            return encoded;
        }
    }

    @Override
    public Object bind(DuckDBTableFunctionBindInfo info) {
        info.addResultColumn("id", DuckDBColumnType.BIGINT)
                .addResultColumn("ts_micros", DuckDBColumnType.BIGINT)
                .addResultColumn("utc_offset_minutes", DuckDBColumnType.BIGINT)
                .addResultColumn("ip", DuckDBColumnType.VARCHAR)
                .addResultColumn("method", DuckDBColumnType.VARCHAR)
                .addResultColumn("url", DuckDBColumnType.VARCHAR)
                .addResultColumn("status", DuckDBColumnType.BIGINT)
                .addResultColumn("bytes_or_negative", DuckDBColumnType.BIGINT)
                .addResultColumn("duration_ms_or_nan", DuckDBColumnType.DOUBLE)
                .addResultColumn("crawler", DuckDBColumnType.VARCHAR)
                .addResultColumn("bot_type", DuckDBColumnType.VARCHAR)
                .addResultColumn("user_agent", DuckDBColumnType.VARCHAR)
                .addResultColumn("referer", DuckDBColumnType.VARCHAR)
                .addResultColumn("host", DuckDBColumnType.VARCHAR)
                .addResultColumn("claim_id", DuckDBColumnType.BIGINT)
                .addResultColumn("location", DuckDBColumnType.VARCHAR)
                .addResultColumn("sig", DuckDBColumnType.VARCHAR);
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
        List<CrawlerHit> hits = this.hits;
        int[] claimIds = this.claims;
        int from = cursor.next;
        int rows = (int) Math.min(out.capacity(), hits.size() - from);
        if (rows <= 0) {
            return 0;
        }
        cursor.size(rows);
        cursor.read(hits, claimIds, this.waiting, from, firstId + from);
        for (int c = 0; c < LONG_COLUMNS.length; c++) {
            setLongs(out.vector(LONG_COLUMNS[c]), cursor.longs[c], rows);
        }
        setDoubles(out.vector(DURATION_COLUMN), cursor.durations, rows);
        for (int c = 0; c < STRING_COLUMNS.length; c++) {
            if (RECURRING[c]) {
                utf8Recurring(cursor.texts[c], cursor.strings[c], rows, cursor);
            } else if (c != CRAWLER && c != BOT_TYPE && c != SIG) {
                utf8(cursor.texts[c], cursor.strings[c], rows);
            }
            out.vector(STRING_COLUMNS[c]).setStringUtf8Batch(0, cursor.strings[c]); // a null element is a NULL
        }
        cursor.next = from + rows;
        return rows;
    }

    private static void setLongs(DuckDBWritableVector vector, long[] values, int rows) {
        for (int i = 0; i < rows; i++) {
            vector.setLong(i, values[i]);
        }
    }

    private static void setDoubles(DuckDBWritableVector vector, double[] values, int rows) {
        for (int i = 0; i < rows; i++) {
            vector.setDouble(i, values[i]);
        }
    }

    /**
     * Each string's UTF-8 bytes, or null for null: String.getBytes is an intrinsic, a copy for
     * ASCII. The strings are dropped as they are encoded, so a cursor holds no hit's text
     * beyond its chunk.
     */
    private static void utf8(String[] values, byte[][] utf8, int rows) {
        for (int i = 0; i < rows; i++) {
            String value = values[i];
            utf8[i] = value == null ? null : value.getBytes(StandardCharsets.UTF_8);
            values[i] = null;
        }
    }

    /** {@link #utf8}, encoding a string met before only once (by identity: equal strings that are not the same are encoded again). */
    private static void utf8Recurring(String[] values, byte[][] utf8, int rows, Cursor cursor) {
        String[] seen = cursor.seen;
        byte[][] seenBytes = cursor.seenBytes;
        for (int i = 0; i < rows; i++) {
            String value = values[i];
            if (value == null) {
                utf8[i] = null;
                continue;
            }
            int slot = System.identityHashCode(value) & (SEEN_SLOTS - 1);
            byte[] bytes;
            if (seen[slot] == value) {
                bytes = seenBytes[slot];
            } else {
                bytes = value.getBytes(StandardCharsets.UTF_8);
                seen[slot] = value;
                seenBytes[slot] = bytes;
            }
            utf8[i] = bytes;
            values[i] = null;
        }
    }
}
