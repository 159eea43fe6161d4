package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoreLimits;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.store.UrlStateBuilder;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.duckdb.DuckDBConnection;

/**
 * Folds the hits stored since the last fold into the URLs' histories and states, on the writer's
 * thread, in one transaction: their rows of {@code url_tail} go to {@code url_log} as one run
 * sorted by URL number (so that a URL's history is read from a row group or two a run), and every
 * URL they hit has its states (the default view's in {@code url_states}, with the URL's last hit,
 * every bot type's and each crawler's in {@code url_scopes}) merged with its new hits in SQL
 * ({@link DuckDbUrlStateMerge}), which reads no history (the first fold of a store, whose log is
 * one sorted run, makes every state from it: {@link DuckDbFreshStates}). A URL whose new hits are older than its
 * kept ones, or that has hits of a claim whose verdict went to or from spoofed since, has its states
 * made again from its whole history, so a URL's states do not depend on how its hits were split
 * between folds or in what order they came: a fold killed half-way leaves the last one's, and the
 * next does its work. The URLs are made a slice of their numbers at a time, so that a fold of
 * millions holds a slice.
 */
final class DuckDbUrlFold {

    /** Runs of {@code url_log} beyond which a fold sorts it whole again: a URL's history reads a row group or two a run. */
    static final int MAX_RUNS = 8;
    /** Slices of the URLs' numbers a fold makes states for one at a time, at most. */
    static final int SLICES = 16;
    /**
     * New hits a slice of a fold holds, about. A first fold's states of 510,000 hits in one slice took DuckDB ~70 MB for
     * their windows, aggregates and appended rows at the fold's 96MB, and spilled; in four slices an import's peak RSS was
     * 277 against 286 MiB (one run each). Under an import's 64MB (see {@link DuckDbSettings#appendMemory}) the slice
     * matters little: 62,500 to 500,000 hits a slice, 245-253 MiB at the same CPU within the noise.
     */
    private static final long SLICE_HITS = 125_000;
    /** DuckDB's memory limit while the first fold makes its states, at most (see {@link #lowerMemoryLimit}). */
    static final String FRESH_STATES_MEMORY = "96MB";
    /** Hits stored before the URL states were kept, read into {@code url_tail} this many at a time. */
    private static final int OLD_HITS_CHUNK = 50_000;

    private final DuckDBConnection connection;
    private final DuckDbClaims claims;
    private final DuckDbClaimNames names;
    private final DuckDbUrlTail tail;
    /** The states of the slice of URLs being made. */
    private final DuckDbUrlStateRows made = new DuckDbUrlStateRows();
    private final DuckDbUrlStateMerge merge;
    private final DuckDbFreshStates freshStates;
    private final String memoryLimit;
    private final String appendLimit;
    private final boolean[] hidden = new boolean[DuckDbUrlTail.BOT_TYPES.length];

    /**
     * {@code memoryLimit}: DuckDB's memory limit as the store set it ({@code 192MB}), which a fold that merges takes;
     * {@code appendLimit}: the one kept between folds ({@link DuckDbSettings#appendLimit()}: {@code 64MB} for an import),
     * which the first fold keeps (or lowers, for its states) and every fold sets back.
     */
    DuckDbUrlFold(DuckDBConnection connection, DuckDbClaims claims, DuckDbClaimNames names, DuckDbUrlTail tail, String memoryLimit,
            String appendLimit) throws SQLException {
        this.connection = connection;
        this.memoryLimit = memoryLimit;
        this.appendLimit = appendLimit;
        this.claims = claims;
        this.names = names;
        this.tail = tail;
        this.merge = new DuckDbUrlStateMerge(connection);
        this.freshStates = new DuckDbFreshStates(connection);
        for (BotType type : BotType.hiddenByDefault()) {
            hidden[type.ordinal()] = true;
        }
    }

    /**
     * Folds the hits after {@code from} up to {@code to}, with the verdicts of {@code to}, and calls
     * {@code publish} to commit (so that readers see the states and the snapshot they are at together).
     */
    void fold(Snapshot from, Snapshot to, Runnable publish) throws SQLException {
        connection.setAutoCommit(false);
        String limit = null;
        try (Statement st = connection.createStatement()) {
            long runs = meta(st, "url_log_runs");
            long keyedFrom = meta(st, "url_keyed_from");
            if (from.hits() < keyedFrom) {
                tailOld(from.hits(), Math.min(to.hits(), keyedFrom));
            }
            int[] moved = moved(from.verdicts(), to.verdicts());
            // the new run is the whole log, in order already: no URL has a state to merge with
            boolean fresh = runs == 0 && moved.length == 0;
            boolean emptyLog = fresh && empty(st, "url_log");
            if (!fresh) {
                limit = raiseMemoryLimit(st); // until its commit
            }
            param(st, "INSERT INTO url_log SELECT * FROM url_tail WHERE i > ? AND i <= ? ORDER BY k, t, i", from, to);
            param(st, "DELETE FROM url_tail WHERE i > ? AND i <= ?", from, to);
            long firstRow = emptyLog ? firstRow(st) : -1;
            st.execute("CREATE OR REPLACE TEMPORARY TABLE fold_keys (k BIGINT)");
            int slices = (int) Math.clamp((to.hits() - from.hits()) / SLICE_HITS, 1, SLICES);
            if (fresh) {
                // no state to merge with: every state is made from the run, in SQL
                claims(from, to);
                boolean hiddenHits = freshStates.anyHidden();
                limit = lowerMemoryLimit(st);
                for (int n = 0; n < slices; n++) {
                    freshStates.make(low(n, slices), high(n, slices), hiddenHits, firstRow);
                }
                limit = restore(st, limit);
            } else {
                if (remade(st, moved, from, to)) {
                    st.execute("DELETE FROM url_states WHERE k IN (SELECT k FROM fold_keys)");
                    st.execute("DELETE FROM url_scopes WHERE k IN (SELECT k FROM fold_keys)");
                    for (int n = 0; n < SLICES; n++) {
                        makeStates(low(n, SLICES), high(n, SLICES), to.verdicts());
                    }
                }
                claims(from, to);
                for (int n = 0; n < slices; n++) {
                    merge.merge(low(n, slices), high(n, slices), from.hits(), to.hits());
                }
            }
            runs++;
            if (runs > MAX_RUNS) {
                st.execute("CREATE TABLE url_log_sorted AS SELECT * FROM url_log ORDER BY k, t, i");
                st.execute("DROP TABLE url_log");
                st.execute("ALTER TABLE url_log_sorted RENAME TO url_log");
                runs = 1;
            }
            st.execute("INSERT OR REPLACE INTO store_meta VALUES ('url_fold_hits', '" + to.hits() + "'), ('url_fold_verdicts', '"
                    + to.verdicts() + "'), ('url_log_runs', '" + runs + "')");
            publish.run();
            limit = restore(st, limit);
            st.execute("DROP TABLE IF EXISTS fold_keys");
            st.execute("DROP TABLE IF EXISTS fold_claims");
        } catch (SQLException | RuntimeException e) {
            try {
                connection.rollback();
            } catch (SQLException again) {
                e.addSuppressed(again);
            }
            try (Statement st = connection.createStatement()) {
                restore(st, limit);
            } catch (SQLException again) {
                e.addSuppressed(again);
            }
            tail.forget();
            throw e;
        } finally {
            made.clear();
            connection.setAutoCommit(true);
        }
    }

    /**
     * Lowers DuckDB's memory limit to {@link #FRESH_STATES_MEMORY} for the first fold's states, when
     * the limit kept between folds is higher, and returns the limit to set back after them (null when it
     * was left). Their windows otherwise fill the import's buffer pool, which DuckDB keeps: the import's
     * peak RSS rose by ~80 MiB. DuckDB spills to disk what a slice's states do not fit in.
     */
    private String lowerMemoryLimit(Statement st) throws SQLException {
        if (StoreLimits.bytes(appendLimit) <= StoreLimits.bytes(FRESH_STATES_MEMORY)) {
            return null;
        }
        st.execute("SET memory_limit = '" + FRESH_STATES_MEMORY + "'");
        return appendLimit;
    }

    /**
     * Raises DuckDB's memory limit to the store's for a fold that merges new hits into kept states, when
     * the limit kept between folds is lower, and returns the limit to set back after it (null when it was
     * left): its joins with the kept states of a large store did not fit an import's 64MB.
     */
    private String raiseMemoryLimit(Statement st) throws SQLException {
        if (appendLimit.equals(memoryLimit)) {
            return null;
        }
        st.execute("SET memory_limit = '" + memoryLimit + "'");
        return appendLimit;
    }

    /** Sets DuckDB's memory limit back to {@code limit} (none when null); null, for the limit left to set back. */
    private static String restore(Statement st, String limit) throws SQLException {
        if (limit != null) {
            st.execute("SET memory_limit = '" + limit + "'");
        }
        return null;
    }

    private static long meta(Statement st, String key) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT coalesce((SELECT value::BIGINT FROM store_meta WHERE key = '" + key + "'), 0)")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The id of {@code url_log}'s first row (a row of this transaction's has one far above the stored rows'). */
    private static long firstRow(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT coalesce(min(rowid), 0) FROM url_log")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static boolean empty(Statement st, String table) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT NOT EXISTS (SELECT 1 FROM " + table + ")")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    private void param(Statement st, String sql, Snapshot from, Snapshot to) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setLong(1, from.hits());
            ps.setLong(2, to.hits());
            ps.execute();
        }
    }

    /** The hits stored before the URL states were kept, from {@code after} to {@code through}, into {@code url_tail}. */
    private void tailOld(long after, long through) throws SQLException {
        for (long low = after; low < through; low += OLD_HITS_CHUNK) {
            try (PreparedStatement ps = connection.prepareStatement("SELECT h.id, epoch_ms(h.ts), h.status, h.claim_id, h.bot_type,"
                    + " coalesce(h.host, ''), h.url FROM hits h WHERE h.id > ? AND h.id <= ? ORDER BY h.id")) {
                ps.setLong(1, low);
                ps.setLong(2, Math.min(through, low + OLD_HITS_CHUNK));
                // read whole before it is written: one connection runs one statement at a time
                java.util.List<Object[]> rows = new java.util.ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new Object[] {rs.getLong(1), rs.getLong(2), rs.getInt(3), rs.getInt(4), rs.getString(5), rs.getString(6),
                            rs.getString(7)});
                    }
                }
                tail.writeOld(rows);
            }
        }
    }

    /** The claims whose verdict went to or from spoofed between two verdict versions: their hits move in or out of the kept states. */
    int[] moved(long from, long to) {
        if (from == to) {
            return new int[0];
        }
        long low = Math.min(from, to);
        long high = Math.max(from, to);
        return Arrays.stream(claims.changedBetween(low, high)).filter(claim -> spoofed(claim, low) != spoofed(claim, high)).toArray();
    }

    private boolean spoofed(int claim, long version) {
        return claims.verdict(claim, version).verification() == Verification.spoofed;
    }

    private static long low(int slice, int slices) {
        return slice * (Long.MAX_VALUE / slices + 1);
    }

    private static long high(int slice, int slices) {
        return slice == slices - 1 ? Long.MAX_VALUE : low(slice + 1, slices);
    }

    /**
     * Puts into {@code fold_keys} the URLs whose states are made again from their histories: those
     * with hits of a claim whose verdict moved, with new hits older than their kept ones, or whose
     * state an older version kept (without its carry). Whether there is any.
     */
    private boolean remade(Statement st, int[] moved, Snapshot from, Snapshot to) throws SQLException {
        if (moved.length > 0) {
            try (PreparedStatement urls = connection.prepareStatement("INSERT INTO fold_keys SELECT DISTINCT k FROM url_log"
                    + " WHERE c IN (SELECT unnest(?::INTEGER[]))")) {
                urls.setArray(1, connection.createArrayOf("INTEGER", Arrays.stream(moved).boxed().toArray()));
                urls.execute();
            }
        }
        param(st, "INSERT INTO fold_keys SELECT n.k FROM (SELECT k, min(t) AS t FROM url_log WHERE i > ? AND i <= ? GROUP BY k) n"
                + " JOIN url_scopes o ON o.k = n.k AND o.scope = '" + UrlQuery.EVERY_BOT_TYPE + "'"
                + " WHERE (o.carry IS NULL OR n.t < o.last_crawled) AND n.k NOT IN (SELECT k FROM fold_keys)", from, to);
        try (ResultSet rs = st.executeQuery("SELECT count(*) > 0 FROM fold_keys")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    /**
     * Makes {@code fold_claims}: each claim of the fold's new hits, its crawler's name, whether it is
     * spoofed at the fold's verdicts, and a number for the crawler's name ({@code n}, null without one).
     */
    private void claims(Snapshot from, Snapshot to) throws SQLException {
        java.util.List<Integer> numbers = new java.util.ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement("SELECT DISTINCT coalesce(c, 0) FROM url_log WHERE i > ? AND i <= ?")) {
            ps.setLong(1, from.hits());
            ps.setLong(2, to.hits());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    numbers.add(rs.getInt(1));
                }
            }
        }
        Object[] crawlers = new Object[numbers.size()];
        Object[] spoofed = new Object[numbers.size()];
        Object[] crawlerNumbers = new Object[numbers.size()];
        // the crawlers numbered in their names' order, so that a URL's scopes ordered by number are in the names' order
        TreeMap<String, Integer> numbered = new TreeMap<>();
        for (int i = 0; i < crawlers.length; i++) {
            String crawler = names.crawler(numbers.get(i));
            crawlers[i] = crawler;
            spoofed[i] = spoofed(numbers.get(i), to.verdicts());
            if (crawler != null) {
                numbered.put(crawler, 0);
            }
        }
        int number = 0;
        for (Map.Entry<String, Integer> crawler : numbered.entrySet()) {
            crawler.setValue(++number);
        }
        for (int i = 0; i < crawlers.length; i++) {
            crawlerNumbers[i] = crawlers[i] == null ? null : numbered.get((String) crawlers[i]);
        }
        try (PreparedStatement ps = connection.prepareStatement("CREATE OR REPLACE TEMPORARY TABLE fold_claims AS SELECT"
                + " unnest(?::INTEGER[]) AS c, unnest(?::VARCHAR[]) AS crawler, unnest(?::BOOLEAN[]) AS spoofed, unnest(?::INTEGER[]) AS n")) {
            ps.setArray(1, connection.createArrayOf("INTEGER", numbers.toArray()));
            ps.setArray(2, connection.createArrayOf("VARCHAR", crawlers));
            ps.setArray(3, connection.createArrayOf("BOOLEAN", spoofed));
            ps.setArray(4, connection.createArrayOf("INTEGER", crawlerNumbers));
            ps.execute();
        }
    }

    /**
     * Makes the states of the URLs in {@code fold_keys} numbered from {@code low} to {@code high}
     * (exclusive) from their whole histories read in order, and writes them: the default scope's
     * always (none when no hit of it is one the default view shows: the row keeps the URL's last
     * hit), every bot type's, and one for each crawler.
     */
    private void makeStates(long low, long high, long version) throws SQLException {
        String sql = "SELECT l.k, l.t, l.i, l.s, l.c, l.b FROM url_log l SEMI JOIN fold_keys f ON l.k = f.k WHERE l.k >= ? AND l.k < ?"
                + " ORDER BY l.k, l.t, l.i";
        made.clear();
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setLong(1, low);
            ps.setLong(2, high);
            try (ResultSet rs = ps.executeQuery()) {
                readStates(rs, version);
            }
        }
        if (!made.isEmpty()) {
            made.write(connection); // after the read is closed: one connection runs one statement at a time
            made.clear();
        }
    }

    /** Reads histories hit by hit (each URL's together, in time order) into {@link #made}. */
    private void readStates(ResultSet rs, long version) throws SQLException {
        long key = -1;
        UrlStateBuilder every = null;
        UrlStateBuilder everyType = null;
        Map<String, UrlStateBuilder> crawlers = new LinkedHashMap<>();
        long lastId = 0;
        byte[] spoofedClaims = new byte[1024]; // 0 unknown, 1 not spoofed, 2 spoofed
        while (rs.next()) {
            long k = rs.getLong(1);
            if (k != key) {
                if (every != null) {
                    add(key, every, everyType, crawlers, lastId);
                }
                key = k;
                every = new UrlStateBuilder(k, "", "");
                everyType = new UrlStateBuilder(k, "", "");
                crawlers.clear();
                lastId = 0;
            }
            long millis = rs.getLong(2);
            lastId = Math.max(lastId, rs.getLong(3));
            int status = rs.getShort(4); // as the column is typed: getInt of a SMALLINT boxes each value
            int claim = rs.getInt(5);
            if (claim >= spoofedClaims.length) {
                spoofedClaims = Arrays.copyOf(spoofedClaims, Math.max(claim + 1, spoofedClaims.length * 2));
            }
            if (spoofedClaims[claim] == 0) {
                spoofedClaims[claim] = (byte) (spoofed(claim, version) ? 2 : 1);
            }
            if (spoofedClaims[claim] == 2) {
                continue;
            }
            String crawler = names.crawler(claim);
            if (crawler != null) {
                long k2 = k;
                crawlers.computeIfAbsent(crawler, c -> new UrlStateBuilder(k2, "", "")).add(millis, status);
            }
            everyType.add(millis, status);
            int type = rs.getShort(6);
            if (type < 0 || type >= hidden.length || !hidden[type]) {
                every.add(millis, status);
            }
        }
        if (every != null) {
            add(key, every, everyType, crawlers, lastId);
        }
    }

    private void add(long key, UrlStateBuilder every, UrlStateBuilder everyType, Map<String, UrlStateBuilder> crawlers, long lastId) {
        made.add(null, key, every.build(), every.carry(), lastId);
        if (!everyType.isEmpty()) {
            made.add(UrlQuery.EVERY_BOT_TYPE, key, everyType.build(), everyType.carry(), 0);
        }
        for (Map.Entry<String, UrlStateBuilder> crawler : crawlers.entrySet()) {
            made.add(crawler.getKey(), key, crawler.getValue().build(), crawler.getValue().carry(), 0);
        }
    }
}
