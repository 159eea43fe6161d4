package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.StoreContents;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.text.Failures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * {@code crawl-errors check}: reads every value of every table of a store, opened read-only (it
 * changes nothing, and neither migrates an older store nor records its version), so that every block's
 * checksum is verified; a damaged block fails as {@link dev.crawlerrors.store.DamagedStoreException}.
 * DuckDB has no check of its own that reads a whole file. Reading is what a full scan of the store
 * costs: some 0.3 to 1 s a million hits here.
 */
public final class DuckDbStoreCheck {

    /** The tables every store has (those of schema version 1), each read whole; the counts are of the first three. */
    private static final List<String> TABLES = List.of("hits", "verdicts", "imports");
    /** The tables later versions added, read whole where the store has them. */
    private static final List<String> LATER_TABLES = List.of("verdict_log", "import_files", "store_meta");

    private DuckDbStoreCheck() {
    }

    /**
     * Checks the store in {@code file}, which exists.
     *
     * @throws dev.crawlerrors.store.DamagedStoreException when part of it is damaged
     * @throws StoreException when it cannot be checked: another program has it open, it is no
     *                        crawl-errors store, or a newer crawl-errors made it
     */
    public static StoreContents check(Path file) {
        String location = file.toAbsolutePath().toString();
        DuckDbFailures failures = new DuckDbFailures(location);
        Properties config = new Properties();
        config.setProperty("duckdb.read_only", "true");
        try {
            DuckDbNativeLibrary.prepare();
            long bytes = Files.size(file);
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + location, config); Statement st = c.createStatement()) {
                Set<String> tables = tables(st);
                if (!tables.containsAll(TABLES)) {
                    throw new StoreException(location + " is a DuckDB database but no crawl-errors store (it has no "
                            + String.join(", ", TABLES.stream().filter(t -> !tables.contains(t)).toList())
                            + " table): pass the --db that import and serve use", null);
                }
                // a store that records no version is of version 1, made before versions were recorded
                int version = tables.contains("store_meta") ? Math.max(1, DuckDbSchema.recordedVersion(st)) : 1;
                if (version > DuckDbHitStore.SCHEMA_VERSION) {
                    throw new StoreException("the store " + location + " holds tables of a newer crawl-errors (schema version " + version
                            + "; this one knows " + DuckDbHitStore.SCHEMA_VERSION + "): check it with that version", null);
                }
                long[] rows = new long[TABLES.size()];
                for (int i = 0; i < TABLES.size(); i++) {
                    rows[i] = readWhole(st, TABLES.get(i));
                }
                for (String table : LATER_TABLES) {
                    if (tables.contains(table)) {
                        readWhole(st, table);
                    }
                }
                return new StoreContents(rows[0], rows[1], rows[2], version, bytes);
            }
        } catch (SQLException e) {
            throw failures.of("cannot check", e);
        } catch (IOException e) {
            throw new StoreException("cannot check " + location + ": " + Failures.message(e), e);
        }
    }

    private static Set<String> tables(Statement st) throws SQLException {
        Set<String> tables = new HashSet<>();
        try (ResultSet rs = st.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'")) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        return tables;
    }

    /** The rows of {@code table}, every value of which is read (a hash of each column over all rows). */
    private static long readWhole(Statement st, String table) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT count(*), sum(hash(COLUMNS(*))) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
