package dev.crawlerrors.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One store, as {@code --db} names it on its {@link StoreEngine}: what the commands do with a
 * store before and around its views, whatever the engine. The defaults are those of a store on a
 * server, which is always there, is no file of this machine and takes every writer itself.
 */
public interface StoreAddress {

    /** The store as people are shown it: its file, absolute, or its URL without user or password. */
    String shown();

    /** The store's file on this machine; empty for a store on a server. */
    default Optional<Path> file() {
        return Optional.empty();
    }

    /** Whether the store is there before anything opens it (a store on a server's database is the operator's: always). */
    default boolean exists() {
        return true;
    }

    /**
     * Removes the store again when the command made it ({@code existed} is what {@link #exists()}
     * said before it was opened), so a start that failed leaves nothing behind. Call once it is closed.
     */
    default void removeIfMadeNow(boolean existed) {
    }

    /** Opens the store to serve its report from (made when it is not there), taking what {@code limits} allow. */
    HitStore open(StoreLimits limits);

    /**
     * Opens the store for an import, whose parsers want the cores: its own defaults for {@code limits}
     * left out. When another process holds the store and takes imports for it, the store is written
     * through that process.
     *
     * @param notices told what the user should know meanwhile (that the import waits for its turn)
     */
    WritableStore openForImport(StoreLimits limits, Consumer<String> notices);

    /** Opens the store emptied first, for the demo: one that holds anything but an earlier demo's store is refused. */
    HitStore openAfresh(StoreLimits limits);

    /**
     * Reads the whole store, changing nothing, to say whether it is sound; empty when there is no
     * store there.
     *
     * @throws DamagedStoreException when part of it is damaged
     * @throws StoreException        when it cannot be checked (held by another program, no store of ours, a newer version)
     */
    Optional<StoreCheck> check();

    /** What to do when {@link #check()} finds no store there, in a few words: where a store of this engine comes from. */
    String whenMissing();

    /**
     * Lets imports write through this process while it serves {@code store}, when the engine lets
     * one process open the store at a time; closing what it returns stops that. An engine that takes
     * every writer itself has nothing to share.
     *
     * @param report   where the report is served, for an import that finds the store held to name
     * @param warnings told what could not be set up, when imports cannot find this process
     */
    default AutoCloseable shareWithImports(WritableStore store, String report, Consumer<String> warnings) throws IOException {
        return () -> { };
    }
}
