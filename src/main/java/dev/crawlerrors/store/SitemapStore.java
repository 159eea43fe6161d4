package dev.crawlerrors.store;

import dev.crawlerrors.sitemap.SitemapUrl;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

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

    /** Starts a new read of {@code sitemap}: its URLs are written as they come and matched once it is committed. */
    SitemapWrite replacing(String sitemap);

    /** Makes {@code urls} what {@code sitemap} lists, as read at {@code readAt}, once every URL is written. */
    default void replace(String sitemap, Instant readAt, List<SitemapUrl> urls) {
        try (SitemapWrite write = replacing(sitemap)) {
            write.addAll(urls);
            write.commit(readAt);
        }
    }

    /** Each sitemap held: the newest read of each, by name. */
    List<StoredSitemap> sitemaps();

    /** Each URL the newest read of {@code sitemap} lists, in no order; none when it is not held. */
    void forEachUrl(String sitemap, Consumer<SitemapUrl> urls);

    /**
     * Which of {@code urls} a sitemap lists, matched as {@link HitFilter#inSitemap()} matches hits:
     * by host (any case) and target, or by target alone where the host is empty (a log with none).
     * Asked of a page's rows at once, so a page costs one question, not one a row.
     */
    Set<SitemapUrl> listed(Collection<SitemapUrl> urls);

    /** Those of {@code urls} listed: by {@code host target} ({@code hostTargets}), or by target alone ({@code anyHost}) where the host is empty. */
    static Set<SitemapUrl> matched(Collection<SitemapUrl> urls, Set<String> hostTargets, Set<String> anyHost) {
        Set<SitemapUrl> listed = new HashSet<>();
        for (SitemapUrl url : urls) {
            boolean hostless = url.host() == null || url.host().isEmpty();
            if (hostless ? anyHost.contains(url.target()) : hostTargets.contains(url.host().toLowerCase(Locale.ROOT) + ' ' + url.target())) {
                listed.add(url);
            }
        }
        return listed;
    }

    /** A store that keeps no sitemaps says so when asked to: {@code message} is what the user reads. */
    static SitemapStore refusing(String message) {
        return new SitemapStore() {
            @Override
            public SitemapWrite replacing(String sitemap) {
                throw new StoreException(message, null);
            }

            @Override
            public List<StoredSitemap> sitemaps() {
                return List.of();
            }

            @Override
            public void forEachUrl(String sitemap, Consumer<SitemapUrl> urls) {
            }

            @Override
            public Set<SitemapUrl> listed(Collection<SitemapUrl> urls) {
                return Set.of();
            }
        };
    }
}
