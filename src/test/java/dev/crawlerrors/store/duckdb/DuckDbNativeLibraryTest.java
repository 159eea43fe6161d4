package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DuckDbNativeLibraryTest {

    /** The time stamp of the entry in the jar the tests build. */
    private static final long ENTRY_TIME = 1_700_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void namesTheLibraryAsDuckDbsDriverDoes() {
        // DuckDB's jar (on the test class path) holds the library under the name its driver computes;
        // were ours different, the shaded jar's DuckDB would find no library beside the jar
        assertThat(ClassLoader.getSystemResource(DuckDbNativeLibrary.fileName())).isNotNull();
    }

    @Test
    void leavesDuckDbToUnpackItsOwnWhenRunFromClasses() {
        DuckDbNativeLibrary.prepare();
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            assertThat(store.health().size()).isZero();
        }
    }

    @Test
    void writesTheLibraryBesideTheJarOnceAndAgainOnlyWhenTheFileThereIsNotTheJarsCopy() throws Exception {
        byte[] library = "not really a shared object, but bytes to copy".getBytes();
        URL packed = jarEntry("duckdb-native/libduckdb_java.so_test", library);
        Path target = dir.resolve("libduckdb_java.so_test");

        assertThat(DuckDbNativeLibrary.place(packed, target)).as("first start").isTrue();
        assertThat(target).hasBinaryContent(library);
        assertThat(Files.getLastModifiedTime(target).toMillis()).isEqualTo(ENTRY_TIME);
        assertThat(DuckDbNativeLibrary.place(packed, target)).as("next start").isFalse();

        Files.write(target, "a shorter one".getBytes());
        assertThat(DuckDbNativeLibrary.place(packed, target)).as("another size").isTrue();
        assertThat(target).hasBinaryContent(library);

        // same size, another time stamp: another build's library
        Files.setLastModifiedTime(target, FileTime.fromMillis(ENTRY_TIME + 60_000));
        assertThat(DuckDbNativeLibrary.place(packed, target)).as("another build").isTrue();
        assertThat(Files.getLastModifiedTime(target).toMillis()).isEqualTo(ENTRY_TIME);
        try (var left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("no partial copy left behind")
                    .containsExactlyInAnyOrder("app.jar", "libduckdb_java.so_test");
        }
    }

    private URL jarEntry(String name, byte[] content) throws Exception {
        Path jar = dir.resolve("app.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream zip = new JarOutputStream(out)) {
            JarEntry entry = new JarEntry(name);
            entry.setTime(ENTRY_TIME);
            zip.putNextEntry(entry);
            zip.write(content);
            zip.closeEntry();
        }
        return URI.create("jar:" + jar.toUri() + "!/" + name).toURL();
    }
}
