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
                return Optional.of(robotsRedirect(stats));
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

    /**
     * A robots.txt that redirects, said on the evidence the log gives. To robots.txt on another host
     * or scheme it is the usual move to https or to the site's main host, and fine; to another page
     * the crawler finds no rules there. Where the log records no target, either may be: a crawler
     * that met the 301 and then read the file (200) minutes later, as on a real shop's log, had been
     * sent to the same path elsewhere, so "serve it at /robots.txt itself" would have been wrong.
     */
    private static Diagnosis robotsRedirect(ShapeStats stats) {
        String codes = stats.codes(300, 399);
        RedirectTargets targets = stats.targets;
        if (targets != null && targets.hits() * 2 >= stats.redirects()) {
            RedirectTargets.Kind kind = targets.commonest();
            RedirectTargets.Example example = targets.example(kind);
            String such = " (such as " + example.url() + " \u2192 " + example.target() + ")";
            boolean sameFile = (kind == RedirectTargets.Kind.OTHER_HOST || kind == RedirectTargets.Kind.SAME_PATH_ELSEWHERE)
                    && robotsPath(example.target());
            if (sameFile) {
                return new Diagnosis("robots_redirect_host", "robots.txt redirects (" + codes + ") to robots.txt on another host or"
                        + " scheme" + such + ": the usual move to https or to the site's main host; crawlers take the rules of the"
                        + " file it ends at. Nothing to fix while that file answers 200.");
            }
            return new Diagnosis("robots_redirect", "robots.txt redirects (" + codes + ") to another address" + such + ": crawlers"
                    + " follow a few hops (Google five) and take the rules they end at, and a page that is not robots.txt gives none;"
                    + " serve it at /robots.txt itself.");
        }
        return new Diagnosis("robots_redirect", "robots.txt redirects (" + codes + "); the log does not say where to. To robots.txt"
                + " on https or on the site's main host is the usual move and fine; crawlers follow a few hops (Google five) and"
                + " take the rules they end at, so a redirect to any other page leaves them without rules.");
    }

    /** Whether a redirect's target is {@code /robots.txt} (on whatever host). */
    private static boolean robotsPath(String location) {
        int scheme = location.indexOf("://");
        int from = location.startsWith("//") ? location.indexOf('/', 2) : scheme > 0 ? location.indexOf('/', scheme + 3) : 0;
        if (from < 0) {
            return false;
        }
        String path = location.substring(from);
        int query = path.indexOf('?');
        return (query < 0 ? path : path.substring(0, query)).equals("/" + SiteFiles.ROBOTS);
    }

    /** The statuses that stop a crawl: 5xx and 429. */
    private static String codes(ShapeStats stats) {
        String server = stats.codes(500, 599);
        String tooMany = stats.codes(429, 429);
        return server.isEmpty() ? tooMany : tooMany.isEmpty() ? server : server + ", " + tooMany;
    }
}
