package dev.crawlerrors.report;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoredHit;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * Every row of the default view ({@link HitFilter#ERRORS}) at one snapshot, held in memory as
 * columns, so that any of its pages is answered without a store read: a page the store reads costs
 * a read of its rows' block (4-6 ms of CPU on DuckDB, whatever the page) and a page from these
 * columns some microseconds. The copy is made in the background, off the readers' path, from the
 * store's own pages of that snapshot ({@link HitReader#forEach}), once the view's counts at the
 * newest snapshot are known; it answers only that snapshot, so its pages are the store's to the
 * row. Any other view or snapshot, a copy past its bound in bytes, or one not made yet, is read
 * from the store as before ({@code null} from {@link #page}). It sits above {@link HitReader}:
 * every engine's pages come from it alike.
 *
 * <p>A row takes {@value #ROW_BYTES} bytes and its URL's: its number as an int (a long, 4 bytes more,
 * where a number is past an int, as ClickHouse's are), its time as an int of milliseconds behind the
 * newest of its block of 64 rows (a store so sparse that 64 rows span 24 days is not copied), its URL's place
 * in chunks of the URLs' bytes (Latin-1, 22 bytes a URL in the benchmarks' stores, where most URLs
 * differ), its IP as a number into a dictionary of them, its duration as an int of thousandths of a millisecond where that
 * gives the same double back (else a number into a list of the others), and every other field
 * (method, status, offset, crawler, bot type, verdict, reason, agent, host) as one number into the
 * few combinations of them a store holds. The URLs' chunks and the dictionaries count against the
 * bound too.
 *
 * <p>When the newest snapshot moves, the copy is made again for the new one, at most one copy at a
 * time and each after a rest of {@value #REST_FACTOR} times the last one's duration, so that a store
 * written without pause spends at most a fifth of a core on copies; meanwhile the new snapshot's
 * pages are read from the store, and so are the older snapshot's (links that carry {@code at}): its
 * copy is let go when the next one starts, so that the two never take twice the bound.
 */
final class DefaultViewRows {

    /** Bytes a row takes in the columns besides its URL's and the dictionaries: six ints and its share of its block's time. */
    static final int ROW_BYTES = 6 * 4 + 1;
    /** Rows whose times are kept as milliseconds behind their block's first (newest) row's. */
    private static final int BLOCK_BITS = 6;
    /** Rest after a copy, as a multiple of its duration, before the next one may start. */
    static final int REST_FACTOR = 4;
    /** A text in a dictionary: the string and its array's headers, the map's entry while copying. */
    private static final int TEXT_BYTES = 96;
    /** A combination of the other fields: its record and its map entry (its texts counted apart). */
    private static final int KIND_BYTES = 128;
    private static final int NULL_DURATION = -1;
    private static final int NULL_URL = -1;
    /** URLs are written one after another into chunks of 1 MiB (no URL spans two); a place is chunk and offset in an int. */
    private static final int CHUNK_BITS = 20;
    private static final int CHUNK_BYTES = 1 << CHUNK_BITS;

    /** The fields of a row other than its number, time, URL, IP and duration. */
    private record Kind(String method, int status, int offsetMinutes, String crawler, String botType, String verification,
            String reason, String userAgent, String host) {
    }

    /** The rows of one snapshot, newest first (ties by number, descending), as the view's pages list them. */
    private record Columns(Snapshot at, int size, int[] ids, long[] wideIds, long[] blockMillis, int[] millis, int[] urls, int[] ips,
            int[] kinds, int[] durations, byte[][] urlChunks, String[] ipTexts, Kind[] kindTable, double[] oddDurations, long bytes) {

        StoredHit hit(int i) {
            Kind kind = kindTable[kinds[i]];
            return new StoredHit(wideIds != null ? wideIds[i] : ids[i], blockMillis[i >>> BLOCK_BITS] - millis[i], kind.offsetMinutes(), ipTexts[ips[i]], kind.method(), url(urls[i]), kind.status(),
                    duration(durations[i]), kind.crawler(), kind.botType(), kind.verification(), kind.reason(), kind.userAgent(), kind.host());
        }

        /** The URL written at {@code place}: a varint of twice its length (plus one for UTF-16), then its chars. */
        private String url(int place) {
            if (place == NULL_URL) {
                return null;
            }
            byte[] chunk = urlChunks[place >>> CHUNK_BITS];
            int at = place & (CHUNK_BYTES - 1);
            int header = 0;
            for (int shift = 0;; shift += 7) {
                byte b = chunk[at++];
                header |= (b & 0x7F) << shift;
                if (b >= 0) {
                    break;
                }
            }
            int length = header >>> 1;
            if ((header & 1) == 0) {
                return new String(chunk, at, length, StandardCharsets.ISO_8859_1);
            }
            char[] chars = new char[length];
            for (int k = 0; k < length; k++, at += 2) {
                chars[k] = (char) ((chunk[at] & 0xFF) | (chunk[at + 1] & 0xFF) << 8);
            }
            return new String(chars);
        }

        private Double duration(int code) {
            if (code >= 0) {
                return code / 1000.0;
            }
            return code == NULL_DURATION ? null : oddDurations[-code - 2];
        }
    }

    private final HitReader store;
    private final long budgetBytes;
    private final ExecutorService copier;
    private volatile Columns held;
    /** The snapshot being copied, or null; guarded by this. */
    private Snapshot copying;
    /** When the next copy may start ({@link System#nanoTime}); guarded by this. */
    private long restUntil;
    /** The rows of a view found too large for the bound (a copy of at least as many is not tried); guarded by this. */
    private long tooManyRows = Long.MAX_VALUE;
    private volatile long lastCopyNanos;
    /** Whether the report started its background counts ({@link #start}), and whether it closed; guarded by this. */
    private boolean started;
    private boolean closed;

    /**
     * @param budgetBytes the bytes the copy may take; 0 makes none
     * @param copier      the thread copies are made on, queued behind the count cubes' counts
     *                    ({@link KeptCubes#counter}): a copy beside them slowed serve's first counts by half
     *                    and its peak memory by 150 MiB on a 3M-hit store; its owner stops it
     */
    DefaultViewRows(HitReader store, long budgetBytes, ExecutorService copier) {
        this.store = store;
        this.budgetBytes = budgetBytes;
        this.copier = copier;
    }

    /**
     * The rows of page {@code page} (from 1) of {@code filter}'s view at {@code at}, whose counts are
     * {@code counts}, from memory; or null when the copy cannot answer it, the caller then reads the
     * store. When {@code at} is the newest snapshot and the copy holds another, a copy of it is started
     * (once {@link #start started}).
     */
    List<StoredHit> page(HitFilter filter, Snapshot at, MinuteCounts counts, int page, boolean newest) {
        if (budgetBytes <= 0 || !HitFilter.ERRORS.equals(filter)) {
            return null;
        }
        Columns columns = held;
        if (columns != null && columns.at().equals(at) && columns.size() == counts.total()) {
            long from = Paging.offset(page);
            int to = (int) Math.min(columns.size(), from + Paging.PAGE_SIZE);
            List<StoredHit> rows = new ArrayList<>(Math.max(0, to - (int) Math.min(from, to)));
            for (int i = (int) Math.min(from, to); i < to; i++) {
                rows.add(columns.hit(i));
            }
            return rows;
        }
        if (newest) {
            startCopy(at, counts);
        }
        return null;
    }

    /**
     * From now on, copies the default view's rows of the newest snapshot, starting with {@code at}'s
     * (whose counts are {@code counts}, null when not known yet). The report calls it once its count
     * cubes' counts are queued, so that the first copy is made after them.
     */
    void start(Snapshot at, MinuteCounts counts) {
        synchronized (this) {
            started = true;
        }
        if (counts != null) {
            startCopy(at, counts);
        }
    }

    private synchronized void startCopy(Snapshot at, MinuteCounts counts) {
        long rows = counts.total();
        Columns columns = held;
        if (!started || closed || copying != null || (columns != null && columns.at().equals(at)) || rows >= tooManyRows || copier.isShutdown()
                || System.nanoTime() - restUntil < 0) {
            return;
        }
        if (rows * ROW_BYTES > budgetBytes || rows > Integer.MAX_VALUE - 8) {
            tooManyRows = rows;
            return;
        }
        copying = at;
        held = null; // the older snapshot's copy goes before the new one is made: the bound holds for both
        try {
            copier.execute(() -> copy(at, counts));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            copying = null; // closed meanwhile
        }
    }

    /** Thrown out of the store's read when the copy outgrows its bound or disagrees with the counts. */
    private static final class Abandoned extends RuntimeException {
        Abandoned() {
            super(null, null, false, false);
        }
    }

    private void copy(Snapshot at, MinuteCounts counts) {
        long started = System.nanoTime();
        Columns made = null;
        Copy copy = null;
        try {
            copy = new Copy(at, (int) counts.total(), budgetBytes);
            store.forEach(HitFilter.ERRORS, at, counts, copy::add);
            made = copy.columns();
        } catch (Abandoned e) {
            // past the bound, or the store and the counts disagree: the pages are read from the store
        } catch (RuntimeException e) {
            // the store failed (closed, a snapshot it no longer serves): the pages are read from it, which says so
        } finally {
            long took = System.nanoTime() - started;
            synchronized (this) {
                copying = null;
                restUntil = System.nanoTime() + REST_FACTOR * took;
                if (made != null) {
                    held = made;
                    lastCopyNanos = took;
                } else if (copy != null && copy.tooBig) {
                    tooManyRows = counts.total();
                }
            }
        }
    }

    /** A copy being made, row after row in the view's order. */
    private static final class Copy {
        private final Snapshot at;
        private final int size;
        private final long budget;
        private int[] ids;
        private long[] wideIds;
        private final long[] blockMillis;
        private final int[] millis;
        private final int[] urls;
        private final int[] ips;
        private final int[] kinds;
        private final int[] durations;
        private final Map<String, Integer> ipNumbers = new HashMap<>();
        private final Map<Kind, Integer> kindNumbers = new HashMap<>();
        private final List<byte[]> urlChunks = new ArrayList<>();
        private byte[] chunk;
        private int chunkUsed;
        private final List<String> ipTexts = new ArrayList<>();
        private final List<Kind> kindTable = new ArrayList<>();
        private double[] odd = new double[16];
        private int oddSize;
        private int rows;
        private long bytes;
        boolean tooBig;

        Copy(Snapshot at, int size, long budget) {
            this.at = at;
            this.size = size;
            this.budget = budget;
            this.ids = new int[size];
            this.blockMillis = new long[(size >>> BLOCK_BITS) + 1];
            this.millis = new int[size];
            this.urls = new int[size];
            this.ips = new int[size];
            this.kinds = new int[size];
            this.durations = new int[size];
            this.bytes = (long) size * ROW_BYTES;
        }

        void add(StoredHit hit) {
            if (rows == size) {
                throw new Abandoned(); // more rows than counted
            }
            int i = rows++;
            if (wideIds == null && (hit.id() < 0 || hit.id() > Integer.MAX_VALUE)) {
                // numbers past an int (ClickHouse's, a store of two billion hits): longs, 4 bytes a row more
                grow(8L * size);
                wideIds = new long[size];
                for (int k = 0; k < i; k++) {
                    wideIds[k] = ids[k];
                }
                ids = null;
                grow(-4L * size);
            }
            if (wideIds != null) {
                wideIds[i] = hit.id();
            } else {
                ids[i] = (int) hit.id();
            }
            if ((i & (1 << BLOCK_BITS) - 1) == 0) {
                blockMillis[i >>> BLOCK_BITS] = hit.epochMillis();
            }
            long behind = blockMillis[i >>> BLOCK_BITS] - hit.epochMillis(); // rows come newest first
            if (behind < 0 || behind > Integer.MAX_VALUE) {
                throw new Abandoned(); // 64 rows over 24 days: a store this sparse is small, its pages cheap to read
            }
            millis[i] = (int) behind;
            urls[i] = url(hit.url());
            ips[i] = text(hit.ip(), ipNumbers, ipTexts);
            Kind kind = new Kind(hit.method(), hit.status(), hit.offsetMinutes(), hit.crawler(), hit.botType(), hit.verification(),
                    hit.reason(), hit.userAgent(), hit.host());
            Integer number = kindNumbers.get(kind);
            if (number == null) {
                number = kindTable.size();
                kindNumbers.put(kind, number);
                kindTable.add(kind);
                grow(KIND_BYTES + length(kind.method()) + length(kind.crawler()) + length(kind.botType()) + length(kind.verification())
                        + length(kind.reason()) + length(kind.userAgent()) + length(kind.host()));
            }
            kinds[i] = number;
            durations[i] = duration(hit.durationMs());
        }

        /**
         * Writes {@code url} into the chunks, as {@link PackedHits} writes a text (Latin-1 bytes, else UTF-16 units, so
         * that every string comes back equal), and returns its place. URLs are not numbered: most of a store's differ.
         */
        private int url(String url) {
            if (url == null) {
                return NULL_URL;
            }
            boolean latin1 = true;
            for (int k = 0; k < url.length() && latin1; k++) {
                latin1 = url.charAt(k) < 256;
            }
            int header = 2 * url.length() + (latin1 ? 0 : 1);
            int need = 5 + (latin1 ? url.length() : 2 * url.length());
            if (need > CHUNK_BYTES || url.length() > (Integer.MAX_VALUE - 1) / 2) {
                throw new Abandoned(); // a URL of a megabyte: the pages are read from the store
            }
            if (chunk == null || chunkUsed + need > chunk.length) {
                if (urlChunks.size() == 1 << (31 - CHUNK_BITS)) {
                    throw new Abandoned();
                }
                // a small view's URLs take a small chunk: room for the rows still to come at 32 bytes each
                int length = (int) Math.min(CHUNK_BYTES, Math.max(need, Math.max(4_096L, 32L * (size - rows + 1))));
                grow(length + 16);
                chunk = new byte[length];
                urlChunks.add(chunk);
                chunkUsed = 0;
            }
            int place = (urlChunks.size() - 1) << CHUNK_BITS | chunkUsed;
            int at = chunkUsed;
            while ((header & ~0x7F) != 0) {
                chunk[at++] = (byte) ((header & 0x7F) | 0x80);
                header >>>= 7;
            }
            chunk[at++] = (byte) header;
            for (int k = 0; k < url.length(); k++) {
                char c = url.charAt(k);
                chunk[at++] = (byte) c;
                if (!latin1) {
                    chunk[at++] = (byte) (c >>> 8);
                }
            }
            chunkUsed = at;
            return place;
        }

        private int text(String text, Map<String, Integer> numbers, List<String> texts) {
            Integer number = numbers.get(text);
            if (number == null) {
                number = texts.size();
                numbers.put(text, number);
                texts.add(text);
                grow(TEXT_BYTES + length(text));
            }
            return number;
        }

        /** Thousandths of a millisecond where they give the same double back (a log's durations mostly do), else a place in the others. */
        private int duration(Double duration) {
            if (duration == null) {
                return NULL_DURATION;
            }
            double d = duration;
            double scaled = Math.rint(d * 1000);
            if (scaled >= 0 && scaled < Integer.MAX_VALUE
                    && Double.doubleToRawLongBits((int) scaled / 1000.0) == Double.doubleToRawLongBits(d)) {
                return (int) scaled;
            }
            if (oddSize == odd.length) {
                grow(8L * odd.length);
                odd = Arrays.copyOf(odd, odd.length * 2);
            }
            odd[oddSize] = d;
            return -(oddSize++) - 2;
        }

        private void grow(long more) {
            bytes += more;
            if (bytes > budget) {
                tooBig = true;
                throw new Abandoned();
            }
        }

        private static long length(String text) {
            return text == null ? 0 : 2L * text.length();
        }

        /** The copy, or null when the store gave fewer rows than counted. */
        Columns columns() {
            if (rows != size) {
                return null;
            }
            return new Columns(at, size, ids, wideIds, blockMillis, millis, urls, ips, kinds, durations, urlChunks.toArray(byte[][]::new),
                    ipTexts.toArray(String[]::new), kindTable.toArray(Kind[]::new), Arrays.copyOf(odd, oddSize), bytes);
        }
    }

    /** The snapshot copied, or null, for metrics and tests. */
    Snapshot heldAt() {
        Columns columns = held;
        return columns == null ? null : columns.at();
    }

    /** The bytes the copy takes (0 when none is held), for metrics. */
    long bytes() {
        Columns columns = held;
        return columns == null ? 0 : columns.bytes();
    }

    /** How long the last copy took to make, in nanoseconds (0 before the first), for metrics. */
    long lastCopyNanos() {
        return lastCopyNanos;
    }

    /** Starts no more copies (the copier's owner stops the one running). */
    synchronized void close() {
        closed = true;
    }
}
