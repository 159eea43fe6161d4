package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.BreakdownCount;
import dev.crawlerrors.store.DurationBuckets;
import dev.crawlerrors.store.DurationCount;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.MinuteCell;
import dev.crawlerrors.store.TimeCount;
import dev.crawlerrors.store.UrlCount;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.duckdb.DuckDBColumnType;
import org.duckdb.DuckDBFunctions;

/**
 * The counts the patterns page, the overview and the report's summary are made of: matching hits
 * grouped by time, crawler, duration or URL, over a window of a snapshot's hits so that the report
 * can count what arrived since it last counted. No count joins the verdicts: a hit's verdict is its
 * claim's as of the snapshot ({@link DuckDbHitReader#verdict}).
 */
final class DuckDbTallies {

    private static final String FROM = " FROM hits h ";
    /**
     * {@link DurationBuckets#bucket} in SQL. Concatenated, not formatted (numbers as Java writes
     * them, whatever the locale): the store opens with its reader, and an import starts no Formatter.
     */
    private static final String DURATION_BUCKET = "CASE WHEN h.duration_ms >= " + DurationBuckets.FLOOR_MS + " THEN least("
            + DurationBuckets.LAST + ", 1 + floor(ln(h.duration_ms / " + DurationBuckets.FLOOR_MS + ") / ln(" + DurationBuckets.RATIO
            + ")))::INTEGER ELSE 0 END";

    /** Names of the functions of counts by sitemap, one per store opened in this process. */
    private static final AtomicLong FUNCTIONS = new AtomicLong();
    /** The verdicts by {@link SitemapCoder}'s code, halved. */
    private static final String[] VERDICTS = {Verification.unverified.name(), Verification.verified.name(), Verification.spoofed.name()};

    private final DuckDbQuery query;
    private final DuckDbHitReader reader;
    /** The sitemaps whose listed numbers {@link #listedHits} tests in memory ({@link DuckDbSitemaps#listing()}). */
    private final DuckDbSitemaps sitemaps;
    /** What the function of the count by sitemap running reads (one at a time); null between counts. */
    private volatile SitemapCoder coder;
    /** That function's name; null until registered. */
    private String sitemapFunction;
    /** What the function of {@link #listedHits} running tests (one at a time); null between counts. */
    private volatile ListedTest listedTest;
    /** That function's name; null until registered. */
    private String listedFunction;

    DuckDbTallies(DuckDbQuery query, DuckDbHitReader reader, DuckDbSitemaps sitemaps) {
        this.query = query;
        this.reader = reader;
        this.sitemaps = sitemaps;
    }

    /**
     * The condition of {@code filter} over {@code window}: its hits, with the verdicts it asks for as
     * of the window's snapshot (a condition on claim numbers, as the report's pages have it).
     */
    private String where(HitFilter filter, HitWindow window, List<Object> params) {
        return DuckDbFilter.where(filter, params) + DuckDbFilter.window(window, params) + " AND "
                + reader.claims(filter.effectiveVerifications(), window.snapshot());
    }

    List<TimeCount> byTime(HitFilter filter, HitWindow window, long bucketMillis) {
        List<Object> params = new ArrayList<>();
        params.add(bucketMillis);
        params.add(bucketMillis);
        String sql = "SELECT (epoch_ms(h.ts) // ?) * ?, h.status, " + reader.verdict(window.snapshot()) + ", count(*)" + FROM + "WHERE "
                + where(filter, window, params) + " GROUP BY ALL";
        return query.run(sql, params, rs -> {
            List<TimeCount> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(new TimeCount(rs.getLong(1), rs.getInt(2), rs.getString(3), rs.getLong(4)));
            }
            return rows;
        });
    }

    List<BreakdownCount> byCrawler(HitFilter filter, HitWindow window) {
        List<Object> params = new ArrayList<>();
        String sql = "SELECT h.crawler, h.bot_type, " + reader.verdict(window.snapshot()) + ", h.status, count(*)" + FROM + "WHERE "
                + where(filter, window, params) + " GROUP BY ALL";
        return query.run(sql, params, rs -> {
            List<BreakdownCount> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(new BreakdownCount(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getLong(5)));
            }
            return rows;
        });
    }

    /**
     * Every hit of {@code window} by minute, status, bot type, crawler and verdict, and when
     * {@code byUrl} by host and URL head too, streamed (see {@link MinuteCell}).
     */
    void byMinute(HitWindow window, boolean byUrl, Consumer<MinuteCell> cells) {
        List<Object> params = new ArrayList<>();
        String url = byUrl ? ", h.host, coalesce(nullif(regexp_extract(h.url, '" + MinuteCell.URL_HEAD
                + "'), ''), CASE WHEN starts_with(h.url, '/') THEN '/' ELSE '' END)" : "";
        String sql = "SELECT epoch_ms(h.ts) // 60000, h.status, h.bot_type, h.crawler, " + reader.verdict(window.snapshot()) + url
                + ", count(*)" + FROM + "WHERE " + where(MinuteCell.EVERY_HIT, window, params) + " GROUP BY ALL";
        query.run(sql, params, rs -> {
            while (rs.next()) {
                cells.accept(byUrl
                        ? new MinuteCell(rs.getLong(1), rs.getInt(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6),
                                rs.getString(7), rs.getLong(8))
                        : new MinuteCell(rs.getLong(1), rs.getInt(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getLong(6)));
            }
            return null;
        });
    }

    /**
     * Every hit of {@code window} by minute, status, bot type, crawler, verdict and whether a sitemap
     * lists its URL, streamed. The hits listed are found once, as numbers ({@link #listedHits}: the
     * URL histories' rows of a listed URL number, each tested in memory), and each hit's
     * verdict and whether it is listed are told by a function of its number and claim
     * ({@link SitemapCoder}); the cells come back packed ({@link #packedCells}). Not each hit joined
     * with the histories' numbers and its verdict asked of the claims' subqueries, cells handed over
     * with their texts: 7-9 s of 4,000,000 hits at a load of 10, minutes at 20 and more, against 1.2-1.6 s
     * ({@link #bySitemapJoined}: still the count of a window of more hits than a bit set holds, or of
     * more crawlers than a cell's number holds).
     */
    synchronized void bySitemap(HitWindow window, Consumer<MinuteCell> cells) {
        List<String[]> kinds = window.snapshot().hits() - window.afterHits() < Integer.MAX_VALUE ? crawlerKinds(window) : null;
        if (kinds == null) {
            bySitemapJoined(window, cells);
            return;
        }
        if (kinds.isEmpty()) {
            return; // no hits: no cells (and no VALUES to write)
        }
        String function = sitemapFunction();
        coder = new SitemapCoder(window.afterHits(), listedHits(window), reader.claimSet(Set.of(Verification.verified), window.snapshot()),
                reader.claimSet(Set.of(Verification.spoofed), window.snapshot()));
        try {
            packedCells(window, function, kinds, cells);
        } finally {
            coder = null;
        }
    }

    /** A cell's status in {@link #packedCells}: below this ({@link MinuteCell#EVERY_HIT}'s statuses are 0 to 999). */
    private static final int PACKED_STATUSES = 1 << 10;
    /** The (bot type, crawler) pairs {@link #packedCells} numbers: fewer than this. */
    private static final int PACKED_KINDS = 1 << 16;

    /**
     * The window's (bot type, crawler) pairs, each {@code {botType, crawler}}: few (one a crawler of
     * the catalog), read in one pass; null when there are more than {@link #packedCells} numbers.
     */
    private List<String[]> crawlerKinds(HitWindow window) {
        List<Object> params = new ArrayList<>();
        String sql = "SELECT DISTINCT h.bot_type, h.crawler" + FROM + "WHERE " + where(MinuteCell.EVERY_HIT, window, params);
        return query.run(sql, params, rs -> {
            List<String[]> kinds = new ArrayList<>();
            while (rs.next()) {
                kinds.add(new String[] {rs.getString(1), rs.getString(2)});
            }
            return kinds.size() < PACKED_KINDS ? kinds : null;
        });
    }

    /**
     * The cells of {@link #bySitemap}, each read as one number (its minute, its pair of bot type and
     * crawler by their place in {@code kinds}, its status and the function's code) and its count: a
     * million cells of two texts each took the JDBC driver seconds to hand over, this a few tenths.
     */
    private void packedCells(HitWindow window, String function, List<String[]> kinds, Consumer<MinuteCell> cells) {
        StringBuilder values = new StringBuilder();
        for (int n = 0; n < kinds.size(); n++) {
            values.append(n == 0 ? "" : ", ").append('(').append(n).append(", ").append(literal(kinds.get(n)[0])).append(", ")
                    .append(literal(kinds.get(n)[1])).append(')');
        }
        List<Object> params = new ArrayList<>();
        String sql = "SELECT (epoch_ms(h.ts) // 60000) * " + (PACKED_KINDS * PACKED_STATUSES * 8L) + " + c.n * " + (PACKED_STATUSES * 8L)
                + " + h.status * 8 + " + function + "(h.id, coalesce(h.claim_id, -1)) AS cell, count(*) FROM hits h JOIN (VALUES " + values
                + ") c(n, bot_type, crawler) ON c.bot_type = h.bot_type AND c.crawler = h.crawler WHERE " + where(MinuteCell.EVERY_HIT, window, params)
                + " GROUP BY cell";
        query.run(sql, params, rs -> {
            while (rs.next()) {
                long cell = rs.getLong(1);
                long minute = Math.floorDiv(cell, PACKED_KINDS * PACKED_STATUSES * 8L);
                long rest = Math.floorMod(cell, PACKED_KINDS * PACKED_STATUSES * 8L);
                String[] kind = kinds.get((int) (rest / (PACKED_STATUSES * 8L)));
                int status = (int) (rest % (PACKED_STATUSES * 8L) / 8);
                int code = (int) (rest % 8);
                cells.accept(MinuteCell.listed(minute, status, kind[0], kind[1], VERDICTS[code >> 1], (code & 1) == 1, rs.getLong(2)));
            }
            return null;
        });
    }

    private static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    /**
     * The hits of {@code window} whose URL a sitemap lists, as {@link DuckDbSitemaps#listed} tells
     * them (a URL history row of a listed number), by their place after the window's first hit. Each
     * history row's number is tested by a function in memory ({@link ListedTest}: the listed numbers
     * kept per read of the sitemaps, and the URLs logged under a host in capitals read now, as the
     * join reads them), and the places come back as 64-bit words of the set, not one row a hit: the
     * join of 10M history rows with the two million listed numbers made DuckDB build its hash table
     * again for each count, and the rows of a few million listed hits took the driver seconds.
     */
    private BitSet listedHits(HitWindow window) {
        long after = window.afterHits();
        long through = window.snapshot().hits();
        String function = listedFunction();
        listedTest = new ListedTest(sitemaps.listing(), capitals());
        try {
            // a word's 64 bits as two halves of 32 (a BIGINT shifted by 63 overflows), each bit kept or not by a product
            // rather than a condition: DuckDB shifts every row's argument, a filter's or a branch's rows too
            String at = "(i - " + after + " - 1)";
            String bit = "(1::BIGINT << (" + at + " % 32))";
            String sql = "SELECT " + at + " // 64 AS w, bit_or(" + bit + " * (" + at + " % 64 < 32)::BIGINT), bit_or(" + bit + " * ("
                    + at + " % 64 >= 32)::BIGINT)"
                    + " FROM (SELECT k, i FROM url_log WHERE i > ? AND i <= ? UNION ALL SELECT k, i FROM url_tail WHERE i > ? AND i <= ?)"
                    + " WHERE k IS NOT NULL AND " + function + "(k) = 1 GROUP BY w";
            return query.run(sql, List.of(after, through, after, through), rs -> {
                long[] words = new long[1024];
                int most = 0;
                while (rs.next()) {
                    int w = (int) rs.getLong(1);
                    if (w >= words.length) {
                        words = Arrays.copyOf(words, Math.max(w + 1, words.length * 2));
                    }
                    words[w] = (rs.getLong(2) & 0xFFFF_FFFFL) | (rs.getLong(3) << 32);
                    most = Math.max(most, w + 1);
                }
                return BitSet.valueOf(Arrays.copyOf(words, most));
            });
        } finally {
            listedTest = null;
        }
    }

    /** The numbers of the URLs logged under a host in capitals that a sitemap lists ({@link DuckDbSitemaps#CAPITALS}), sorted: few or none. */
    private long[] capitals() {
        // few as a rule, but as many as the sitemap's URLs where a site's log names its host in capitals
        return query.run("SELECT DISTINCT k FROM (" + DuckDbSitemaps.CAPITALS + ") WHERE k IS NOT NULL ORDER BY k", List.of(),
                DuckDbQuery::longs);
    }

    /** What {@link #listedHits}'s function tells of a history row's URL number: 1 when a sitemap lists it, as {@link DuckDbSitemaps#LISTED_NUMBERS} has them. */
    private record ListedTest(DuckDbListedNumbers kept, long[] capitals) {

        long test(long number) {
            return kept.contains(number) || capitals.length > 0 && Arrays.binarySearch(capitals, number) >= 0 ? 1 : 0;
        }
    }

    /** The name of the function {@link #listedHits} tests the numbers with, registered on first use. */
    private String listedFunction() {
        if (listedFunction == null) {
            String name = "crawl_errors_listed_" + FUNCTIONS.incrementAndGet();
            try {
                query.register(c -> DuckDBFunctions.scalarFunction().withName(name)
                        .withParameters(DuckDBColumnType.BIGINT).withReturnType(DuckDBColumnType.BIGINT)
                        .withLongFunction((long number) -> listedTest.test(number)).register(c));
            } catch (java.sql.SQLException e) {
                throw new dev.crawlerrors.store.StoreException("cannot count the hits by sitemap: " + e.getMessage(), e);
            }
            listedFunction = name;
        }
        return listedFunction;
    }

    /** The name of the function {@link #bySitemap} groups by, registered on first use (as the writer registers its table function). */
    private String sitemapFunction() {
        if (sitemapFunction == null) {
            String name = "crawl_errors_sitemap_cells_" + FUNCTIONS.incrementAndGet();
            try {
                query.register(c -> DuckDBFunctions.scalarFunction().withName(name)
                        .withParameters(DuckDBColumnType.BIGINT, DuckDBColumnType.BIGINT).withReturnType(DuckDBColumnType.BIGINT)
                        .withLongFunction((id, claim) -> coder.code(id, claim)).register(c));
            } catch (java.sql.SQLException e) {
                throw new dev.crawlerrors.store.StoreException("cannot count the hits by sitemap: " + e.getMessage(), e);
            }
            sitemapFunction = name;
        }
        return sitemapFunction;
    }

    /**
     * What {@link #bySitemap}'s function tells of a hit of its window: its verdict as the claims'
     * condition of {@link DuckDbHitReader#verdict} decides it (verified first, then spoofed; a hit
     * with no claim as {@link DuckDbClaims.ClaimSet#takes} has it), times two, plus one when its URL is listed.
     */
    private record SitemapCoder(long afterHits, BitSet listed, DuckDbClaims.ClaimSet verified, DuckDbClaims.ClaimSet spoofed) {

        long code(long id, long claim) {
            boolean none = claim < 0;
            int verdict = verified.takes((int) claim, none) ? 1 : spoofed.takes((int) claim, none) ? 2 : 0;
            long at = id - afterHits - 1; // a hit of the window: 0 and up
            return verdict * 2L + (at >= 0 && at < Integer.MAX_VALUE && listed.get((int) at) ? 1 : 0);
        }
    }

    /** As {@link #bySitemap}, every hit joined with the listed numbers and its verdict asked in SQL: where no function can be registered, and for tests. */
    void bySitemapJoined(HitWindow window, Consumer<MinuteCell> cells) {
        List<Object> params = new ArrayList<>();
        String sql = "SELECT epoch_ms(h.ts) // 60000, h.status, h.bot_type, h.crawler, " + reader.verdict(window.snapshot()) + ", "
                + DuckDbSitemaps.listed("TRUE") + ", count(*)" + FROM + "WHERE " + where(MinuteCell.EVERY_HIT, window, params) + " GROUP BY ALL";
        query.run(sql, params, rs -> {
            while (rs.next()) {
                cells.accept(MinuteCell.listed(rs.getLong(1), rs.getInt(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getBoolean(6),
                        rs.getLong(7)));
            }
            return null;
        });
    }

    List<DurationCount> byDuration(HitFilter filter, HitWindow window) {
        List<Object> params = new ArrayList<>();
        String sql = "SELECT h.status, " + reader.verdict(window.snapshot()) + ", " + DURATION_BUCKET + ", count(*)" + FROM + "WHERE "
                + where(filter, window, params)
                + " AND h.duration_ms IS NOT NULL GROUP BY ALL";
        return query.run(sql, params, rs -> {
            List<DurationCount> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(new DurationCount(rs.getInt(1), rs.getString(2), rs.getInt(3), rs.getLong(4)));
            }
            return rows;
        });
    }

    void forEachUrl(HitFilter filter, HitWindow window, Consumer<UrlCount> urls) {
        List<Object> params = new ArrayList<>();
        String sql = "SELECT h.url, h.status, h.bot_type, count(*), epoch_ms(min(h.ts)), epoch_ms(max(h.ts)),"
                + " count(h.duration_ms), count(*) FILTER (WHERE h.duration_ms >= " + DurationBuckets.SLOW_MS + "), max(h.location),"
                + " max(h.host) FILTER (WHERE h.location IS NOT NULL)"
                + " FROM hits h WHERE " + where(filter, window, params)
                + " GROUP BY h.url, h.status, h.bot_type";
        query.run(sql, params, rs -> {
            while (rs.next()) {
                urls.accept(new UrlCount(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getLong(4), rs.getLong(5),
                        rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getString(9), rs.getString(10)));
            }
            return null;
        });
    }
}
