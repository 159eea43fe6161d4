package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.text.Failures;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Locale;

/**
 * Puts DuckDB's native library beside the application jar, once, so DuckDB loads it from there
 * instead of unpacking it from the jar into a temporary file on every start, a cost every command
 * would pay.
 *
 * <p>How: the build moves DuckDB's libraries in the shaded jar from the root, where DuckDB looks
 * first, to {@code duckdb-native/}. Finding none at the root, DuckDB tries {@code java.library.path}
 * and then the directory of the jar it was loaded from, under the same file name; this class makes
 * sure that file is there and is the one this jar carries (same size and time stamp as the jar
 * entry), writing it atomically when it is not. Run from classes (tests, the IDE) the root
 * resource is there and nothing is done.
 */
final class DuckDbNativeLibrary {

    private static final String PACKED_DIR = "duckdb-native/";
    /** The driver's class that loads the library when it is initialised. */
    private static final String DRIVER_NATIVE = "org.duckdb.DuckDBNative";
    private static volatile boolean prepared;

    private DuckDbNativeLibrary() {
    }

    /** Makes sure DuckDB will find its library beside the jar; call before DuckDB's driver loads. */
    static synchronized void prepare() {
        if (prepared) {
            return;
        }
        String name = fileName();
        ClassLoader loader = DuckDbNativeLibrary.class.getClassLoader();
        URL packed = loader.getResource(PACKED_DIR + name);
        if (packed == null || loader.getResource(name) != null) {
            prepared = true; // DuckDB unpacks its own (run from classes), or has none for this platform
            return;
        }
        try {
            place(packed, jarDirectory().resolve(name));
            prepared = true;
        } catch (IOException | URISyntaxException | ClassNotFoundException e) {
            throw new StoreException("cannot put DuckDB's native library " + name + " beside the jar, where DuckDB loads it from ("
                    + Failures.message(e) + "); the jar's directory must be writable the first time it runs", e);
        }
    }

    /** Prepares the library and has the driver load it (about 60 ms: 70 MB to map and link). */
    static void load() throws ClassNotFoundException {
        prepare();
        Class.forName(DRIVER_NATIVE, true, DuckDbNativeLibrary.class.getClassLoader());
    }

    /**
     * Makes {@code target} a copy of the jar entry {@code packed}, unless it already is one (same
     * size and, for a jar entry, same time stamp).
     *
     * @return whether the file was written
     */
    static boolean place(URL packed, Path target) throws IOException {
        URLConnection connection = packed.openConnection();
        long size = connection.getContentLengthLong();
        long time = connection instanceof JarURLConnection jar ? jar.getJarEntry().getTime() : 0;
        if (Files.isRegularFile(target) && Files.size(target) == size
                && (time == 0 || Files.getLastModifiedTime(target).toMillis() == time)) {
            return false;
        }
        Path temporary = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".part");
        try {
            try (InputStream in = connection.getInputStream()) {
                Files.copy(in, temporary, StandardCopyOption.REPLACE_EXISTING);
            }
            if (time != 0) {
                Files.setLastModifiedTime(temporary, FileTime.fromMillis(time));
            }
            // a process that loaded the old file keeps it: the rename replaces the name, not the file
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
        return true;
    }

    /** The directory of the jar DuckDB's classes come from: where DuckDB looks for its library. */
    private static Path jarDirectory() throws URISyntaxException, IOException, ClassNotFoundException {
        Class<?> duckdb = Class.forName(DRIVER_NATIVE, false, DuckDbNativeLibrary.class.getClassLoader());
        return Path.of(duckdb.getProtectionDomain().getCodeSource().getLocation().toURI()).getParent().toRealPath();
    }

    /** The library's name as DuckDB's JDBC driver spells it: {@code libduckdb_java.so_<os>_<arch>}. */
    static String fileName() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT).trim();
        String osName = os.startsWith("windows") ? "windows" : os.startsWith("mac") ? "macos" : os.startsWith("linux") ? "linux"
                : os.replaceAll("[^a-z0-9_\\-.]", "");
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT).trim();
        String archName = switch (arch) {
            case "x86_64", "amd64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            default -> arch.replaceAll("[^a-z0-9_\\-.]", "");
        };
        return "libduckdb_java.so_" + osName + "_" + archName;
    }
}
