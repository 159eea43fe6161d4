package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.BreakdownCount;
import dev.crawlerrors.store.DurationCount;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.StoreVersion;
import dev.crawlerrors.store.StoredVerdict;
import dev.crawlerrors.store.TimeCount;
import dev.crawlerrors.store.UrlCount;
import dev.crawlerrors.text.Failures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;
import org.duckdb.DuckDBConnection;

/**
 * The embedded store: one DuckDB file, one connection. Its parts, a class each: the writer
 * ({@link DuckDbHitWriter}: hits go in column by column, one statement per batch, on a thread of
 * its own), the verdicts ({@link DuckDbVerdicts}: their own table keyed by address and crawler),
 * the reader ({@link DuckDbHitReader}: the report's pages) and its tallies ({@link DuckDbTallies}:
 * the counts behind the patterns and the overview). How far each log has been
 * imported is kept in {@code imports}, by content fingerprint, written in the same transaction as
 * the hits it covers. Reads use a duplicate of the connection per query, which DuckDB allows from
 * any thread.
 */
public final class DuckDbHitStore implements HitStore {

    private static final String SCHEMA = """
            CREATE TABLE IF NOT EXISTS hits (
              id BIGINT NOT NULL,
              ts TIMESTAMP NOT NULL,
              utc_offset_minutes SMALLINT NOT NULL,
              ip VARCHAR NOT NULL,
              method VARCHAR NOT NULL,
              url VARCHAR NOT NULL,
              status SMALLINT NOT NULL,
              bytes BIGINT,
              duration_ms DOUBLE,
              crawler VARCHAR NOT NULL,
              bot_type VARCHAR NOT NULL,
              user_agent VARCHAR,
              referer VARCHAR,
              host VARCHAR
            );
            CREATE TABLE IF NOT EXISTS verdicts (
              ip VARCHAR NOT NULL,
              crawler VARCHAR NOT NULL,
              verification VARCHAR NOT NULL,
              reason VARCHAR NOT NULL,
              checked_at TIMESTAMP NOT NULL,
              PRIMARY KEY (ip, crawler)
            );
            CREATE TABLE IF NOT EXISTS imports (
              fingerprint VARCHAR PRIMARY KEY,
              name VARCHAR NOT NULL,
              bytes_imported BIGINT NOT NULL,
              lines_imported BIGINT NOT NULL,
              imported_at TIMESTAMP NOT NULL
            );
            """;

    /** DuckDB's row group, the unit it compresses and writes (the default, which stores here are created with). */
    static final int ROW_GROUP_ROWS = DuckDbHitWriter.ROW_GROUP_ROWS;

    private final DuckDBConnection connection;
    private final String location;
    private final DuckDbHitWriter writer;
    private final DuckDbVerdicts verdicts;
    private final DuckDbHitReader reader;
    private final DuckDbTallies tallies;

    private DuckDbHitStore(DuckDBConnection connection, String location, long commitRows) throws SQLException {
        this.connection = connection;
        this.location = location;
        try (Statement st = connection.createStatement()) {
            st.execute(SCHEMA);
            // optimistic writes compress and write row groups as they fill; by default DuckDB
            // holds five before writing them, and a 5M-line import peaked 200 MB higher for it
            st.execute("SET write_buffer_row_group_count = 1");
        }
        // every read first commits what was appended, so it sees it (the writer exists by then)
        DuckDbQuery query = new DuckDbQuery(connection, location, this::flush);
        this.verdicts = new DuckDbVerdicts(connection, query);
        this.writer = new DuckDbHitWriter(connection, location, commitRows, verdicts, query);
        this.reader = new DuckDbHitReader(query);
        this.tallies = new DuckDbTallies(query);
    }

    /** Opens (creating if needed) the store in {@code file}, with DuckDB's default worker threads (one per core). */
    public static DuckDbHitStore open(Path file) {
        return open(file, 0);
    }

    /**
     * Opens (creating if needed) the store in {@code file}.
     *
     * @param threads DuckDB's worker threads, 0 for its default (one per core). An import passes 1:
     *                its parsers use the cores, and DuckDB's second worker spent its time spinning
     *                for commit tasks (about 5% of an import's CPU in the profile)
     */
    public static DuckDbHitStore open(Path file, int threads) {
        return open(file, threads, DuckDbHitWriter.COMMIT_ROWS);
    }

    /** {@link #open(Path, int)} committing every {@code commitRows} rows at the latest: for tests. */
    static DuckDbHitStore open(Path file, int threads, long commitRows) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Properties config = new Properties();
            if (threads > 0) {
                config.setProperty("threads", Integer.toString(threads));
            }
            DuckDbNativeLibrary.prepare();
            Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath(), config);
            return new DuckDbHitStore(c.unwrap(DuckDBConnection.class), file.toString(), commitRows);
        } catch (Exception e) {
            throw new StoreException("cannot open the store " + file + ": " + Failures.firstLine(e), e);
        }
    }

    /**
     * Loads DuckDB's native library (70 MB, some 60 ms) on a thread of its own, for a command that
     * will open a store once its options are read: the loading then overlaps picocli's reading of
     * the command line instead of following it. A failure is left for the opening to report.
     */
    public static void loadLibraryInBackground() {
        Thread.ofPlatform().daemon().name("duckdb-load").start(() -> {
            try {
                DuckDbNativeLibrary.load();
            } catch (Throwable e) {
                // the store's opening loads it again and says what went wrong
            }
        });
    }

    /** A store that lives in memory only, gone on close. */
    public static DuckDbHitStore inMemory() {
        try {
            DuckDbNativeLibrary.prepare();
            Connection c = DriverManager.getConnection("jdbc:duckdb:");
            return new DuckDbHitStore(c.unwrap(DuckDBConnection.class), "memory", DuckDbHitWriter.COMMIT_ROWS);
        } catch (SQLException e) {
            throw new StoreException("cannot open an in-memory store: " + Failures.firstLine(e), e);
        }
    }

    @Override
    public void append(List<CrawlerHit> hits) {
        writer.append(hits);
    }

    @Override
    public void append(List<CrawlerHit> hits, SourceProgress through) {
        writer.append(hits, through);
    }

    @Override
    public List<SourceProgress> imported(Collection<String> fingerprints) {
        return writer.imported(fingerprints);
    }

    @Override
    public void updateVerdict(String ip, String crawler, Verdict verdict) {
        writer.updateVerdict(ip, crawler, verdict);
    }

    @Override
    public void flush() {
        writer.flush();
    }

    @Override
    public long count(HitFilter filter) {
        return reader.count(filter);
    }

    @Override
    public List<StoredHit> page(HitFilter filter, long offset, int limit) {
        return reader.page(filter, offset, limit);
    }

    @Override
    public void forEach(HitFilter filter, Consumer<StoredHit> rows) {
        reader.forEach(filter, rows);
    }

    @Override
    public long size() {
        return reader.size();
    }

    @Override
    public Optional<StoredHit> hit(long id) {
        return reader.hit(id);
    }

    @Override
    public StoreVersion version() {
        return writer.version();
    }

    @Override
    public List<TimeCount> countByTime(HitFilter filter, HitWindow window, long bucketMillis) {
        return tallies.byTime(filter, window, bucketMillis);
    }

    @Override
    public List<BreakdownCount> countByCrawler(HitFilter filter, HitWindow window) {
        return tallies.byCrawler(filter, window);
    }

    @Override
    public List<DurationCount> countByDuration(HitFilter filter, HitWindow window) {
        return tallies.byDuration(filter, window);
    }

    @Override
    public void forEachUrl(HitFilter filter, HitWindow window, Consumer<UrlCount> urls) {
        tallies.forEachUrl(filter, window, urls);
    }

    @Override
    public List<StoredVerdict> verdicts(Verification verification) {
        return verdicts.of(verification);
    }

    @Override
    public synchronized void close() {
        try {
            writer.close();
        } finally {
            closeConnection();
        }
    }

    private void closeConnection() {
        try {
            SQLException failure = new SQLException("cannot close its statements");
            writer.closeStatements(failure);
            connection.close();
            if (failure.getSuppressed().length > 0) {
                throw failure;
            }
        } catch (SQLException e) {
            throw new StoreException("cannot close " + location + ": " + Failures.firstLine(e), e);
        }
    }
}
