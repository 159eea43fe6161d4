package dev.crawlerrors.store.remote;

import dev.crawlerrors.store.StoreFileModes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The directory that holds a store's import socket: only its owner (and the store's group, when the
 * store is group-readable) may enter it, so the socket can be reached by nobody else from the moment
 * it exists, whatever mode the umask gave it. Beside the store ({@code crawl-errors.duckdb.serve.d/}),
 * or, when that path is too long for a socket (Linux takes 107 bytes), a directory of a name nobody
 * can guess made in the temporary directory: the {@code .serve} file tells imports where it is.
 *
 * @param directory the directory
 * @param temporary whether it was made for this serve alone (removed when it stops)
 */
record SocketDirectory(Path directory, boolean temporary) {

    /** The longest socket path Linux takes (sun_path is 108 bytes, with its terminating zero). */
    static final int MAX_SOCKET_PATH = 100;
    static final String SUFFIX = ".serve.d";
    private static final String SOCKET = "import.sock";

    /** Makes (or takes over, when it is this user's) the directory for {@code store}'s socket. */
    static SocketDirectory prepare(Path store, StoreFileModes modes) throws IOException {
        Path absolute = store.toAbsolutePath().normalize();
        Path beside = absolute.resolveSibling(absolute.getFileName() + SUFFIX);
        if (beside.resolve(SOCKET).toString().getBytes(StandardCharsets.UTF_8).length > MAX_SOCKET_PATH) {
            Path made = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "crawl-errors-", modes.directoryAttribute());
            return new SocketDirectory(made, true);
        }
        try {
            Files.createDirectory(beside, modes.directoryAttribute());
        } catch (FileAlreadyExistsException e) {
            takeOver(beside, modes);
        }
        return new SocketDirectory(beside, false);
    }

    /**
     * Takes over a directory left by an earlier serve: it must be a directory (not a link) of this
     * user's, and loses whatever mode it gained since.
     */
    private static void takeOver(Path directory, StoreFileModes modes) throws IOException {
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(directory + " is in the way and is no directory: remove it");
        }
        String owner = Files.getOwner(directory, LinkOption.NOFOLLOW_LINKS).getName();
        String me = System.getProperty("user.name");
        if (!owner.equals(me)) {
            throw new IOException(directory + " belongs to " + owner + ", not to " + me + " who serves the store: remove it");
        }
        Files.setPosixFilePermissions(directory, modes.directory());
    }

    /** Where the socket is bound. */
    Path socket() {
        return directory.resolve(SOCKET);
    }

    /** Removes the socket, and the directory when nothing else is in it. */
    void remove() {
        try {
            Files.deleteIfExists(socket());
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            // a directory someone put more in stays; a stale socket is replaced by the next serve
        }
    }
}
