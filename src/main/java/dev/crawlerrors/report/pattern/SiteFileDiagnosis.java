package dev.crawlerrors.report.pattern;

import dev.crawlerrors.store.UrlPattern;
import dev.crawlerrors.text.Figures;
import java.util.Optional;

/**
 * What the errors of a file crawlers fetch by themselves mean ({@link SiteFiles}): nobody links to
 * {@code /robots.txt}, so "find where it is linked from" would send the engineer hunting. A
 * robots.txt that is missing means no rules (crawl everything); one that answers 5xx or 429 makes
 * Google stop crawling the whole site until it answers again.
 */
final class SiteFileDiagnosis {

    private SiteFileDiagnosis() {
    }

    /** The diagnosis of a shape that is such a file, when its statuses say something of their own. */
    static Optional<Diagnosis> of(UrlPattern pattern, ShapeStats stats) {
        if (!pattern.rooted() || pattern.segments().isEmpty() || pattern.segments().get(0).literal() == null) {
            return Optional.empty();
        }
        String first = pattern.segments().get(0).literal();
        boolean alone = pattern.segments().size() == 1 && !pattern.trailingSlash();
        long unavailable = stats.hits(500, 599) + stats.hits(429, 429);
        long missing = stats.hits(400, 499) - stats.hits(429, 429);
        if (alone && first.equals(SiteFiles.ROBOTS)) {
            if (unavailable > 0) {
                return Optional.of(new Diagnosis("robots_unavailable", "robots.txt answered " + codes(stats) + " on "
                        + Figures.counted(unavailable, "hit") + ": Google stops crawling the site while robots.txt answers 5xx (or 429);"
                        + " urgent, make it answer 200 (or 404) again."));
            }
            if (missing >= stats.half()) {
                return Optional.of(new Diagnosis("robots_missing", "No robots.txt (" + stats.codes(400, 499) + "): crawlers find no"
                        + " rules and crawl everything; publish one (a short file is enough) to say what they should leave alone."));
            }
            if (stats.redirects() >= stats.half()) {
                return Optional.of(new Diagnosis("robots_redirect", "robots.txt redirects (" + stats.codes(300, 399) + "): crawlers"
                        + " follow a few hops (Google five) and take the rules they end at; serve it at /robots.txt itself."));
            }
            return Optional.empty();
        }
        if (stats.hits(500, 599) > 0) {
            return Optional.empty(); // a server error says the same as anywhere
        }
        if (alone && SiteFiles.isSitemap(first) && missing >= stats.half()) {
            return Optional.of(new Diagnosis("sitemap_missing", "Sitemap missing (" + stats.codes(400, 499) + "): crawlers were told"
                    + " of " + first + " (robots.txt, a search console) and find nothing; publish it, or remove it from where it is named."));
        }
        if (alone && first.equals(SiteFiles.FAVICON) && missing >= stats.half()) {
            return Optional.of(new Diagnosis("site_file_missing", "No favicon (" + stats.codes(400, 499) + "): search results show a"
                    + " blank icon beside the site; add /favicon.ico, or name the icon with <link rel=\"icon\">."));
        }
        if (alone && SiteFiles.isAds(first) && missing >= stats.half()) {
            return Optional.of(new Diagnosis("site_file_missing", "No " + first + " (" + stats.codes(400, 499) + "): it matters only"
                    + " to a site that sells ads (ad buyers then pass over sellers it does not list); otherwise nothing to fix."));
        }
        if (first.equals(SiteFiles.WELL_KNOWN) && missing >= stats.half()) {
            return Optional.of(new Diagnosis("site_file_missing", "A well-known address (RFC 8615: security.txt, app links, password"
                    + " change) that crawlers look for by themselves (" + stats.codes(400, 499) + "); nothing to fix unless the site"
                    + " means to publish it."));
        }
        return Optional.empty();
    }

    /** The statuses that stop a crawl: 5xx and 429. */
    private static String codes(ShapeStats stats) {
        String server = stats.codes(500, 599);
        String tooMany = stats.codes(429, 429);
        return server.isEmpty() ? tooMany : tooMany.isEmpty() ? server : server + ", " + tooMany;
    }
}
