package dev.crawlerrors.sitemap;

/**
 * A sitemap that was not read: one sentence naming the sitemap and the rule it broke (a limit, a
 * scheme, a DTD, a status), what the user is told. The last good copy of it stays in use.
 */
public final class SitemapRefusedException extends Exception {

    public SitemapRefusedException(String message) {
        super(message);
    }

    public SitemapRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
