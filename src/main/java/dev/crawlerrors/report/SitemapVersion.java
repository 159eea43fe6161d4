package dev.crawlerrors.report;

import dev.crawlerrors.store.SitemapStore;
import dev.crawlerrors.store.StoredSitemap;

/**
 * Which reads of the sitemaps the store holds, as a short token that changes whenever a sitemap is
 * read again or first held: answers that say whether a sitemap lists a URL are kept under it beside
 * their snapshot, since a sitemap's read makes no new snapshot. Asked of the store at most once a
 * second, so a page kept costs no more than it did; a refresh shows within that second.
 */
final class SitemapVersion {

    /** The token while no sitemap is held. */
    static final String NONE = "none";

    private static final long ASK_EVERY_NANOS = 1_000_000_000L;

    private final SitemapStore sitemaps;
    private String token;
    private long askedAt;

    SitemapVersion(SitemapStore sitemaps) {
        this.sitemaps = sitemaps;
    }

    /** The token of the reads held now ({@code "none"} when no sitemap is held). */
    synchronized String token() {
        long now = System.nanoTime();
        if (token == null || now - askedAt >= ASK_EVERY_NANOS) {
            token = of(sitemaps);
            askedAt = now;
        }
        return token;
    }

    /** The token of {@code sitemaps}' reads, asked now. */
    static String of(SitemapStore sitemaps) {
        long hash = 0xcbf29ce484222325L;
        int held = 0;
        for (StoredSitemap read : sitemaps.sitemaps()) {
            String text = read.sitemap() + ' ' + read.readAt().toEpochMilli() + ' ' + read.urls() + '\n';
            for (int i = 0; i < text.length(); i++) {
                hash = (hash ^ text.charAt(i)) * 0x100000001b3L;
            }
            held++;
        }
        return held == 0 ? NONE : held + "-" + Long.toHexString(hash);
    }
}
