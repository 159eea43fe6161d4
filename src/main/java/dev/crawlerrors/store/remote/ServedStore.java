package dev.crawlerrors.store.remote;

import dev.crawlerrors.store.StoreFileModes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Who serves a store: {@code crawl-errors serve} writes, beside the store, a file naming its
 * process, the socket imports write through ({@link StoreSocketServer}) and where its report is;
 * an import or a second serve that finds the store locked reads it to hand its lines over, or to
 * say who has the store. A file whose process is gone (a killed serve) is stale and ignored.
 *
 * @param store  the store's file
 * @param pid    the serving process
 * @param socket where imports write through it
 * @param report the report's address
 */
public record ServedStore(Path store, long pid, Path socket, String report) {

    /** The file beside {@code store} that names its serve. */
    public static Path fileOf(Path store) {
        return store.resolveSibling(store.getFileName() + ".serve");
    }

    /** Records that this process serves {@code store}, in a file only those who may read the store may read. */
    public static ServedStore claim(Path store, Path socket, String report) throws IOException {
        ServedStore served = new ServedStore(store.toAbsolutePath().normalize(), ProcessHandle.current().pid(), socket, report);
        Path file = fileOf(served.store());
        Path written = file.resolveSibling(file.getFileName() + "." + served.pid());
        Files.deleteIfExists(written); // left by a killed process of the same number: made afresh with the mode below
        Files.createFile(written, StoreFileModes.of(served.store()).fileAttribute());
        Files.writeString(written, "pid=" + served.pid() + "\nsocket=" + socket + "\nreport=" + report + "\n", StandardCharsets.UTF_8);
        Files.move(written, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return served;
    }

    /** The serve of {@code store}, when one is running. */
    public static Optional<ServedStore> find(Path store) {
        Path absolute = store.toAbsolutePath().normalize();
        List<String> lines;
        try {
            lines = Files.readAllLines(fileOf(absolute), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return Optional.empty();
        }
        long pid = -1;
        Path socket = null;
        String report = null;
        for (String line : lines) {
            if (line.startsWith("pid=")) {
                try {
                    pid = Long.parseLong(line.substring(4).strip());
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            } else if (line.startsWith("socket=")) {
                socket = Path.of(line.substring(7));
            } else if (line.startsWith("report=")) {
                report = line.substring(7);
            }
        }
        if (pid <= 0 || socket == null || ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ServedStore(absolute, pid, socket, report == null ? "" : report));
    }

    /** This process no longer serves the store (the file is removed if it still names this process). */
    public void release() {
        Path file = fileOf(store);
        if (find(store).filter(s -> s.pid() == pid).isPresent()) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a stale file is ignored by whoever reads it next
            }
        }
    }
}
