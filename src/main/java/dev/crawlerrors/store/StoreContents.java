package dev.crawlerrors.store;

/**
 * What a store holds, as {@code crawl-errors check} found it having read all of it.
 *
 * @param schemaVersion the version of the store's tables it records, 0 when it records none (a
 *                      store made before versions were recorded: its tables are those of version 1)
 * @param bytes         the size of its file
 */
public record StoreContents(long hits, long verdicts, long logs, int schemaVersion, long bytes) {
}
