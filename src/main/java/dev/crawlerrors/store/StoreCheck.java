package dev.crawlerrors.store;

/**
 * What {@code crawl-errors check} found in a sound store.
 *
 * @param contents       what it holds
 * @param currentVersion the version of the tables this crawl-errors writes: an older store is
 *                       brought to it by the next import or serve
 * @param reach          where the store was read, for a store on several servers
 *                       ({@code 2 shards answering}); null for a file
 */
public record StoreCheck(StoreContents contents, int currentVersion, String reach) {
}
