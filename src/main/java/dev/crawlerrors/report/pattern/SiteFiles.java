package dev.crawlerrors.report.pattern;

import java.util.Locale;
import java.util.Set;

/**
 * The files crawlers fetch by themselves at a site's root: {@code /robots.txt}, sitemaps
 * ({@code /sitemap.xml}, {@code /sitemap_index.xml}, {@code /sitemap-posts.xml.gz}),
 * {@code /favicon.ico}, {@code /ads.txt} and {@code /app-ads.txt}, and what lies under
 * {@code /.well-known/} (RFC 8615). Their names are never values of a placeholder: a missing
 * robots.txt is its own pattern with its own diagnosis, not an example of {@code /{1}} (on a flat
 * site it was the commonest error, folded among the pages).
 */
final class SiteFiles {

    static final String ROBOTS = "robots.txt";
    static final String FAVICON = "favicon.ico";
    static final String WELL_KNOWN = ".well-known";
    private static final Set<String> ADS = Set.of("ads.txt", "app-ads.txt");

    private SiteFiles() {
    }

    /** Whether a path segment is such a file's name (wherever it is: a deeper one is kept as a word is). */
    static boolean isSiteFile(String segment) {
        return segment.equals(ROBOTS) || segment.equals(FAVICON) || segment.equals(WELL_KNOWN) || ADS.contains(segment)
                || isSitemap(segment);
    }

    static boolean isSitemap(String segment) {
        String name = segment.toLowerCase(Locale.ROOT);
        return name.startsWith("sitemap") && (name.endsWith(".xml") || name.endsWith(".xml.gz"));
    }

    static boolean isAds(String segment) {
        return ADS.contains(segment);
    }
}
