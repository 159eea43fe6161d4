package dev.crawlerrors.sitemap;

/**
 * One URL a sitemap lists, as a logged hit is matched to it: its host (lower case, without a
 * default port) and its request target (path and query, as a log carries it; {@code /} for none).
 */
public record SitemapUrl(String host, String target) {
}
