package dev.crawlerrors.report;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.MinuteCell;
import dev.crawlerrors.store.MinuteCounts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Every hit of a snapshot counted by minute, status, bot type, crawler and verdict: a view filtered
 * by any of those (and whole minutes, cut by {@link MinuteCounts#within}) is a sum of its cells in
 * memory, without the store. A cube counted by URL has each hit's host and URL head too, and so
 * answers a host and those URL prefixes its heads decide ({@link UrlPrefix}); a cube counted by
 * sitemap has whether a sitemap lists each hit's URL, and so answers {@code in_sitemap}. Immutable: hits that
 * arrive make a new cube sharing the cells they do not touch, so readers never wait for an update.
 *
 * <p>Memory: 8 bytes a cell (a minute and a count, each an int) and some 100 bytes for each
 * combination of status, type, crawler and verdict; {@link #bytes()} says it, and the keeper drops a
 * cube past its bound.
 */
final class CountCube {

    /** A combination of the dimensions other than the minute. */
    record Combo(int status, String botType, String crawler, String verification, String host, String urlHead, Boolean listed) {
    }

    /** A combination's minutes, oldest first, and their hits. */
    private record Cells(int[] minutes, int[] counts) {
    }

    static final CountCube EMPTY = new CountCube(Map.of(), 0, false, false);
    static final CountCube EMPTY_BY_URL = new CountCube(Map.of(), 0, true, false);
    static final CountCube EMPTY_BY_SITEMAP = new CountCube(Map.of(), 0, false, true);
    private static final long COMBO_BYTES = 100;
    /** Spans of minutes summed in one array (8 MiB, two years): wider ones are merged run by run. */
    static final long DENSE_MINUTES = 1 << 20;

    private final Map<Combo, Cells> combos;
    private final long cells;
    private final boolean byUrl;
    private final boolean bySitemap;
    /** The combinations by URL head, made when a view with a URL prefix first asks (a race makes it twice, the same). */
    private volatile Map<String, List<Map.Entry<Combo, Cells>>> byHead;

    private CountCube(Map<Combo, Cells> combos, long cells, boolean byUrl, boolean bySitemap) {
        this.combos = combos;
        this.cells = cells;
        this.byUrl = byUrl;
        this.bySitemap = bySitemap;
    }

    /**
     * Whether a cube may answer {@code filter}: statuses, bot types, crawlers and verdicts over all
     * time; a cube {@code byUrl} only those with a host or a URL prefix too (the other cube answers the rest),
     * a cube {@code bySitemap} only those with {@code in_sitemap} and without a host or a URL prefix.
     */
    static boolean answers(HitFilter filter, boolean byUrl, boolean bySitemap) {
        boolean kept = filter.from() == null && filter.to() == null && filter.urlPattern() == null;
        boolean url = filter.urlPrefix() != null || filter.host() != null;
        boolean sitemap = filter.inSitemap() != null;
        return kept && sitemap == bySitemap && url == byUrl && !(url && sitemap);
    }

    /**
     * The view's minute counts: the cells {@code filter} matches, summed minute by minute ({@link #answers}
     * it must); null when its URL prefix goes deeper than the heads of hits it matches (the store counts it).
     */
    MinuteCounts counts(HitFilter filter) {
        if (!answers(filter, byUrl, bySitemap)) {
            throw new IllegalArgumentException("this count cube does not answer a filter of " + (byUrl ? "no URL or host" : "URLs or hosts")
                    + (bySitemap ? ", of no sitemap" : ", of sitemaps") + ", or of times");
        }
        Matcher matcher = new Matcher(filter);
        List<Cells> matched = new ArrayList<>();
        for (Map.Entry<Combo, Cells> entry : entries(filter.urlPrefix())) {
            if (matcher.matches(entry.getKey())) {
                UrlPrefix.Match match = UrlPrefix.match(filter.urlPrefix(), entry.getKey().urlHead());
                if (match == UrlPrefix.Match.UNKNOWN) {
                    return null;
                }
                if (match == UrlPrefix.Match.ALL) {
                    matched.add(entry.getValue());
                }
            }
        }
        if (matched.isEmpty()) {
            return MinuteCounts.NONE;
        }
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (Cells cells : matched) {
            first = Math.min(first, cells.minutes()[0]);
            last = Math.max(last, cells.minutes()[cells.minutes().length - 1]);
        }
        return last - first < DENSE_MINUTES ? dense(matched, (int) first, (int) (last - first + 1)) : merged(matched);
    }

    /**
     * The error counts of {@code filter}'s view of every verdict over minutes {@code fromMinute} to {@code toMinute - 1}, as
     * {@link ErrorCounts#counting} counts them of the store but for durations (the cube has none; the summary above a page
     * shows none): the view's hits by crawler, bot type, verdict and status, and those of every error status by time bucket
     * ({@code bucketMillis}, whole minutes, from the epoch), status and verdict. Null when its URL prefix goes deeper than the
     * heads of hits it matches, or when it would sum more than {@code maxCells} cells (a view of many minutes: its counts are
     * kept instead, {@link KeptCounts}). {@code filter} is over all time ({@link #answers} it must; its verdicts are not asked).
     */
    ErrorCounts errorCounts(HitFilter filter, long fromMinute, long toMinute, long bucketMillis, long maxCells) {
        if (!answers(filter, byUrl, bySitemap) || bucketMillis % MINUTE_MILLIS != 0) {
            throw new IllegalArgumentException("not a view this count cube answers, or buckets of part of a minute");
        }
        HitFilter everyVerdict = ErrorCounts.key(filter);
        Matcher shown = new Matcher(everyVerdict);
        Matcher errors = new Matcher(everyVerdict.withStatuses(List.of(dev.crawlerrors.store.StatusRange.ERRORS)));
        // the combinations the view and its timeline read, and their cells of its minutes: first how many
        List<Combo> read = new ArrayList<>();
        List<int[]> ranges = new ArrayList<>();
        long total = 0;
        for (Map.Entry<Combo, Cells> entry : entries(filter.urlPrefix())) {
            Combo combo = entry.getKey();
            boolean inView = shown.matches(combo);
            boolean inTime = errors.matches(combo);
            if (!inView && !inTime) {
                continue;
            }
            UrlPrefix.Match match = UrlPrefix.match(filter.urlPrefix(), combo.urlHead());
            if (match == UrlPrefix.Match.UNKNOWN) {
                return null;
            }
            if (match == UrlPrefix.Match.NONE) {
                continue;
            }
            int[] minutes = entry.getValue().minutes();
            int from = firstAtOrAfter(minutes, fromMinute);
            int to = firstAtOrAfter(minutes, toMinute);
            total += to - from;
            if (total > maxCells) {
                return null;
            }
            if (to > from) {
                read.add(combo);
                ranges.add(new int[] {from, to, inView ? 1 : 0, inTime ? 1 : 0});
            }
        }
        long bucketMinutes = bucketMillis / MINUTE_MILLIS;
        ErrorCounts out = new ErrorCounts();
        for (int c = 0; c < read.size(); c++) {
            Combo combo = read.get(c);
            int[] range = ranges.get(c);
            boolean inTime = range[3] == 1;
            Cells cells = combos.get(combo);
            int[] minutes = cells.minutes();
            int[] counts = cells.counts();
            long hits = 0;
            long bucket = Long.MIN_VALUE;
            long inBucket = 0;
            for (int i = range[0]; i < range[1]; i++) {
                hits += counts[i];
                if (inTime) {
                    long start = Math.floorDiv(minutes[i], bucketMinutes) * bucketMinutes;
                    if (start != bucket) {
                        addTime(out, combo, bucket, inBucket);
                        bucket = start;
                        inBucket = 0;
                    }
                    inBucket += counts[i];
                }
            }
            if (inTime) {
                addTime(out, combo, bucket, inBucket);
            }
            if (range[2] == 1) {
                out.byCrawler.merge(new ErrorCounts.CrawlerKey(combo.crawler(), combo.botType(), combo.verification(), combo.status()), hits,
                        Long::sum);
            }
        }
        return out;
    }

    private static final long MINUTE_MILLIS = 60_000;

    private static void addTime(ErrorCounts out, Combo combo, long bucketMinute, long hits) {
        if (hits > 0) {
            out.byTime.merge(new ErrorCounts.TimeKey(bucketMinute * MINUTE_MILLIS, combo.status(), combo.verification()), hits, Long::sum);
        }
    }

    /** The index of the first of {@code minutes} (oldest first) at or after {@code minute}; their length when none is. */
    private static int firstAtOrAfter(int[] minutes, long minute) {
        int lo = 0;
        int hi = minutes.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (minutes[mid] < minute) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The runs summed into one array of every minute from {@code first}: the common case, a few years of minutes at most. */
    private static MinuteCounts dense(List<Cells> matched, int first, int span) {
        long[] sum = new long[span];
        for (Cells cells : matched) {
            for (int i = 0; i < cells.minutes().length; i++) {
                sum[cells.minutes()[i] - first] += cells.counts()[i];
            }
        }
        return MinuteCounts.dense(first, sum);
    }

    /** The runs merged pairwise: each cell is moved about log2(runs) times, whatever the minutes' span. */
    private static MinuteCounts merged(List<Cells> matched) {
        while (matched.size() > 1) {
            List<Cells> merged = new ArrayList<>((matched.size() + 1) / 2);
            for (int i = 0; i + 1 < matched.size(); i += 2) {
                merged.add(merge(matched.get(i), matched.get(i + 1)));
            }
            if (matched.size() % 2 == 1) {
                merged.add(matched.get(matched.size() - 1));
            }
            matched = merged;
        }
        Cells sum = matched.get(0);
        long[] minutes = new long[sum.minutes().length];
        long[] counts = new long[minutes.length];
        for (int i = 0; i < minutes.length; i++) {
            minutes[i] = sum.minutes()[i];
            counts[i] = sum.counts()[i];
        }
        return MinuteCounts.of(minutes, counts);
    }

    /** This cube with {@code added} counted in (cells of hits that arrived since; any order). */
    CountCube plus(List<MinuteCell> added) {
        if (added.isEmpty()) {
            return this;
        }
        Map<Combo, List<MinuteCell>> byCombo = added.stream().collect(Collectors.groupingBy(
                cell -> new Combo(cell.status(), cell.botType(), cell.crawler(), cell.verification(), cell.host(), cell.urlHead(),
                        cell.listed())));
        Map<Combo, Cells> next = new HashMap<>(combos);
        long total = cells;
        for (Map.Entry<Combo, List<MinuteCell>> entry : byCombo.entrySet()) {
            List<MinuteCell> list = new ArrayList<>(entry.getValue());
            list.sort((a, b) -> Long.compare(a.minute(), b.minute()));
            int[] minutes = new int[list.size()];
            int[] counts = new int[list.size()];
            int n = 0;
            for (MinuteCell cell : list) {
                int minute = Math.toIntExact(cell.minute());
                if (n > 0 && minutes[n - 1] == minute) {
                    counts[n - 1] = Math.addExact(counts[n - 1], Math.toIntExact(cell.hits()));
                } else {
                    minutes[n] = minute;
                    counts[n++] = Math.toIntExact(cell.hits());
                }
            }
            Cells fresh = new Cells(Arrays.copyOf(minutes, n), Arrays.copyOf(counts, n));
            Cells before = next.get(entry.getKey());
            Cells after = before == null ? fresh : merge(before, fresh);
            total += after.minutes().length - (before == null ? 0 : before.minutes().length);
            next.put(entry.getKey(), after);
        }
        return new CountCube(Map.copyOf(next), total, byUrl, bySitemap);
    }

    /**
     * The combinations a view of URL prefix {@code prefix} may match: those of the heads that {@link UrlPrefix#match} does
     * not say none of its URLs start (a cube by URL's: a one-folder prefix is one head of many), else all of them.
     */
    private Iterable<Map.Entry<Combo, Cells>> entries(String prefix) {
        if (prefix == null || prefix.isEmpty() || !byUrl) {
            return combos.entrySet();
        }
        Map<String, List<Map.Entry<Combo, Cells>>> heads = byHead;
        if (heads == null) {
            heads = new HashMap<>();
            for (Map.Entry<Combo, Cells> entry : combos.entrySet()) {
                heads.computeIfAbsent(entry.getKey().urlHead(), head -> new ArrayList<>()).add(entry);
            }
            byHead = heads;
        }
        List<Map.Entry<Combo, Cells>> entries = new ArrayList<>();
        for (Map.Entry<String, List<Map.Entry<Combo, Cells>>> head : heads.entrySet()) {
            if (UrlPrefix.match(prefix, head.getKey()) != UrlPrefix.Match.NONE) {
                entries.addAll(head.getValue());
            }
        }
        return entries;
    }

    /** The cells kept. */
    long cells() {
        return cells;
    }

    /** The memory this cube holds, roughly. */
    long bytes() {
        return 8 * cells + COMBO_BYTES * combos.size();
    }

    /** The two runs as one, the counts of a minute in both added. */
    private static Cells merge(Cells a, Cells b) {
        int[] minutes = new int[a.minutes().length + b.minutes().length];
        int[] counts = new int[minutes.length];
        int i = 0;
        int j = 0;
        int n = 0;
        while (i < a.minutes().length || j < b.minutes().length) {
            if (j == b.minutes().length || (i < a.minutes().length && a.minutes()[i] < b.minutes()[j])) {
                minutes[n] = a.minutes()[i];
                counts[n++] = a.counts()[i++];
            } else if (i == a.minutes().length || b.minutes()[j] < a.minutes()[i]) {
                minutes[n] = b.minutes()[j];
                counts[n++] = b.counts()[j++];
            } else {
                minutes[n] = a.minutes()[i];
                counts[n++] = Math.addExact(a.counts()[i++], b.counts()[j++]);
            }
        }
        return n == minutes.length ? new Cells(minutes, counts) : new Cells(Arrays.copyOf(minutes, n), Arrays.copyOf(counts, n));
    }

    /**
     * A filter's conditions on a combination but its URL prefix, as the stores' SQL has them (a missing
     * type, crawler or host matches no list).
     */
    private static final class Matcher {
        private final KindMatch kind;
        private final Boolean listed;

        Matcher(HitFilter filter) {
            kind = new KindMatch(filter);
            listed = filter.inSitemap();
        }

        boolean matches(Combo combo) {
            return kind.matches(combo.status(), combo.botType(), combo.crawler(), combo.verification(), combo.host())
                    && (listed == null || listed.equals(combo.listed()));
        }
    }
}
