package dev.crawlerrors.sitemap;

/**
 * Where a sitemap's URLs go as they are read, a file at a time, so a read of a million URLs holds
 * none of them itself: the store writes them as they come and says which it had already.
 */
@FunctionalInterface
public interface SitemapSink {

    /** Takes one URL listed. @return false when this read listed it already (it counts once) */
    boolean add(SitemapUrl url);
}
