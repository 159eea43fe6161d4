package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.StoreFixture;
import dev.crawlerrors.store.DamagedStoreException;
import dev.crawlerrors.store.StoreContents;
import dev.crawlerrors.store.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store damaged as disks and copies damage files, found and named: 800 KB zeroed inside a real
 * store, a store cut in half. DuckDB opens such a file without a word; its damage shows only where
 * the damaged blocks are read.
 */
class DamagedStoreTest {

    static final int HITS = 50_000;
    static final String WHAT_TO_DO = "; restore it from a backup, or move it aside and import the logs again (they are the source of truth)";

    @TempDir
    Path dir;

    /** A sound store of {@link #HITS} hits (2.6 MB), in {@code name}. */
    private Path copy(String name) throws Exception {
        return StoreFixture.copyOfStoreOf(dir.resolve(name), HITS);
    }

    /** A copy with 800 KB zeroed from 1 MiB on, as the review damaged its store. */
    static Path zeroed(Path file) throws Exception {
        StoreFixture.zero(file, 1 << 20, 800 * 1024);
        return file;
    }

    @Test
    void checkReadsASoundStoreWholeAndSaysWhatItHolds() throws Exception {
        Path file = copy("store.duckdb");

        StoreContents contents = DuckDbStoreCheck.check(file);

        assertThat(contents).isEqualTo(new StoreContents(HITS, contents.verdicts(), 0, DuckDbHitStore.SCHEMA_VERSION, Files.size(file)));
        assertThat(contents.verdicts()).isPositive();
    }

    @Test
    void checkNamesAStoreWith800KbZeroedDamagedAndSaysWhatToDo() throws Exception {
        Path file = zeroed(copy("zeroed.duckdb"));

        assertThatThrownBy(() -> DuckDbStoreCheck.check(file)).isInstanceOf(DamagedStoreException.class)
                .hasMessageStartingWith("the store " + file + " is damaged: part of it fails its checksum, so it was changed outside "
                        + "DuckDB (a disk fault, or a copy taken while it was written) (DuckDB: Data Corruption Error: ")
                .hasMessageEndingWith(WHAT_TO_DO);
    }

    @Test
    void checkNamesAStoreCutInHalfDamagedAndSaysWhatToDo() throws Exception {
        Path file = copy("half.duckdb");
        StoreFixture.cutInHalf(file);

        assertThatThrownBy(() -> DuckDbStoreCheck.check(file)).isInstanceOf(DamagedStoreException.class)
                .hasMessageStartingWith("the store " + file + " is damaged: it is shorter than its contents say, so it was cut short "
                        + "(a full disk, or a copy that did not finish) (DuckDB: IO Error: Could not read enough bytes")
                .hasMessageEndingWith(WHAT_TO_DO);
    }

    @Test
    void openingAStoreWhoseDamageItReadsSaysSoInOneSentence() throws Exception {
        Path file = zeroed(copy("zeroed.duckdb"));

        assertThatThrownBy(() -> DuckDbHitStore.open(file).close()).isInstanceOf(DamagedStoreException.class)
                .hasMessageStartingWith("the store " + file + " is damaged: part of it fails its checksum").hasMessageEndingWith(WHAT_TO_DO);
    }

    @Test
    void damageMetAfterOpeningIsFoundByCheckReadableAndStaysKnown() throws Exception {
        Path file = copy("store.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            // the disk fails under the running store: blocks it has not read yet are zeros now (those it
            // read are in DuckDB's memory, and a read of them goes on fine)
            zeroed(file);

            assertThatThrownBy(store.health()::checkReadable).isInstanceOf(DamagedStoreException.class)
                    .hasMessageStartingWith("the store " + file + " is damaged: part of it fails its checksum");
            // a read that would not touch the damaged blocks again still hears of it
            assertThatThrownBy(store.health()::checkReadable).isInstanceOf(DamagedStoreException.class);
        } catch (StoreException closing) {
            // closing a damaged store may fail too; what matters is what it said above
        }
    }

    @Test
    void aStoreThatRecordsNoVersionIsCheckedAsVersion1AndHasTheCurrentOneRecordedWhenNextOpened() throws Exception {
        Path file = copy("old.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            st.execute("DROP TABLE store_meta");
        }
        assertThat(DuckDbStoreCheck.check(file).schemaVersion()).isEqualTo(1); // check opens read-only: it records nothing

        DuckDbHitStore.open(file).close();

        assertThat(DuckDbStoreCheck.check(file).schemaVersion()).isEqualTo(DuckDbHitStore.SCHEMA_VERSION);
    }

    @Test
    void refusesAStoreWhoseTablesANewerVersionMade() throws Exception {
        Path file = copy("newer.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            st.execute("UPDATE store_meta SET value = '" + (DuckDbHitStore.SCHEMA_VERSION + 1) + "' WHERE key = 'schema_version'");
        }

        assertThatThrownBy(() -> DuckDbHitStore.open(file)).isInstanceOf(StoreException.class)
                .hasMessage("the store " + file + " holds tables of a newer crawl-errors (schema version " + (DuckDbHitStore.SCHEMA_VERSION + 1)
                        + "; this one knows " + DuckDbHitStore.SCHEMA_VERSION + "): run that version, or import the logs into a new store");
        assertThatThrownBy(() -> DuckDbStoreCheck.check(file)).isInstanceOf(StoreException.class)
                .hasMessageContaining("holds tables of a newer crawl-errors (schema version " + (DuckDbHitStore.SCHEMA_VERSION + 1)
                        + "; this one knows " + DuckDbHitStore.SCHEMA_VERSION + ")");
    }
}
