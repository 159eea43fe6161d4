package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StoreAddress;
import dev.crawlerrors.store.StoreCheck;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoreLimits;
import dev.crawlerrors.store.WritableStore;
import dev.crawlerrors.store.remote.ServedStore;
import dev.crawlerrors.store.remote.StoreSocketClient;
import dev.crawlerrors.store.remote.StoreSocketServer;
import dev.crawlerrors.text.Failures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A DuckDB store's file. DuckDB lets one process open a file for writing: a {@code serve} that has
 * it takes imports through a socket beside it ({@code store.remote}), and an import that finds the
 * file held by such a serve writes through it; any other holder is named in the refusal.
 */
final class DuckDbAddress implements StoreAddress {

    /** DuckDB's refusal of a file another process holds names that process: {@code ... (PID 4711)}. */
    private static final Pattern HOLDER = Pattern.compile("PID (\\d+)");

    private final Path file;

    /** @param file absolute */
    DuckDbAddress(Path file) {
        this.file = file;
    }

    @Override
    public String shown() {
        return file.toString();
    }

    @Override
    public Optional<Path> file() {
        return Optional.of(file);
    }

    @Override
    public boolean exists() {
        return Files.exists(file);
    }

    /** Removes the file and its write-ahead log. */
    @Override
    public void removeIfMadeNow(boolean existed) {
        if (existed) {
            return;
        }
        try {
            Files.deleteIfExists(file.resolveSibling(file.getFileName() + ".wal"));
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new StoreException("the new store " + file + " could not be removed (" + Failures.message(e) + ")", e);
        }
    }

    @Override
    public HitStore open(StoreLimits limits) {
        try {
            return DuckDbHitStore.open(file, DuckDbSettings.SERVE.with(limits));
        } catch (StoreException e) {
            throw whoHas(e);
        }
    }

    /** DuckDB gets one worker thread, the parsers the cores; a file a serve holds is written through that serve. */
    @Override
    public WritableStore openForImport(StoreLimits limits, Consumer<String> notices) {
        try {
            return DuckDbHitStore.open(file, DuckDbSettings.IMPORT.with(limits));
        } catch (StoreException e) {
            if (lockHolder(e) != null) {
                Optional<ServedStore> served = ServedStore.find(file);
                if (served.isPresent()) {
                    return StoreSocketClient.connect(served.get(), notices);
                }
            }
            throw whoHas(e);
        }
    }

    @Override
    public HitStore openAfresh(StoreLimits limits) {
        if (exists()) {
            throw new StoreException("the demo makes its store afresh, and " + file + " exists: give a file that does not, or leave "
                    + "--db out", null);
        }
        return open(limits);
    }

    @Override
    public Optional<StoreCheck> check() {
        if (!exists()) {
            return Optional.empty();
        }
        return Optional.of(new StoreCheck(DuckDbStoreCheck.check(file), DuckDbHitStore.SCHEMA_VERSION, null));
    }

    @Override
    public String whenMissing() {
        return "or set $CRAWL_ERRORS_DB";
    }

    /** A socket beside the file that imports write through, and a file that names this process as the store's serve. */
    @Override
    public AutoCloseable shareWithImports(WritableStore store, String report, Consumer<String> warnings) throws IOException {
        StoreSocketServer imports = StoreSocketServer.start(store, file);
        ServedStore served;
        try {
            served = ServedStore.claim(file, imports.path(), report);
        } catch (IOException e) {
            warnings.accept(ServedStore.fileOf(file) + " cannot be written (" + Failures.message(e) + "): an import of this store will "
                    + "not find this serve, and fail while it runs");
            return imports;
        }
        return new SharedWithImports(imports, served);
    }

    /** The socket imports write through, and the file that names this serve: the claim goes first. */
    private record SharedWithImports(StoreSocketServer imports, ServedStore served) implements AutoCloseable {

        @Override
        public void close() {
            served.release();
            imports.close();
        }
    }

    /**
     * What to say when the store could not be opened because another process has it: a serve
     * (which imports write through, but a second serve cannot share), or another import.
     */
    private StoreException whoHas(StoreException e) {
        Long pid = lockHolder(e);
        if (pid == null) {
            return e;
        }
        Optional<ServedStore> served = ServedStore.find(file);
        if (served.isPresent()) {
            return new StoreException("the store " + file + " is served by crawl-errors serve (PID " + served.get().pid()
                    + ", " + served.get().report() + "); one serve per store: stop that one first, or give this one another --db", e);
        }
        return new StoreException("the store " + file + " is open in another process (PID " + pid + "), most likely an import: "
                + "run this when it has finished", e);
    }

    /** The process DuckDB names as holding the store's lock, or null when {@code e} is about something else. */
    private static Long lockHolder(StoreException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            if (message.contains("Could not set lock on file")) {
                Matcher pid = HOLDER.matcher(message);
                return pid.find() ? Long.valueOf(pid.group(1)) : Long.valueOf(-1);
            }
        }
        return null;
    }
}
