package dev.crawlerrors.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Who may read the files a store keeps: its owner only (files 0600, directories 0700), or its owner
 * and group (0640, 0750) when the user made the store's file group-readable ({@code chmod 640}).
 * A store copies every crawler URL, address and agent of logs that are usually 0640 themselves,
 * so nothing it writes is readable by others whatever the umask it was started under.
 */
public record StoreFileModes(boolean groupReadable) {

    /** Owner only: a new store, and anything not beside a store. */
    public static final StoreFileModes OWNER_ONLY = new StoreFileModes(false);

    /** The modes of {@code store}'s files: group-readable when the store's file is, else owner only. */
    public static StoreFileModes of(Path store) {
        try {
            return new StoreFileModes(Files.getPosixFilePermissions(store).contains(PosixFilePermission.GROUP_READ));
        } catch (IOException | UnsupportedOperationException e) {
            return OWNER_ONLY; // no store yet (or no POSIX modes): owner only
        }
    }

    /** A file's permissions: {@code rw-------} or {@code rw-r-----}. */
    public Set<PosixFilePermission> file() {
        return PosixFilePermissions.fromString(groupReadable ? "rw-r-----" : "rw-------");
    }

    /** A directory's permissions: {@code rwx------} or {@code rwxr-x---}. */
    public Set<PosixFilePermission> directory() {
        return PosixFilePermissions.fromString(groupReadable ? "rwxr-x---" : "rwx------");
    }

    /** {@link #file()} as given to {@code Files.createFile}, so the file never exists with more. */
    public FileAttribute<Set<PosixFilePermission>> fileAttribute() {
        return PosixFilePermissions.asFileAttribute(file());
    }

    /** {@link #directory()} as given to {@code Files.createDirectory}. */
    public FileAttribute<Set<PosixFilePermission>> directoryAttribute() {
        return PosixFilePermissions.asFileAttribute(directory());
    }

    /**
     * Makes every file this process creates from now on (DuckDB's among them) take these modes at
     * most, by the process's umask: {@code 077}, or {@code 027} for a group.
     *
     * @return whether the umask could be set (not on Java 21: {@link #tighten} then closes what was made)
     */
    public boolean applyToProcess() {
        return ProcessUmask.set(groupReadable ? 027 : 077).isPresent();
    }

    /** Takes from {@code file} (when it exists) what these modes do not give; never widens it. */
    public void tighten(Path file) {
        try {
            Set<PosixFilePermission> now = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
            Set<PosixFilePermission> allowed = Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS) ? directory() : file();
            if (!allowed.containsAll(now)) {
                now.retainAll(allowed);
                Files.setPosixFilePermissions(file, now);
            }
        } catch (IOException | UnsupportedOperationException e) {
            // gone, not ours, or no POSIX modes: nothing to take away here
        }
    }
}
