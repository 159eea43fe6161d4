package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.SampleHits;
import dev.crawlerrors.store.Umask;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's files copy every crawler URL, address and agent of logs that are usually 0640: DuckDB
 * makes them (the write-ahead log again after each checkpoint) owner-only whatever the umask, or
 * group-readable where the user made the store's file so.
 */
class DuckDbStoreFilesTest {

    @TempDir
    Path dir;


    @Test
    void aNewStoreAndItsLogAreTheOwnersOnlyUnderUmaskZero() throws Exception {
        Path file = dir.resolve("sub").resolve("hits.duckdb");
        Path wal = dir.resolve("sub").resolve("hits.duckdb.wal");

        try (Umask careless = Umask.of(0); DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(SampleHits.googlebots(10));
            store.writer().flush();
            assertThat(wal).exists();
            assertThat(mode(wal)).isEqualTo("rw-------");
            assertThat(mode(file)).isEqualTo("rw-------");
            assertThat(mode(file.getParent())).as("a directory made for the store").isEqualTo("rwx------");
        }
    }

    @Test
    void aStoreMadeGroupReadableKeepsItsLogGroupReadable() throws Exception {
        Path file = dir.resolve("hits.duckdb");
        Path wal = dir.resolve("hits.duckdb.wal");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(SampleHits.googlebots(1));
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));

        try (Umask careless = Umask.of(0); DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(SampleHits.googlebots(10));
            store.writer().flush();
            assertThat(mode(wal)).isEqualTo("rw-r-----");
            assertThat(mode(file)).isEqualTo("rw-r-----");
        }
    }

    @Test
    void aStoreAnEarlierVersionLeftWorldReadableLosesTheOthersRead() throws Exception {
        Path file = dir.resolve("hits.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(SampleHits.googlebots(1));
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        DuckDbHitStore.open(file).close();

        assertThat(mode(file)).isEqualTo("rw-r-----");
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
