package dev.crawlerrors.store;

import dev.crawlerrors.sitemap.SitemapSink;
import dev.crawlerrors.sitemap.SitemapUrl;
import java.time.Instant;

/**
 * A new read of one sitemap being written to the store, URL by URL as it is read: nothing of it is
 * matched until {@link #commit}, and closing it uncommitted drops it, so a read that is refused
 * half-way leaves the last good copy in use. Each URL is kept once (a repeat is told apart by a
 * 64-bit hash of its host and target, see {@link SitemapUrlsSeen}).
 */
public interface SitemapWrite extends SitemapSink, AutoCloseable {

    /** Makes the URLs added what the sitemap lists, as read at {@code readAt}. */
    void commit(Instant readAt);

    /** Drops what was added, unless it was committed. */
    @Override
    void close();

    /** Adds each of {@code urls}. */
    default void addAll(Iterable<SitemapUrl> urls) {
        for (SitemapUrl url : urls) {
            add(url);
        }
    }
}
