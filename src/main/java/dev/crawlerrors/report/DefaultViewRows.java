package dev.crawlerrors.report;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.DurationBuckets;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.sitemap.SitemapUrl;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.StoredHit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

/**
 * Every row of the default view ({@link HitFilter#ERRORS}) at one snapshot, held in memory as
 * columns, so that any of its pages, and any page of a view that is a part of it, is answered
 * without a store read: a page the store reads costs a read of its rows' block (4-6 ms of CPU on
 * DuckDB, whatever the page; 60-800 ms for a filtered view never asked before) and a page from these
 * columns some microseconds. The copy is made in the background, off the readers' path, from the
 * store's own pages of that snapshot ({@link HitReader#forEach}), once the view's counts at the
 * newest snapshot are known; it answers only that snapshot, so its pages are the store's to the
 * row. The default view's spoofed error rows ({@link #SPOOFED}, left out of it: a small part of a log's
 * error hits) are copied after them, into what the bound leaves, and answer the views of spoofed hits
 * alike. Any other snapshot, a view with rows outside those (other statuses, hidden bot types, spoofed
 * hits beside others, URL shapes), a copy past its bound in bytes, or one not made yet, is
 * read from the store as before ({@code null} from {@link #page}). It sits above {@link HitReader}:
 * every engine's pages come from it alike.
 *
 * <p>Columns ({@link PackedLongs}): rows in blocks of {@value #BLOCK_ROWS}, each column of a block as
 * offsets from the block's least value in the fewest bytes that hold them (a block's times span some
 * hours of a month's store: 3 bytes; its numbers 3; its kinds 1). A row's URL is a number into a
 * dictionary of the snapshot's URLs ({@link UrlDictionary}), sorted by their UTF-8 bytes and written
 * front-coded, so that the URLs a prefix starts are one range of numbers; its IP a number into a
 * dictionary of them; its duration thousandths of a millisecond where that gives the same double back
 * (else a number into a list of the others); and every other field (method, status, offset, crawler,
 * bot type, verdict, reason, agent, host) one number into the few combinations of them a store holds.
 * Some 15 bytes a row and 7 a distinct URL on the benchmarks' stores, against 48 a row before. The
 * dictionaries and what the copy takes while it is made count against the bound too.
 *
 * <p>A filtered view of the same snapshot whose rows are all in the default view (statuses of
 * errors, verdicts other than spoofed, bot types shown by default, any crawler, host, URL prefix and
 * time range) is answered from the same columns: its counts ({@link #minuteCounts}) by a scan of the
 * rows of its times, where the count cubes cannot sum it; a page by its counts' time range
 * ({@link MinuteCounts#locate}) and a scan of the rows of that range, as the store reads it.
 *
 * <p>When the newest snapshot moves, the copy is made again for the new one, at most one copy at a
 * time and each after a rest of {@value #REST_FACTOR} times the last one's duration, so that a store
 * written without pause spends at most a fifth of a core on copies; meanwhile the new snapshot's
 * pages are read from the store, and so are the older snapshot's (links that carry {@code at}): its
 * copy is let go when the next one starts, so that the two never take twice the bound.
 */
final class DefaultViewRows {

    /** The least bytes a row takes (the bound is checked against it before a copy is tried). */
    static final int ROW_BYTES = 8;
    /** Rows of a packed block. */
    private static final int BLOCK_BITS = PackedLongs.BLOCK_BITS;
    static final int BLOCK_ROWS = PackedLongs.BLOCK_ROWS;
    /** Rest after a copy, as a multiple of its duration, before the next one may start. */
    static final int REST_FACTOR = 4;
    /** A text in a dictionary: the string and its array's headers, the map's entry while copying. */
    private static final int TEXT_BYTES = 96;
    /** A combination of the other fields: its record and its map entry (its texts counted apart). */
    private static final int KIND_BYTES = 128;
    private static final int NULL_DURATION = -1;
    private static final long MINUTE_MILLIS = 60_000;
    /** Minutes counted into one array by {@link Columns#byUrl}: two years; a wider store's views are scanned. */
    private static final long DENSE_MINUTES = 1 << 20;
    private static final Set<String> HELD_VERDICTS = Set.of(Verification.verified.name(), Verification.unverified.name());
    /** The verdict of the error rows held beside the default view's (its spoofed hits, left out of it). */
    private static final Set<String> SPOOFED_VERDICT = Set.of(Verification.spoofed.name());
    /** The default view's spoofed error rows: held beside its rows, in what the bound leaves. */
    static final HitFilter SPOOFED = HitFilter.ERRORS.withVerifications(java.util.EnumSet.of(Verification.spoofed));

    /** The fields of a row other than its number, time, URL, IP and duration. */
    private record Kind(String method, int status, int offsetMinutes, String crawler, String botType, String verification,
            String reason, String userAgent, String host) {
    }

    /** The rows of one snapshot, newest first (ties by number, descending), as the view's pages list them. */
    private record Columns(Snapshot at, int size, PackedLongs ids, PackedLongs times, PackedLongs urls, PackedLongs ips, PackedLongs kinds, PackedLongs durations,
            UrlDictionary urlTexts, String[] ipTexts, Kind[] kindTable, double[] oddDurations, PackedLongs urlRows, PackedLongs urlStarts, long bytes,
            Set<String> verdicts, PackedLongs kindRows, int[] kindStarts, boolean[] kindListed) {

        StoredHit hit(int i) {
            Kind kind = kindTable[(int) kinds.get(i)];
            return new StoredHit(ids.get(i) - (i & (BLOCK_ROWS - 1)), times.get(i), kind.offsetMinutes(), ipTexts[(int) ips.get(i)], kind.method(),
                    urlTexts.text((int) urls.get(i)), kind.status(), duration((int) durations.get(i)), kind.crawler(), kind.botType(),
                    kind.verification(), kind.reason(), kind.userAgent(), kind.host());
        }

        private Double duration(int code) {
            if (code >= 0) {
                return code / 1000.0;
            }
            return code == NULL_DURATION ? null : oddDurations[-code - 2];
        }

        /** The first row whose time is before {@code millis} (rows are newest first). */
        int firstBefore(long millis) {
            int lo = 0;
            int hi = size;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (times.get(mid) >= millis) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        /**
         * {@code filter}'s conditions on these rows, or null when some of its rows may not be among them, or it
         * asks whether a sitemap lists them and {@code listed} does not say it of these rows.
         */
        RowFilter filter(HitFilter filter, Listed listed) {
            if (!partOf(filter, verdicts)) {
                return null;
            }
            long[] bits = null;
            if (filter.inSitemap() != null) {
                if (listed == null || listed.of() != this || listed.bits() == null) {
                    return null;
                }
                bits = listed.bits();
            }
            int urlFrom = 0;
            int urlTo = Integer.MAX_VALUE;
            if (filter.urlPrefix() != null) {
                byte[] prefix = UrlDictionary.utf8(filter.urlPrefix());
                if (prefix == null) {
                    return null;
                }
                urlFrom = urlTexts.lowerBound(prefix, false);
                urlTo = urlTexts.lowerBound(prefix, true);
            }
            boolean[] matches = new boolean[kindTable.length];
            Matcher matcher = new Matcher(filter, verdicts);
            boolean any = false;
            for (int k = 0; k < kindTable.length; k++) {
                matches[k] = matcher.matches(kindTable[k]);
                any |= matches[k];
            }
            long from = filter.from() == null ? Long.MIN_VALUE : filter.from().toEpochMilli();
            long to = filter.to() == null ? Long.MAX_VALUE : filter.to().toEpochMilli();
            return new RowFilter(matches, any && urlFrom < urlTo, from, to, urlFrom, urlTo, filter.urlPrefix() != null, bits,
                    Boolean.TRUE.equals(filter.inSitemap()));
        }

        /**
         * The rows of {@code filter} whose times are in {@code [fromMillis, toMillis)}, after {@code skip}, at most {@code limit}:
         * from the lists of rows of the URLs its prefix starts or of the kinds it matches ({@link #lists}) when they hold fewer
         * of those times' rows than a scan reads (a deep prefix, a rare status), else a scan of those times' rows; {@code listed}
         * counts the pages read from lists.
         */
        List<StoredHit> rows(RowFilter filter, long fromMillis, long toMillis, long skip, int limit, java.util.concurrent.atomic.LongAdder listed) {
            List<StoredHit> rows = new ArrayList<>(Math.min(limit, 128));
            if (!filter.any()) {
                return rows;
            }
            long from = Math.max(fromMillis, filter.from());
            long to = Math.min(toMillis, filter.to());
            if (from >= to) {
                return rows;
            }
            int end = firstBefore(from);
            int start = firstBefore(to);
            RowLists lists = lists(filter, start, end);
            if (lists != null) {
                listed.increment();
                long urlFrom = filter.urlFrom();
                long urlTo = filter.urlTo();
                for (int i = lists.next(); i >= 0 && rows.size() < limit; i = lists.next()) {
                    // a list's rows are of the view's URLs or of its kinds: the other conditions asked of each
                    if (!filter.kinds()[(int) kinds.get(i)] || !filter.listedAs(i)) {
                        continue;
                    }
                    if (filter.byUrl()) {
                        long url = urls.get(i);
                        if (url < urlFrom || url >= urlTo) {
                            continue;
                        }
                    }
                    if (skip > 0) {
                        skip--;
                        continue;
                    }
                    rows.add(hit(i));
                }
                return rows;
            }
            Scan scan = new Scan();
            for (int s = start, e; s < end && rows.size() < limit; s = e) {
                e = Scan.chunkEnd(s, end);
                int found = matches(filter, s, e, scan);
                if (found <= skip) {
                    skip -= found;
                    continue;
                }
                for (int j = (int) skip; j < found && rows.size() < limit; j++) {
                    rows.add(hit(scan.rows[j]));
                }
                skip = 0;
            }
            return rows;
        }

        /**
         * The rows {@code start} to {@code end - 1} of the URLs {@code filter}'s prefix starts ({@link #urlRows}: at most
         * {@value #MOST_URL_LISTS} URLs), or of the kinds it matches ({@link #kindRows}: each of them listed), whichever
         * are fewer, merged in the rows' order; null when neither can be read, or reading them costs more than a scan of
         * those rows: a listed row is read out of order (a cache miss), one of a scan in order.
         */
        RowLists lists(RowFilter filter, int start, int end) {
            if (start >= end) {
                return null;
            }
            RowLists best = urlLists(filter, start, end);
            boolean[] matching = filter.kinds();
            int kindLists = 0;
            boolean everyListed = true;
            for (int k = 0; k < matching.length && everyListed; k++) {
                if (matching[k]) {
                    kindLists++;
                    everyListed = kindListed[k];
                }
            }
            if (everyListed && kindLists <= MOST_KIND_LISTS) {
                RowLists byKind = new RowLists(kindRows, kindLists);
                for (int k = 0; k < matching.length && (best == null || byKind.size() < best.size()); k++) {
                    if (matching[k]) {
                        byKind.add(kindStarts[k], kindStarts[k + 1], start, end);
                    }
                }
                if (best == null || byKind.size() < best.size()) {
                    best = byKind;
                }
            }
            if (best == null || best.size() * (URL_ROW_COST + 32 - Integer.numberOfLeadingZeros(best.lists())) >= end - start) {
                return null;
            }
            return best.merged();
        }

        /**
         * The lists of rows of the URLs {@code filter}'s prefix starts ({@link #urlRows}), cut to rows {@code start} to
         * {@code end - 1}; null when it has no prefix or its URLs are more than {@value #MOST_URL_LISTS}.
         */
        RowLists urlLists(RowFilter filter, int start, int end) {
            if (!filter.byUrl()) {
                return null;
            }
            int urlTo = Math.min(filter.urlTo(), urlTexts.size());
            if (urlTo - filter.urlFrom() > MOST_URL_LISTS) {
                return null;
            }
            RowLists lists = new RowLists(urlRows, Math.max(0, urlTo - filter.urlFrom()));
            for (int u = filter.urlFrom(); u < urlTo; u++) {
                lists.add((int) urlStarts.get(u), (int) urlStarts.get(u + 1), start, end);
            }
            return lists;
        }

        /** The minute counts of {@code filter}'s rows: a scan of the rows of its times. */
        MinuteCounts minuteCounts(RowFilter filter) {
            if (!filter.any()) {
                return MinuteCounts.NONE;
            }
            if (filter.byUrl() && size > 0) {
                long first = urlStarts.get(filter.urlFrom());
                long last = urlStarts.get(Math.min(filter.urlTo(), urlTexts.size()));
                long newest = Math.floorDiv(times.get(0), MINUTE_MILLIS);
                long oldest = Math.floorDiv(times.get(size - 1), MINUTE_MILLIS);
                if (8 * (last - first) < size && newest - oldest < DENSE_MINUTES) {
                    return byUrl(filter, (int) first, (int) last, oldest, (int) (newest - oldest + 1));
                }
            }
            int end = firstBefore(filter.from());
            long[] minutes = new long[64];
            long[] counts = new long[64];
            int n = 0;
            Scan scan = new Scan();
            for (int s = firstBefore(filter.to()), e; s < end; s = e) {
                e = Scan.chunkEnd(s, end);
                int found = matches(filter, s, e, scan);
                for (int j = 0; j < found; j++) {
                    long minute = Math.floorDiv(times.get(scan.rows[j]), MINUTE_MILLIS);
                    if (n > 0 && minutes[n - 1] == minute) {
                        counts[n - 1]++;
                    } else {
                        if (n == minutes.length) {
                            minutes = Arrays.copyOf(minutes, 2 * n);
                            counts = Arrays.copyOf(counts, 2 * n);
                        }
                        minutes[n] = minute;
                        counts[n++] = 1;
                    }
                }
            }
            return MinuteCounts.of(Arrays.copyOf(minutes, n), Arrays.copyOf(counts, n));
        }
        /**
         * Adds {@code filter}'s rows to {@code out} by time bucket ({@code bucketMillis} long, from the epoch), status
         * and verdict; and those of the kinds {@code counted} says (the view's statuses) by crawler, verdict and
         * status, and with a duration by status, verdict and duration bucket, as {@link ErrorCounts#counting}
         * counts them of the store. The rows of the URLs its prefix starts when they are few, else the rows of its times.
         */
        /**
     * What a row read through a URL's list of rows costs against one read in time order ({@link #tally} reads the
     * fewer): its columns are read out of order, a cache miss each.
     */
    private static final long URL_ROW_COST = 4;

    /** The rows {@link #tally} reads for {@code filter}: those of the URLs its prefix starts when they are few, else those of its times. */
        long tallied(RowFilter filter) {
            if (!filter.any() || size == 0) {
                return 0;
            }
            int start = firstBefore(filter.to());
            int end = firstBefore(filter.from());
            long timeRows = end - start;
            RowLists cut = urlLists(filter, start, end);
            if (cut != null && URL_ROW_COST * cut.size() < timeRows) {
                return cut.size();
            }
            if (filter.byUrl()) {
                long rows = urlStarts.get(Math.min(filter.urlTo(), urlTexts.size())) - urlStarts.get(filter.urlFrom());
                if (URL_ROW_COST * rows < timeRows) {
                    return rows;
                }
            }
            return timeRows;
        }

        void tally(RowFilter filter, boolean[] counted, ErrorCounts out, long bucketMillis) {
            if (!filter.any() || size == 0) {
                return;
            }
            // each kind's status and verdict: the classes of the counts by time and duration
            Map<List<Object>, Integer> classOf = new HashMap<>();
            int[] kindClass = new int[kindTable.length];
            List<Kind> classKinds = new ArrayList<>();
            for (int k = 0; k < kindTable.length; k++) {
                Kind kind = kindTable[k];
                Integer c = classOf.putIfAbsent(Arrays.asList(kind.status(), kind.verification()), classOf.size());
                if (c == null) {
                    c = classKinds.size();
                    classKinds.add(kind);
                }
                kindClass[k] = c;
            }
            int classes = classKinds.size();
            long[] byKind = new long[kindTable.length];
            long[][] byDuration = new long[classes][];
            Map<Long, long[]> byTime = new HashMap<>();
            boolean byUrl = false;
            int first = 0;
            int last = 0;
            if (filter.byUrl()) {
                first = (int) urlStarts.get(filter.urlFrom());
                last = (int) urlStarts.get(Math.min(filter.urlTo(), urlTexts.size()));
                byUrl = URL_ROW_COST * (last - first) < (long) firstBefore(filter.from()) - firstBefore(filter.to());
            }
            Tallying tallying = new Tallying(this, counted, kindClass, classes, byKind, byDuration, byTime, bucketMillis);
            Scan scan = new Scan();
            int start = firstBefore(filter.to());
            int end = firstBefore(filter.from());
            RowLists cut = urlLists(filter, start, end);
            if (cut != null && URL_ROW_COST * cut.size() < end - start) {
                // a deep prefix's few URLs: the rows of each of the filter's times found by a search of its list, not all its rows read
                cut.merged();
                int found = 0;
                for (int i = cut.next(); i >= 0; i = cut.next()) {
                    if (!filter.kinds()[(int) kinds.get(i)] || !filter.listedAs(i)) {
                        continue;
                    }
                    scan.rows[found++] = i;
                    if (found == Scan.ROWS) {
                        tallying.add(scan.rows, found);
                        found = 0;
                    }
                }
                tallying.add(scan.rows, found);
            } else if (byUrl) {
                // a URL's rows are read out of time order: those of the filter's times, kinds and listing gathered a chunk at a time
                int found = 0;
                for (int n = first; n < last; n++) {
                    int i = (int) urlRows.get(n);
                    long millis = times.get(i);
                    if (millis < filter.from() || millis >= filter.to() || !filter.kinds()[(int) kinds.get(i)] || !filter.listedAs(i)) {
                        continue;
                    }
                    scan.rows[found++] = i;
                    if (found == Scan.ROWS) {
                        tallying.add(scan.rows, found);
                        found = 0;
                    }
                }
                tallying.add(scan.rows, found);
            } else {
                for (int s = start, e; s < end; s = e) {
                    e = Scan.chunkEnd(s, end);
                    tallying.add(scan.rows, matches(filter, s, e, scan));
                }
            }
            for (int k = 0; k < byKind.length; k++) {
                if (byKind[k] > 0) {
                    Kind kind = kindTable[k];
                    out.byCrawler.merge(new ErrorCounts.CrawlerKey(kind.crawler(), kind.botType(), kind.verification(), kind.status()), byKind[k],
                            Long::sum);
                }
            }
            for (Map.Entry<Long, long[]> entry : byTime.entrySet()) {
                for (int c = 0; c < classes; c++) {
                    if (entry.getValue()[c] > 0) {
                        Kind kind = classKinds.get(c);
                        out.byTime.merge(new ErrorCounts.TimeKey(entry.getKey(), kind.status(), kind.verification()), entry.getValue()[c], Long::sum);
                    }
                }
            }
            for (int c = 0; c < classes; c++) {
                if (byDuration[c] != null) {
                    Kind kind = classKinds.get(c);
                    for (int b = 0; b < byDuration[c].length; b++) {
                        if (byDuration[c][b] > 0) {
                            out.byDuration.merge(new ErrorCounts.DurationKey(kind.status(), kind.verification(), b), byDuration[c][b], Long::sum);
                        }
                    }
                }
            }
        }

        /**
         * The rows of {@code filter} among rows {@code from} to {@code to - 1} (a chunk: {@link Scan#chunkEnd}) into
         * {@code scan}'s rows, in order; how many: those of its kinds, its URL numbers and its sitemaps' listing (a
         * chunk's kinds and URL numbers unpacked at once; the URL's range asked first: a prefix matches few of them).
         */
        int matches(RowFilter filter, int from, int to, Scan scan) {
            int n = to - from;
            boolean[] matching = filter.kinds();
            long[] kindOf = scan.kinds;
            int[] out = scan.rows;
            int found = 0;
            kinds.read(from, n, kindOf);
            if (filter.byUrl()) {
                long[] urlOf = scan.urls;
                urls.read(from, n, urlOf);
                long urlFrom = filter.urlFrom();
                long urlTo = filter.urlTo();
                for (int j = 0; j < n; j++) {
                    long url = urlOf[j];
                    if (url >= urlFrom && url < urlTo && matching[(int) kindOf[j]]) {
                        out[found++] = from + j;
                    }
                }
            } else {
                for (int j = 0; j < n; j++) {
                    if (matching[(int) kindOf[j]]) {
                        out[found++] = from + j;
                    }
                }
            }
            if (filter.listed() != null) {
                int kept = 0;
                for (int j = 0; j < found; j++) {
                    if (filter.listedAs(out[j])) {
                        out[kept++] = out[j];
                    }
                }
                found = kept;
            }
            return found;
        }

        /**
         * The minute counts of {@code filter}'s rows from the rows of the URLs its prefix starts, numbers {@code first}
         * to {@code last} of {@link #urlRows} (a few of the rows: a deep prefix), counted into every minute from
         * {@code oldest} on.
         */
        private MinuteCounts byUrl(RowFilter filter, int first, int last, long oldest, int span) {
            long[] sums = new long[span];
            for (int k = first; k < last; k++) {
                int i = (int) urlRows.get(k);
                long millis = times.get(i);
                if (millis >= filter.from() && millis < filter.to() && filter.kinds()[(int) kinds.get(i)] && filter.listedAs(i)) {
                    sums[(int) (Math.floorDiv(millis, MINUTE_MILLIS) - oldest)]++;
                }
            }
            return MinuteCounts.dense(oldest, sums);
        }
    }

    /** URLs whose lists of rows a page may merge ({@link Columns#lists}): a deep prefix's few. */
    private static final int MOST_URL_LISTS = 64;
    /** Kinds whose lists of rows a page may merge ({@link Columns#lists}). */
    private static final int MOST_KIND_LISTS = 256;
    /** A kind's rows are listed ({@link Columns#kindRows}) when it has at most this part of the rows: a rarer one's views are read from its list. */
    private static final int KIND_LIST_SHARE = 8;

    /**
     * Lists of rows, each ascending, of one column of lists ({@link Columns#urlRows} or {@link Columns#kindRows}), each
     * cut to the rows of a range, merged into one ascending run ({@link #next}) by a heap of the lists' next rows.
     */
    private static final class RowLists {
        private final PackedLongs column;
        private final int[] at;
        private final int[] ends;
        private final int[] next;
        private final int[] heap;
        private int lists;
        private int heapSize;
        private long size;

        RowLists(PackedLongs column, int most) {
            this.column = column;
            this.at = new int[most];
            this.ends = new int[most];
            this.next = new int[most];
            this.heap = new int[most];
        }

        /** Adds the list at {@code from} to {@code to - 1} of the column, cut to its rows {@code start} to {@code end - 1}. */
        void add(int from, int to, int start, int end) {
            int a = lowerBound(from, to, start);
            int b = lowerBound(a, to, end);
            if (a < b) {
                at[lists] = a;
                ends[lists] = b;
                lists++;
                size += b - a;
            }
        }

        /** The first place from {@code from} to {@code to - 1} whose row is at least {@code row}, else {@code to}. */
        private int lowerBound(int from, int to, int row) {
            int lo = from;
            int hi = to;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (column.get(mid) < row) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        /** The rows of the lists added. */
        long size() {
            return size;
        }

        /** The lists added that hold rows. */
        int lists() {
            return Math.max(1, lists);
        }

        /** These lists, ready to be read by {@link #next}. */
        RowLists merged() {
            for (int l = 0; l < lists; l++) {
                next[l] = (int) column.get(at[l]);
                heap[heapSize] = l;
                up(heapSize++);
            }
            return this;
        }

        /** The next row of the lists, in ascending order, or -1 when none is left. */
        int next() {
            if (heapSize == 0) {
                return -1;
            }
            int l = heap[0];
            int row = next[l];
            if (++at[l] < ends[l]) {
                next[l] = (int) column.get(at[l]);
            } else {
                heap[0] = heap[--heapSize];
            }
            down(0);
            return row;
        }

        private void up(int i) {
            int l = heap[i];
            while (i > 0) {
                int parent = (i - 1) >>> 1;
                if (next[heap[parent]] <= next[l]) {
                    break;
                }
                heap[i] = heap[parent];
                i = parent;
            }
            heap[i] = l;
        }

        private void down(int i) {
            if (heapSize == 0) {
                return;
            }
            int l = heap[i];
            while (true) {
                int child = 2 * i + 1;
                if (child >= heapSize) {
                    break;
                }
                if (child + 1 < heapSize && next[heap[child + 1]] < next[heap[child]]) {
                    child++;
                }
                if (next[l] <= next[heap[child]]) {
                    break;
                }
                heap[i] = heap[child];
                i = child;
            }
            heap[i] = l;
        }
    }

    /** What a scan of the held rows unpacks a chunk at a time ({@link Columns#matches}): the chunk's kinds, URL numbers and matching rows. */
    private static final class Scan {
        /** Rows of a chunk. */
        static final int ROWS = 2048;
        final long[] kinds = new long[ROWS];
        final long[] urls = new long[ROWS];
        final int[] rows = new int[ROWS];

        /** Where the chunk that starts at row {@code from} of a scan to {@code end} ends: at most {@link #ROWS} rows, in one block. */
        static int chunkEnd(int from, int end) {
            return Math.min(end, Math.min(from + ROWS, ((from >>> BLOCK_BITS) + 1) << BLOCK_BITS));
        }
    }

    /** {@link Columns#tally}'s counts of the rows it is given, by time bucket, kind and duration. */
    private static final class Tallying {
        private final Columns columns;
        private final boolean[] counted;
        private final int[] kindClass;
        private final int classes;
        private final long[] byKind;
        private final long[][] byDuration;
        private final Map<Long, long[]> byTime;
        private final long bucketMillis;
        private long bucket = Long.MIN_VALUE;
        private long[] inBucket;

        Tallying(Columns columns, boolean[] counted, int[] kindClass, int classes, long[] byKind, long[][] byDuration, Map<Long, long[]> byTime,
                long bucketMillis) {
            this.columns = columns;
            this.counted = counted;
            this.kindClass = kindClass;
            this.classes = classes;
            this.byKind = byKind;
            this.byDuration = byDuration;
            this.byTime = byTime;
            this.bucketMillis = bucketMillis;
        }

        /** Counts rows {@code rows[0]} to {@code rows[n - 1]}. */
        void add(int[] rows, int n) {
            for (int j = 0; j < n; j++) {
                int i = rows[j];
                long millis = columns.times().get(i);
                int kind = (int) columns.kinds().get(i);
                int c = kindClass[kind];
                long start = Math.floorDiv(millis, bucketMillis) * bucketMillis;
                if (start != bucket) {
                    bucket = start;
                    inBucket = byTime.computeIfAbsent(start, b -> new long[classes]);
                }
                inBucket[c]++;
                if (!counted[kind]) {
                    continue;
                }
                byKind[kind]++;
                int code = (int) columns.durations().get(i);
                if (code != NULL_DURATION) {
                    if (byDuration[c] == null) {
                        byDuration[c] = new long[DurationBuckets.LAST + 1];
                    }
                    byDuration[c][DurationBuckets.bucket(code >= 0 ? code / 1000.0 : columns.oddDurations()[-code - 2])]++;
                }
            }
        }
    }

    /**
     * A filter's conditions on the held rows: the kinds it matches, its times, the URL numbers its prefix starts,
     * and whether a sitemap lists a row's URL ({@code listed}: a bit a row, null when the filter does not ask).
     */
    private record RowFilter(boolean[] kinds, boolean any, long from, long to, int urlFrom, int urlTo, boolean byUrl, long[] listed,
            boolean inSitemap) {

        /** Whether row {@code i} is listed by a sitemap as the filter asks (or it does not ask). */
        boolean listedAs(int i) {
            return listed == null || ((listed[i >>> 6] & (1L << i)) != 0) == inSitemap;
        }
    }

    /**
     * Whether every row of {@code filter} is a row of the default view, so that the held rows answer it: its
     * statuses are errors, its verdicts not spoofed, its bot types shown by default (none asked and no crawler
     * named: those the default view shows), and it has no URL shape. Whether a sitemap lists a row is said
     * of the held rows apart ({@link Listed}), once per read of the sitemaps.
     */
    static boolean partOfDefault(HitFilter filter) {
        return partOf(filter, HELD_VERDICTS);
    }

    /**
     * Whether every row of {@code filter} is a row of the default view or of its spoofed error rows (held
     * apart: {@link #SPOOFED}), as {@link #partOfDefault} says of the default view.
     */
    static boolean partOfHeld(HitFilter filter) {
        return partOf(filter, HELD_VERDICTS) || partOf(filter, SPOOFED_VERDICT);
    }

    /** Whether every row of {@code filter} is an error row, of a bot type shown by default, of one of {@code verdicts}. */
    private static boolean partOf(HitFilter filter, Set<String> verdicts) {
        if (filter.urlPattern() != null) {
            return false;
        }
        for (StatusRange range : filter.effectiveStatuses()) {
            if (range.low() < StatusRange.ERRORS.low() || range.high() > StatusRange.ERRORS.high()) {
                return false;
            }
        }
        for (Verification verdict : filter.effectiveVerifications()) {
            if (!verdicts.contains(verdict.name())) {
                return false;
            }
        }
        if (filter.botTypes().isEmpty()) {
            return filter.crawlers().isEmpty();
        }
        return !filter.everyBotType() && filter.botTypes().stream().allMatch(BotType::shownByDefault);
    }

    /**
     * A filter's conditions on a row's other fields, as the stores' SQL has them (a missing type, crawler or
     * host matches no list), as {@code CountCube}'s cells are matched.
     */
    private static final class Matcher {
        private final KindMatch kind;
        private final Set<String> verdicts;

        Matcher(HitFilter filter, Set<String> verdicts) {
            kind = new KindMatch(filter);
            this.verdicts = verdicts;
        }

        boolean matches(Kind kind) {
            return this.kind.matches(kind.status(), kind.botType(), kind.crawler(), kind.verification(), kind.host())
                    && verdicts.contains(kind.verification());
        }
    }

    /**
     * Which rows of {@code of} a sitemap lists, a bit a row, as the sitemaps read at {@code version}
     * ({@link SitemapVersion}) list them: {@code in_sitemap=} views of the held rows are answered with it.
     * No bits when the held rows cannot say it (a row without a URL, bits past the bound): the store answers.
     */
    private record Listed(Columns of, String version, long[] bits) {
    }

    /** URLs asked of the sitemaps at once while rows are listed. */
    private static final int LIST_URLS = 20_000;
    /** How long after a listing that could not be made (sitemaps read meanwhile, the store failed) another is tried. */
    private static final long LIST_RETRY_NANOS = 1_000_000_000L;

    private final HitReader store;
    private final long budgetBytes;
    private final ExecutorService copier;
    /** The version of the sitemaps held now, as the report's pages are kept under it; null: none is said of the rows. */
    private final Supplier<String> sitemapsVersion;
    private volatile Columns held;
    /** Which of {@link #held}'s rows, and of {@link #spoofed}'s, a sitemap lists; or null. */
    private volatile Listed listed;
    private volatile Listed listedSpoofed;
    /** Whether a listing is queued or being made, and when another may be tried; guarded by this. */
    private boolean listing;
    private long listAgainAt;
    /** The spoofed error rows of {@link #held}'s snapshot (set before it), or null. */
    private volatile Columns spoofed;
    /** The snapshot being copied, or null; guarded by this. */
    private Snapshot copying;
    /** When the next copy may start ({@link System#nanoTime}); guarded by this. */
    private long restUntil;
    /** The rows of a view found too large for the bound (a copy of at least as many is not tried); guarded by this. */
    private long tooManyRows = Long.MAX_VALUE;
    private volatile long lastCopyNanos;
    /** Pages of filtered views read from lists of the held rows ({@link Columns#lists}), not from a scan of their times. */
    private final java.util.concurrent.atomic.LongAdder listedPages = new java.util.concurrent.atomic.LongAdder();
    /** Whether the report started its background counts ({@link #start}), and whether it closed; guarded by this. */
    private boolean started;
    private boolean closed;

    /**
     * @param budgetBytes the bytes the copy may take, while it is made too; 0 makes none
     * @param copier      the thread copies are made on, queued behind the count cubes' counts
     *                    ({@link KeptCubes#counter}): a copy beside them slowed serve's first counts by half
     *                    and its peak memory by 150 MiB on a 3M-hit store; its owner stops it
     */
    DefaultViewRows(HitReader store, long budgetBytes, ExecutorService copier) {
        this(store, budgetBytes, copier, () -> null);
    }

    /**
     * @param sitemapsVersion the version of the sitemaps held now ({@link SitemapVersion#token}): the held rows
     *                        answer {@code in_sitemap=} views once they are listed under the version the report's
     *                        pages are kept under
     */
    DefaultViewRows(HitReader store, long budgetBytes, ExecutorService copier, Supplier<String> sitemapsVersion) {
        this.store = store;
        this.budgetBytes = budgetBytes;
        this.copier = copier;
        this.sitemapsVersion = sitemapsVersion;
    }

    /**
     * {@code filter}'s conditions on {@code of}'s rows ({@link Columns#filter}): for a view that asks whether a
     * sitemap lists its rows, once {@code of}'s rows are listed under the sitemaps held now; until then null (the
     * store answers), and the listing is queued.
     */
    private RowFilter rowsOf(Columns of, HitFilter filter) {
        if (filter.inSitemap() == null) {
            return of.filter(filter, null);
        }
        String version = sitemapsVersion.get();
        if (version == null) {
            return null;
        }
        Listed rows = of == spoofed ? listedSpoofed : listed;
        if (rows != null && rows.of() == of && rows.version().equals(version)) {
            return of.filter(filter, rows);
        }
        startListing(version);
        return null;
    }

    /** Queues a listing of the held rows under the sitemaps held now, unless one is queued or the held rows are listed under {@code version}. */
    private synchronized void startListing(String version) {
        Listed rows = listed;
        if (listing || closed || copier.isShutdown() || System.nanoTime() - listAgainAt < 0 || held == null
                || (rows != null && rows.of() == held && rows.version().equals(version))) {
            return;
        }
        listing = true;
        try {
            copier.execute(this::list);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            listing = false; // closed meanwhile
        }
    }

    /**
     * Lists the held rows (and the spoofed ones) under the sitemaps held now (the report's pages take it once their
     * version, asked at most once a second, says the same); not when the sitemaps are read again meanwhile.
     */
    private void list() {
        Listed made = null;
        Listed madeSpoofed = null;
        Columns columns = held;
        Columns spoofedRows = spoofed;
        try {
            String version = SitemapVersion.of(store.sitemaps());
            if (columns != null) {
                made = listed(columns, version);
                madeSpoofed = spoofedRows == null ? null : listed(spoofedRows, version);
                if (!version.equals(SitemapVersion.of(store.sitemaps()))) {
                    made = null; // read again meanwhile: listed again at once
                    madeSpoofed = null;
                }
            }
        } catch (RuntimeException e) {
            made = null; // the store failed: the pages are read from it, which says so
            madeSpoofed = null;
        } finally {
            synchronized (this) {
                listing = false;
                if (made != null && held == columns) {
                    listedSpoofed = madeSpoofed;
                    listed = made;
                } else {
                    listAgainAt = System.nanoTime() + LIST_RETRY_NANOS;
                }
            }
        }
    }

    /**
     * Which of {@code columns}' rows a sitemap lists, asked of the store's sitemaps URL by URL as a page's rows are
     * ({@link dev.crawlerrors.store.SitemapStore#listed}: by host in any case and target, or by target where a row
     * has no host); without bits when a row has no URL (the store's answer for it is its own) or they outgrow the bound.
     */
    private Listed listed(Columns columns, String version) {
        long[] bits = new long[(columns.size() + 63) >>> 6];
        int urls = columns.urlTexts().size();
        if (columns.urlStarts().get(urls) != columns.size() || columns.bytes() + 8L * bits.length > budgetBytes) {
            return new Listed(columns, version, null);
        }
        if (SitemapVersion.NONE.equals(version)) {
            return new Listed(columns, version, bits);
        }
        Map<SitemapUrl, Boolean> asked = new HashMap<>();
        for (int from = 0; from < urls; from += LIST_URLS) {
            int to = Math.min(urls, from + LIST_URLS);
            asked.clear();
            for (int u = from; u < to; u++) {
                String url = columns.urlTexts().text(u);
                String last = null;
                for (int k = (int) columns.urlStarts().get(u), end = (int) columns.urlStarts().get(u + 1); k < end; k++) {
                    String host = hostOf(columns, (int) columns.urlRows().get(k));
                    if (k == columns.urlStarts().get(u) || !host.equals(last)) {
                        asked.putIfAbsent(new SitemapUrl(host, url), Boolean.FALSE);
                        last = host;
                    }
                }
            }
            Set<SitemapUrl> found = store.sitemaps().listed(asked.keySet());
            if (found.isEmpty()) {
                continue;
            }
            for (int u = from; u < to; u++) {
                String url = columns.urlTexts().text(u);
                for (int k = (int) columns.urlStarts().get(u), end = (int) columns.urlStarts().get(u + 1); k < end; k++) {
                    int i = (int) columns.urlRows().get(k);
                    if (found.contains(new SitemapUrl(hostOf(columns, i), url))) {
                        bits[i >>> 6] |= 1L << i;
                    }
                }
            }
        }
        return new Listed(columns, version, bits);
    }

    /** Row {@code i}'s host as a sitemap's URL is matched to it ({@link ReportRow#sitemapKey}): empty for none. */
    private static String hostOf(Columns columns, int i) {
        String host = columns.kindTable()[(int) columns.kinds().get(i)].host();
        return host == null ? "" : host;
    }

    /**
     * The rows of page {@code page} (from 1) of {@code filter}'s view at {@code at}, whose counts are
     * {@code counts}, from memory; or null when the copy cannot answer it, the caller then reads the
     * store. When {@code filter} is the default view, {@code at} the newest snapshot and the copy holds
     * another, a copy of it is started (once {@link #start started}).
     */
    List<StoredHit> page(HitFilter filter, Snapshot at, MinuteCounts counts, int page, boolean newest) {
        if (budgetBytes <= 0) {
            return null;
        }
        boolean plain = HitFilter.ERRORS.equals(filter);
        Columns columns = held;
        if (columns != null && columns.at().equals(at)) {
            if (plain && columns.size() == counts.total()) {
                long from = Paging.offset(page);
                int to = (int) Math.min(columns.size(), from + Paging.PAGE_SIZE);
                List<StoredHit> rows = new ArrayList<>(Math.max(0, to - (int) Math.min(from, to)));
                for (int i = (int) Math.min(from, to); i < to; i++) {
                    rows.add(columns.hit(i));
                }
                return rows;
            }
            if (!plain) {
                Columns of = partOfDefault(filter) ? columns : spoofedOf(at);
                RowFilter rows = of == null ? null : rowsOf(of, filter);
                if (rows != null) {
                    MinuteCounts.Range range = counts.locate(Paging.offset(page), Paging.PAGE_SIZE);
                    return range == null ? List.of() : of.rows(rows, range.fromMillis(), range.toMillis(), range.skip(), Paging.PAGE_SIZE, listedPages);
                }
            }
        }
        if (newest && plain) {
            startCopy(at, counts);
        }
        return null;
    }

    /**
     * The minute counts of {@code filter}'s view at {@code at} from the held rows, or null when they cannot
     * say them (another snapshot, none held, a view with rows outside the default one).
     */
    MinuteCounts minuteCounts(HitFilter filter, Snapshot at) {
        Columns columns = held;
        if (budgetBytes <= 0 || columns == null || !columns.at().equals(at)) {
            return null;
        }
        Columns of = partOfDefault(filter) ? columns : spoofedOf(at);
        RowFilter rows = of == null ? null : rowsOf(of, filter);
        return rows == null ? null : of.minuteCounts(rows);
    }

    /**
     * The error hits of {@code filter}'s view of every verdict at {@code at}, counted as {@link ErrorCounts#counting}
     * counts them, from the held rows (the default view's and its spoofed ones); or null when they cannot say them
     * (another snapshot, none held, a view with error rows outside them), or would read more than {@code maxRows}
     * rows to say them. Its counts by time hold the error hits (of every error status, as the store's) only: the
     * caller adds the others.
     */
    ErrorCounts errorCounts(HitFilter filter, Snapshot at, long bucketMillis, long maxRows) {
        Columns columns = held;
        Columns spoofedRows = spoofedOf(at);
        if (budgetBytes <= 0 || columns == null || !columns.at().equals(at) || spoofedRows == null) {
            return null;
        }
        // the view's error rows of each verdict, and those of every error status (its counts by time)
        HitFilter shownVerdicts = filter.withVerifications(java.util.EnumSet.of(Verification.verified, Verification.unverified));
        HitFilter spoofedVerdict = filter.withVerifications(java.util.EnumSet.of(Verification.spoofed));
        RowFilter shown = rowsOf(columns, shownVerdicts);
        RowFilter left = rowsOf(spoofedRows, spoofedVerdict);
        RowFilter shownAll = rowsOf(columns, shownVerdicts.withStatuses(List.of(StatusRange.ERRORS)));
        RowFilter leftAll = rowsOf(spoofedRows, spoofedVerdict.withStatuses(List.of(StatusRange.ERRORS)));
        if (shown == null || left == null || shownAll == null || leftAll == null
                || columns.tallied(shownAll) + spoofedRows.tallied(leftAll) > maxRows) {
            return null;
        }
        ErrorCounts counts = new ErrorCounts();
        columns.tally(shownAll, shown.kinds(), counts, bucketMillis);
        spoofedRows.tally(leftAll, left.kinds(), counts, bucketMillis);
        return counts;
    }

    /** The spoofed error rows held of {@code at}, or null. */
    private Columns spoofedOf(Snapshot at) {
        Columns columns = spoofed;
        return columns != null && columns.at().equals(at) ? columns : null;
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
        spoofed = null;
        listed = null;
        listedSpoofed = null;
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
        Columns madeSpoofed = null;
        Copy copy = null;
        try {
            copy = new Copy(at, (int) counts.total(), budgetBytes, HELD_VERDICTS);
            store.forEach(HitFilter.ERRORS, at, counts, copy::add);
            made = copy.columns();
            if (made != null) {
                madeSpoofed = copySpoofed(at, budgetBytes - made.bytes());
            }
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
                    spoofed = madeSpoofed;
                    held = made;
                    lastCopyNanos = took;
                    String version = sitemapsVersion.get();
                    if (version != null && !SitemapVersion.NONE.equals(version)) {
                        startListing(version); // in_sitemap= views of the new rows, ready before they are asked
                    }
                } else if (copy != null && copy.tooBig) {
                    tooManyRows = counts.total();
                }
            }
        }
    }


    /**
     * The spoofed error rows of {@code at} (the default view's left out: some 0.1-1% of a log's error hits), in
     * {@code budget} bytes, or null when they do not fit or the store fails: their views are then read from it.
     */
    private Columns copySpoofed(Snapshot at, long budget) {
        try {
            MinuteCounts counts = store.minuteCounts(SPOOFED, at);
            if (counts.total() * ROW_BYTES > budget || counts.total() > Integer.MAX_VALUE - 8) {
                return null;
            }
            Copy copy = new Copy(at, (int) counts.total(), budget, SPOOFED_VERDICT);
            store.forEach(SPOOFED, at, counts, copy::add);
            return copy.columns();
        } catch (RuntimeException e) {
            return null; // Abandoned (past the bound, or disagreeing with its counts), or the store failed
        }
    }

    /** A copy being made, row after row in the view's order. */
    private static final class Copy {
        private final Snapshot at;
        private final int size;
        private final long budget;
        private final Set<String> verdicts;
        private final PackedLongs.Builder ids;
        private final PackedLongs.Builder times;
        private final PackedLongs.Builder urls;
        private final PackedLongs.Builder ips;
        private final PackedLongs.Builder kinds;
        private final PackedLongs.Builder durations;
        private final UrlDictionary.Builder urlSet = new UrlDictionary.Builder();
        private long urlSetBytes;
        private final Map<String, Integer> ipNumbers = new HashMap<>();
        private final Map<Kind, Integer> kindNumbers = new HashMap<>();
        private final List<String> ipTexts = new ArrayList<>();
        private final List<Kind> kindTable = new ArrayList<>();
        private double[] odd = new double[16];
        private int oddSize;
        private int rows;
        private long lastMillis = Long.MAX_VALUE;
        private long bytes;
        boolean tooBig;

        Copy(Snapshot at, int size, long budget, Set<String> verdicts) {
            this.at = at;
            this.size = size;
            this.budget = budget;
            this.verdicts = verdicts;
            this.ids = new PackedLongs.Builder(size);
            this.times = new PackedLongs.Builder(size);
            this.urls = new PackedLongs.Builder(size);
            this.ips = new PackedLongs.Builder(size);
            this.kinds = new PackedLongs.Builder(size);
            this.durations = new PackedLongs.Builder(size);
            grow(6L * (8L * Math.min(size, BLOCK_ROWS) + 33L * ((size >>> BLOCK_BITS) + 1))); // the staging blocks and the blocks' headers
        }

        void add(StoredHit hit) {
            if (rows == size) {
                throw new Abandoned(); // more rows than counted
            }
            if (hit.epochMillis() > lastMillis) {
                throw new Abandoned(); // not newest first: the pages are read from the store
            }
            lastMillis = hit.epochMillis();
            rows++;
            // a number plus its place in the block: the numbers of rows stored in time order, one less each, vary little
            grow(ids.add(hit.id() + ((rows - 1) & (BLOCK_ROWS - 1))) + times.add(hit.epochMillis()));
            if (hit.url() == null) {
                grow(urls.add(-1));
            } else {
                int url = urlSet.number(hit.url());
                if (url < 0) {
                    throw new Abandoned(); // a URL no dictionary holds: the pages are read from the store
                }
                grow(urls.add(url));
                if ((rows & 1023) == 0) {
                    long now = urlSet.bytes();
                    grow(now - urlSetBytes);
                    urlSetBytes = now;
                }
            }
            grow(ips.add(text(hit.ip(), ipNumbers, ipTexts)));
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
            grow(kinds.add(number) + durations.add(duration(hit.durationMs())));
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

        void grow(long more) {
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
            long flushed = ids.flush() + times.flush() + urls.flush() + ips.flush() + kinds.flush() + durations.flush();
            grow(flushed);
            long now = urlSet.bytes();
            grow(now - urlSetBytes);
            int distinct = urlSet.size();
            int[] ranks = new int[distinct];
            grow(8L * distinct); // the ranks and the sort's order
            long tableBytes = urlSet.tableBytes();
            UrlDictionary dictionary = urlSet.sorted(ranks, this::grow); // drops the set's table first, then its chunks and places
            grow(tableBytes - now);
            PackedLongs urlColumn = urls.packed();
            long[] values = new long[BLOCK_ROWS];
            for (int b = 0; b * (long) BLOCK_ROWS < size; b++) {
                int n = (int) Math.min(BLOCK_ROWS, size - (long) b * BLOCK_ROWS);
                urlColumn.unpack(b, values, n);
                for (int k = 0; k < n; k++) {
                    values[k] = values[k] < 0 ? -1 : ranks[(int) values[k]];
                }
                urlColumn.repack(b, values, n);
            }
            ranks = null;
            grow(-8L * distinct);
            // the rows of each URL, by its number (a URL prefix's rows are one range of them): a counting sort
            int[] starts = new int[distinct + 1];
            grow(4L * (distinct + 1));
            int withUrl = 0;
            for (int i = 0; i < size; i++) {
                long url = urlColumn.get(i);
                if (url >= 0) {
                    starts[(int) url + 1]++;
                    withUrl++;
                }
            }
            for (int u = 0; u < distinct; u++) {
                starts[u + 1] += starts[u];
            }
            int[] rowsByUrl = new int[withUrl];
            grow(4L * withUrl);
            for (int i = 0; i < size; i++) {
                long url = urlColumn.get(i);
                if (url >= 0) {
                    rowsByUrl[starts[(int) url]++] = i;
                }
            }
            for (int u = distinct; u > 0; u--) {
                starts[u] = starts[u - 1];
            }
            starts[0] = 0;
            PackedLongs.Builder rowColumn = new PackedLongs.Builder(withUrl);
            for (int row : rowsByUrl) {
                grow(rowColumn.add(row));
            }
            grow(rowColumn.flush());
            rowsByUrl = null;
            grow(-4L * withUrl);
            PackedLongs.Builder startColumn = new PackedLongs.Builder(distinct + 1);
            for (int start : starts) {
                grow(startColumn.add(start));
            }
            grow(startColumn.flush());
            starts = null;
            grow(-4L * (distinct + 1));
            PackedLongs urlRows = rowColumn.packed();
            PackedLongs urlStarts = startColumn.packed();
            PackedLongs idColumn = ids.packed();
            PackedLongs timeColumn = times.packed();
            PackedLongs ipColumn = ips.packed();
            PackedLongs kindColumn = kinds.packed();
            // the rows of each kind of at most a KIND_LIST_SHARE-th of them, by kind (a rare status's views read its rows, not a scan)
            int kindCount = kindTable.size();
            int[] kindStarts = new int[kindCount + 1];
            boolean[] kindListed = new boolean[kindCount];
            grow(5L * kindCount + 4);
            for (int b = 0; b * (long) BLOCK_ROWS < size; b++) {
                int n = (int) Math.min(BLOCK_ROWS, size - (long) b * BLOCK_ROWS);
                kindColumn.unpack(b, values, n);
                for (int k = 0; k < n; k++) {
                    kindStarts[(int) values[k] + 1]++;
                }
            }
            int listedRows = 0;
            for (int k = 0; k < kindCount; k++) {
                kindListed[k] = kindStarts[k + 1] <= size / KIND_LIST_SHARE;
                int rowsOfKind = kindListed[k] ? kindStarts[k + 1] : 0;
                kindStarts[k + 1] = kindStarts[k] + rowsOfKind;
                listedRows += rowsOfKind;
            }
            int[] rowsByKind = new int[listedRows];
            grow(4L * listedRows);
            int[] placeOfKind = Arrays.copyOf(kindStarts, kindCount);
            grow(4L * kindCount);
            for (int b = 0; b * (long) BLOCK_ROWS < size; b++) {
                int n = (int) Math.min(BLOCK_ROWS, size - (long) b * BLOCK_ROWS);
                kindColumn.unpack(b, values, n);
                for (int k = 0; k < n; k++) {
                    int kind = (int) values[k];
                    if (kindListed[kind]) {
                        rowsByKind[placeOfKind[kind]++] = b * BLOCK_ROWS + k;
                    }
                }
            }
            placeOfKind = null;
            grow(-4L * kindCount);
            PackedLongs.Builder kindRowColumn = new PackedLongs.Builder(listedRows);
            for (int row : rowsByKind) {
                grow(kindRowColumn.add(row));
            }
            grow(kindRowColumn.flush());
            rowsByKind = null;
            grow(-4L * listedRows);
            PackedLongs kindRows = kindRowColumn.packed();
            PackedLongs durationColumn = durations.packed();
            long held = idColumn.bytes() + timeColumn.bytes() + urlColumn.bytes() + ipColumn.bytes() + kindColumn.bytes() + durationColumn.bytes()
                    + urlRows.bytes() + urlStarts.bytes() + kindRows.bytes() + 5L * kindCount + 4
                    + dictionary.bytes() + (long) ipTexts.size() * TEXT_BYTES + (long) kindTable.size() * KIND_BYTES + 8L * oddSize;
            for (String ip : ipTexts) {
                held += length(ip);
            }
            return new Columns(at, size, idColumn, timeColumn, urlColumn, ipColumn, kindColumn, durationColumn, dictionary,
                    ipTexts.toArray(String[]::new), kindTable.toArray(Kind[]::new), Arrays.copyOf(odd, oddSize), urlRows, urlStarts, held, verdicts,
                    kindRows, kindStarts, kindListed);
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
        Columns spoofedRows = spoofed;
        Listed rows = listed;
        Listed spoofedListed = listedSpoofed;
        return (columns == null ? 0 : columns.bytes()) + (spoofedRows == null || columns == null ? 0 : spoofedRows.bytes())
                + bitsBytes(rows) + bitsBytes(spoofedListed);
    }

    private static long bitsBytes(Listed listed) {
        return listed == null || listed.bits() == null ? 0 : 8L * listed.bits().length;
    }

    /** The version of the sitemaps the held rows are listed under ({@link SitemapVersion}), or null, for tests. */
    String listedVersion() {
        Listed rows = listed;
        return rows == null || rows.of() != held ? null : rows.version();
    }

    /** Pages of filtered views read from lists of the held rows (a deep prefix's URLs, a rare kind's rows) since the start, for metrics and tests. */
    long listedPages() {
        return listedPages.sum();
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
