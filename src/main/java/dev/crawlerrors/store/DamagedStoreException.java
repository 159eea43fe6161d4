package dev.crawlerrors.store;

/**
 * The store's file is damaged: part of it fails its checksum, it is cut short, or its header is
 * overwritten. Its message is one sentence that says so, where, and what to do: the logs are the
 * source of truth, so a store can always be made again from them.
 */
public final class DamagedStoreException extends StoreException {

    private final String location;

    /**
     * @param location the store's file, as the user should find it (absolute)
     * @param damage   what is wrong with it, in words, with the engine's own message after them
     */
    public DamagedStoreException(String location, String damage, Throwable cause) {
        super("the store " + location + " is damaged: " + damage + "; restore it from a backup, or move it aside and import "
                + "the logs again (they are the source of truth)", cause);
        this.location = location;
    }

    public String location() {
        return location;
    }
}
