package dev.crawlerrors.store;

import dev.crawlerrors.sitemap.SitemapUrl;
import java.time.Instant;
import java.util.List;

/**
 * The URLs the site's sitemaps list, kept in the store beside the hits: a filter
 * ({@link HitFilter#inSitemap()}) asks of each hit whether a sitemap lists it, inside the engine's
 * own query, so the report's counts and pages stay exact and fast at millions of hits and URLs
 * (a set held by {@code serve} alone could not be joined by ClickHouse, and an import's
 * {@code --sitemap} would be lost when it ends). Each read of a sitemap is a version of it; the
 * newest one wholly written is the one matched, so a read that fails or stops half-way leaves the
 * last good copy in use.
 */
public interface SitemapStore {

    /** Makes {@code urls} what {@code sitemap} lists, as read at {@code readAt}, once every URL is written. */
    void replace(String sitemap, Instant readAt, List<SitemapUrl> urls);

    /** Each sitemap held: the newest read of each, by name. */
    List<StoredSitemap> sitemaps();

    /** A store that keeps no sitemaps says so when asked to: {@code message} is what the user reads. */
    static SitemapStore refusing(String message) {
        return new SitemapStore() {
            @Override
            public void replace(String sitemap, Instant readAt, List<SitemapUrl> urls) {
                throw new StoreException(message, null);
            }

            @Override
            public List<StoredSitemap> sitemaps() {
                return List.of();
            }
        };
    }
}
