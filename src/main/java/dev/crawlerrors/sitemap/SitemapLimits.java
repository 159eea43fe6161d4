package dev.crawlerrors.sitemap;

import java.time.Duration;

/**
 * How much of a sitemap is read before it is refused or cut off: a sitemap is untrusted input,
 * fetched from a server that may be slow, hostile or wrong. The defaults sit well above the
 * protocol's own limits (50,000 URLs and 50 MB uncompressed a file, 50,000 sitemaps an index), so a
 * sitemap the protocol allows is read whole, and one far past them costs bounded memory and time.
 *
 * @param maxBodyBytes      the bytes one file may send (compressed, when it is gzipped)
 * @param maxUnzippedBytes  the bytes one gzipped file may come to once unzipped (a gzip bomb is cut here)
 * @param maxUrls           the URLs one {@code --sitemap} may hold, in all its files
 * @param maxSitemaps       the files one {@code --sitemap} may read, the index and robots.txt included
 * @param maxDepth          how deep indexes may nest (robots.txt, an index, a sitemap: 2)
 * @param connectTimeout    to connect to a server
 * @param readTimeout       the longest wait for the next bytes of an answer
 * @param deadline          the whole read of one {@code --sitemap}, every file of it, however slowly a server trickles
 */
public record SitemapLimits(long maxBodyBytes, long maxUnzippedBytes, int maxUrls, int maxSitemaps, int maxDepth,
        Duration connectTimeout, Duration readTimeout, Duration deadline) {

    /** The protocol's limit of URLs in one file: more is read, with a warning. */
    public static final int PROTOCOL_URLS_PER_FILE = 50_000;

    /** The longest URL read (the protocol's limit is 2,048 characters): a longer one is skipped. */
    public static final int MAX_URL_CHARS = 8_192;

    /** The defaults: 64 MiB a body, 256 MiB unzipped, 2,000,000 URLs and 1,000 files a sitemap, 2 minutes in all. */
    public static final SitemapLimits DEFAULT = new SitemapLimits(64L << 20, 256L << 20, 2_000_000, 1_000, 2,
            Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(2));
}
