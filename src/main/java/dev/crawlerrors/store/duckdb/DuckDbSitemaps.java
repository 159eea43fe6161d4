package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.sitemap.SitemapUrl;
import dev.crawlerrors.store.SitemapStore;
import dev.crawlerrors.store.SitemapUrlsSeen;
import dev.crawlerrors.store.SitemapWrite;
import dev.crawlerrors.store.StoreLimits;
import dev.crawlerrors.store.StoredSitemap;
import dev.crawlerrors.store.UrlKey;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.duckdb.DuckDBConnection;

/**
 * The sitemaps' URLs in the embedded store: {@code sitemap_urls} (each URL of each sitemap, by host
 * and request target) and {@code sitemap_reads} (each sitemap's newest read), replaced in one
 * transaction so a reader sees the old copy or the new one whole. On a connection of its own, as
 * a sitemap is read on a thread of its own while the writer and the report use theirs. Each URL is
 * kept with its number and its number without host ({@link UrlKey#number}), so {@code in_sitemap}
 * is a semi-join on numbers. The tables are made when missing, and an older store's URLs numbered
 * ({@link DuckDbSitemapNumbers}).
 */
final class DuckDbSitemaps implements SitemapStore, AutoCloseable {

    /**
     * The numbers of the URLs listed, as the URLs' tables number them ({@link UrlKey#number}): by
     * host and target ({@code k}), by target alone for a log without hosts ({@code any_k}), and the
     * URLs logged under a host in capitals, whose number is not that of the host as a sitemap
     * writes it (few or none: joined by name).
     */
    static final String LISTED_NUMBERS = "SELECT k FROM sitemap_urls WHERE k IS NOT NULL UNION ALL SELECT any_k FROM sitemap_urls"
            + " WHERE any_k IS NOT NULL UNION ALL " + DuckDbSitemaps.CAPITALS;

    /**
     * The numbers of the URLs logged under a host in capitals that a sitemap lists (by the host in
     * small letters): few or none, read at once (DuckDB tests the host of a dictionary once).
     */
    static final String CAPITALS = "SELECT n.k FROM url_names n JOIN sitemap_urls s ON s.host = lower(n.host) AND s.target = n.url"
            + " WHERE n.host <> lower(n.host)";

    /**
     * The condition that a hit {@code h}'s URL is listed, by host and target or by target alone where
     * the log has no host: its number among its URL's history rows ({@code url_log}, {@code url_tail})
     * of a listed number and of the statuses and times {@code rows} takes (a condition on their
     * {@code s} and {@code t}), a semi-join on numbers instead of one on a million host and target texts.
     */
    static String listed(String rows) {
        String where = " WHERE (" + rows + ") AND k IN (" + LISTED_NUMBERS + ")";
        return "h.id IN (SELECT i FROM url_log" + where + " UNION ALL SELECT i FROM url_tail" + where + ")";
    }

    private final DuckDBConnection connection;
    private final DuckDbFailures failures;
    /** Reads committed since the store opened: what the copy of the listed numbers was read at. */
    private final AtomicLong reads = new AtomicLong();
    /** The table functions reads insert their rows from: as many as reads ever ran at once. */
    private final DuckDbSitemapRows.Functions functions = new DuckDbSitemapRows.Functions();
    /** The listed numbers as of the last read asked for them; guarded by this. */
    private DuckDbListedNumbers listing;
    /** The sitemaps held as of {@link #heldAt} reads; guarded by this. */
    private List<StoredSitemap> held;
    private long heldAt = -1;
    /** DuckDB's memory limit as the store set it, and the one while a read is written (null: the same); see {@link DuckDbSettings#sitemapMemory}. */
    private final String memoryLimit;
    private final String writeMemory;
    /** Reads being written under {@link #writeMemory}; guarded by this. */
    private int lowered;

    DuckDbSitemaps(DuckDBConnection connection, DuckDbFailures failures) throws SQLException {
        this(connection, failures, null, null);
    }

    /**
     * @param memoryLimit DuckDB's memory limit as the store set it
     * @param writeMemory the limit while a read is written, when lower ({@link DuckDbSettings#sitemapMemory}); null to leave it
     */
    DuckDbSitemaps(DuckDBConnection connection, DuckDbFailures failures, String memoryLimit, String writeMemory) throws SQLException {
        this.connection = connection;
        this.failures = failures;
        this.memoryLimit = memoryLimit;
        this.writeMemory = memoryLimit != null && writeMemory != null && StoreLimits.bytes(writeMemory) < StoreLimits.bytes(memoryLimit)
                ? writeMemory : null;
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS sitemap_urls (sitemap VARCHAR NOT NULL, host VARCHAR NOT NULL, target VARCHAR NOT NULL,"
                    + " k BIGINT, any_k BIGINT)");
            st.execute("ALTER TABLE sitemap_urls ADD COLUMN IF NOT EXISTS k BIGINT");
            st.execute("ALTER TABLE sitemap_urls ADD COLUMN IF NOT EXISTS any_k BIGINT");
            st.execute("CREATE TABLE IF NOT EXISTS sitemap_reads (sitemap VARCHAR PRIMARY KEY, read_at_ms BIGINT NOT NULL, urls BIGINT NOT NULL)");
        }
        DuckDbSitemapNumbers.number(connection);
    }

    /** On a connection of its own, so the report goes on reading the last good copy while a read of minutes is written. */
    @Override
    public synchronized SitemapWrite replacing(String sitemap) {
        lowerMemory();
        try {
            return new Write(sitemap, (DuckDBConnection) connection.duplicate());
        } catch (SQLException | RuntimeException e) {
            restoreMemory();
            throw e instanceof SQLException sql ? failures.of("cannot keep the URLs of sitemap " + sitemap, sql) : (RuntimeException) e;
        }
    }

    /**
     * Lowers DuckDB's memory limit to {@link #writeMemory} for a read's rows, if the store asked it: DuckDB
     * lets go of the buffers past it, and the read's deletion, inserts and checkpoint reuse that memory
     * instead of filling the buffers up to the store's limit. A limit DuckDB cannot lower to (buffers
     * held by a query) is left as it is.
     */
    private synchronized void lowerMemory() {
        if (writeMemory == null || lowered++ > 0) {
            return;
        }
        try (Statement st = connection.createStatement()) {
            st.execute("SET memory_limit = '" + writeMemory + "'");
        } catch (SQLException e) {
            // the read is written under the store's limit
        }
    }

    /** Sets the store's memory limit back once the last read written under a lower one is done. */
    private synchronized void restoreMemory() {
        if (writeMemory == null || --lowered > 0) {
            return;
        }
        try (Statement st = connection.createStatement()) {
            st.execute("SET memory_limit = '" + memoryLimit + "'");
        } catch (SQLException e) {
            throw failures.of("cannot set DuckDB's memory limit back to " + memoryLimit, e);
        }
    }

    /** One read being written: a transaction on its own connection, the URLs inserted on a thread of their own. */
    private final class Write implements SitemapWrite {
        private final String sitemap;
        private final DuckDBConnection own;
        private final DuckDbSitemapRows rows;
        private final SitemapUrlsSeen seen = new SitemapUrlsSeen();
        private boolean committed;
        private boolean closed;

        Write(String sitemap, DuckDBConnection own) throws SQLException {
            this.sitemap = sitemap;
            this.own = own;
            try {
                rows = new DuckDbSitemapRows(sitemap, own, functions); // its function registered outside the transaction
                own.setAutoCommit(false);
                try (PreparedStatement delete = own.prepareStatement("DELETE FROM sitemap_urls WHERE sitemap = ?")) {
                    delete.setString(1, sitemap);
                    delete.execute();
                }
            } catch (SQLException | RuntimeException e) {
                own.close();
                throw e;
            }
        }

        @Override
        public boolean add(SitemapUrl url) {
            if (!seen.add(url)) {
                return false;
            }
            try {
                rows.add(url);
            } catch (SQLException e) {
                throw failures.of("cannot keep the URLs of sitemap " + sitemap, e);
            }
            return true;
        }

        @Override
        public void commit(Instant readAt) {
            try (PreparedStatement read = own.prepareStatement("INSERT OR REPLACE INTO sitemap_reads VALUES (?, ?, ?)")) {
                rows.finish();
                read.setString(1, sitemap);
                read.setLong(2, readAt.toEpochMilli());
                read.setLong(3, seen.size());
                read.execute();
                own.commit();
                committed = true;
                reads.incrementAndGet();
            } catch (SQLException e) {
                throw failures.of("cannot keep the URLs of sitemap " + sitemap, e);
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            try (own) {
                if (!committed) {
                    rows.close();
                    own.rollback();
                }
            } catch (SQLException e) {
                throw failures.of("cannot drop the unfinished read of sitemap " + sitemap, e);
            } finally {
                restoreMemory();
            }
        }
    }

    /** How many table functions the reads registered since the store opened (one a read at a time, not one a read). */
    int functionsRegistered() {
        return functions.registered();
    }

    /** How many reads were committed since the store opened: a new count, new listed URLs. */
    long reads() {
        return reads.get();
    }

    /**
     * The listed numbers ({@link #LISTED_NUMBERS}), sorted and indexed ({@link DuckDbListedNumbers}),
     * read once per sitemaps' read (8 bytes a number, two a sitemap URL, and an index of at most
     * 4 MiB), so a page's rows are tested in memory; read again after a read of a sitemap is
     * committed. URLs logged under a host in capitals are resolved by name as the numbers are read:
     * one first logged after a read is matched by number from the next read (the counts' join
     * matches it at once, and the URLs page's views read them with each fold).
     */
    synchronized DuckDbListedNumbers listing() {
        long at = reads.get(); // before the rows: a read committed meanwhile is read again next time
        if (listing == null || listing.reads() != at) {
            try (Statement st = connection.createStatement();
                 ResultSet rs = st.executeQuery("SELECT DISTINCT k FROM (" + LISTED_NUMBERS + ") ORDER BY k")) {
                listing = new DuckDbListedNumbers(at, DuckDbQuery.longs(rs));
            } catch (SQLException e) {
                throw failures.of("cannot read which URLs the sitemaps list", e);
            }
        }
        return listing;
    }

    /**
     * The sitemaps held, read again only after a read of one is committed (every read of this store
     * commits here: the file is this process's): the URLs page's sitemap views ask it on each request.
     */
    @Override
    public synchronized List<StoredSitemap> sitemaps() {
        long at = reads.get(); // before the rows: a read committed meanwhile is read again next time
        if (held != null && heldAt == at) {
            return held;
        }
        List<StoredSitemap> read = new ArrayList<>();
        try (Statement st = connection.createStatement();
             ResultSet rs = st.executeQuery("SELECT sitemap, read_at_ms, urls FROM sitemap_reads ORDER BY sitemap")) {
            while (rs.next()) {
                read.add(new StoredSitemap(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2)), rs.getLong(3)));
            }
        } catch (SQLException e) {
            throw failures.of("cannot read which sitemaps it holds", e);
        }
        held = List.copyOf(read);
        heldAt = at;
        return held;
    }

    @Override
    public synchronized void forEachUrl(String sitemap, Consumer<SitemapUrl> urls) {
        try (PreparedStatement st = connection.prepareStatement("SELECT host, target FROM sitemap_urls WHERE sitemap = ?")) {
            st.setString(1, sitemap);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    urls.accept(new SitemapUrl(rs.getString(1), rs.getString(2)));
                }
            }
        } catch (SQLException e) {
            throw failures.of("cannot read the URLs of sitemap " + sitemap, e);
        }
    }

    /** By number, in memory ({@link #listing()}): a page's rows cost no question to the store. */
    @Override
    public synchronized Set<SitemapUrl> listed(Collection<SitemapUrl> urls) {
        if (urls.isEmpty()) {
            return Set.of();
        }
        DuckDbListedNumbers listed = listing();
        Set<SitemapUrl> found = new HashSet<>();
        for (SitemapUrl url : urls) {
            boolean hostless = url.host() == null || url.host().isEmpty();
            long number = UrlKey.number(hostless ? "" : url.host().toLowerCase(Locale.ROOT), url.target());
            if (listed.contains(number)) {
                found.add(url);
            }
        }
        return found;
    }

    @Override
    public synchronized void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw failures.of("cannot close", e);
        }
    }
}
