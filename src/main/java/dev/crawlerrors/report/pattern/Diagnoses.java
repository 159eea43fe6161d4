package dev.crawlerrors.report.pattern;

import dev.crawlerrors.store.UrlPattern;
import dev.crawlerrors.text.Figures;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads each shape's statuses (and its neighbours') into a {@link Diagnosis}, the most urgent cause
 * first: server faults, slowness, pages that do not exist, redirects (a trailing slash added or
 * removed, said which way), conditional requests answered 304.
 */
final class Diagnoses {

    private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);
    /** The share of a shape's timed hits that must be slow for the shape to be called slow. */
    private static final double SLOW_SHARE = 0.5;

    private final List<ShapeGeneralizer.Shape> shapes;
    private final PlaceholderNames names;
    /** Which way the site's own trailing-slash redirects go, when its shapes say so: +1 adds, -1 removes, 0 unknown. */
    private final int siteSlash;

    Diagnoses(List<ShapeGeneralizer.Shape> shapes, PlaceholderNames names) {
        this.shapes = shapes;
        this.names = names;
        int adds = 0;
        int removes = 0;
        for (ShapeGeneralizer.Shape shape : shapes) {
            int way = slashWay(shape);
            adds += way > 0 ? 1 : 0;
            removes += way < 0 ? 1 : 0;
        }
        this.siteSlash = Integer.compare(adds, removes);
    }

    Diagnosis of(ShapeGeneralizer.Shape shape) {
        ShapeStats stats = shape.stats();
        long serverErrors = hits(stats, 500, 599);
        if (serverErrors > 0) {
            return new Diagnosis("server_error", "Server errors (" + codes(stats, 500, 599) + ") on "
                    + Figures.counted(serverErrors, "hit") + ": the site failed to answer; urgent, crawlers slow down when they meet them.");
        }
        if (stats.timedHits > 0 && stats.slowHits >= SLOW_SHARE * stats.timedHits) {
            return new Diagnosis("slow", "Slow: " + percent(stats.slowHits, stats.timedHits)
                    + " of these answers took a second or more; crawlers slow their crawl on a slow site.");
        }
        long half = (stats.hits + 1) / 2;
        long notFound = hits(stats, 404, 404) + hits(stats, 410, 410);
        if (notFound >= half) {
            return stats.examples().size() > 1
                    ? new Diagnosis("not_found", "A family of " + codes(stats, 404, 410) + "s: a template or link points at pages that do"
                            + " not exist (such as " + stats.examples().get(0) + "); find where they are linked from.")
                    : new Diagnosis("not_found", "Not found (" + codes(stats, 404, 410) + "): a link or sitemap entry points at a page"
                            + " that does not exist.");
        }
        long redirects = stats.statuses.entrySet().stream().filter(e -> REDIRECTS.contains(e.getKey())).mapToLong(Map.Entry::getValue).sum();
        if (redirects >= half) {
            return redirect(shape);
        }
        long notModified = hits(stats, 304, 304);
        if (notModified >= half) {
            return new Diagnosis("not_modified", "304 Not Modified: answers to conditional requests (the crawler asked whether the page"
                    + " changed); normal, nothing to fix.");
        }
        long clientErrors = hits(stats, 400, 499);
        if (clientErrors >= half) {
            return new Diagnosis("client_error", "Refused (" + codes(stats, 400, 499) + "): the site turned these requests away; check"
                    + " that crawlers may fetch them (rules, rate limits, authentication).");
        }
        return new Diagnosis("mixed", "Mixed answers (" + codes(stats, 300, 999) + "): open the report for this pattern to see which.");
    }

    private Diagnosis redirect(ShapeGeneralizer.Shape shape) {
        int way = slashWay(shape);
        UrlPattern pattern = shape.pattern();
        String codes = codes(shape.stats(), 300, 399);
        if (way != 0 || (siteSlash != 0 && canTakeSlash(pattern, siteSlash))) {
            boolean adds = way != 0 ? way > 0 : siteSlash > 0;
            String target = names.text(new UrlPattern(true, pattern.segments(), adds));
            String likely = way != 0 ? "" : "most likely (as the site's other redirects do) ";
            return new Diagnosis(adds ? "trailing_slash_added" : "trailing_slash_removed", "Redirect (" + codes + ") that " + likely
                    + (adds ? "adds" : "removes") + " a trailing slash: " + target + " is the final form; internal links and the"
                    + " sitemap should use it.");
        }
        return new Diagnosis("redirect", "Redirect (" + codes + "): the log does not say where to; internal links and the sitemap"
                + " should point at the final address.");
    }

    /**
     * +1 when the shape redirects without a trailing slash while the same shape with one answers
     * without redirecting; -1 the other way round; 0 when its twin says nothing.
     */
    private int slashWay(ShapeGeneralizer.Shape shape) {
        UrlPattern pattern = shape.pattern();
        if (!pattern.rooted() || pattern.segments().isEmpty() || !mostlyRedirects(shape.stats())) {
            return 0;
        }
        for (ShapeGeneralizer.Shape other : shapes) {
            UrlPattern twin = other.pattern();
            if (twin.rooted() && twin.trailingSlash() != pattern.trailingSlash() && sameSegments(twin, pattern)
                    && !mostlyRedirects(other.stats())) {
                return pattern.trailingSlash() ? -1 : 1;
            }
        }
        return 0;
    }

    private static boolean canTakeSlash(UrlPattern pattern, int way) {
        return pattern.rooted() && !pattern.segments().isEmpty() && pattern.trailingSlash() == (way < 0);
    }

    private static boolean sameSegments(UrlPattern a, UrlPattern b) {
        if (a.segments().size() != b.segments().size()) {
            return false;
        }
        for (int i = 0; i < a.segments().size(); i++) {
            UrlPattern.Segment x = a.segments().get(i);
            UrlPattern.Segment y = b.segments().get(i);
            if (x.kind() != y.kind() || (x.kind() == UrlPattern.Kind.LITERAL && !x.literal().equals(y.literal()))) {
                return false;
            }
        }
        return true;
    }

    private static boolean mostlyRedirects(ShapeStats stats) {
        long redirects = stats.statuses.entrySet().stream().filter(e -> REDIRECTS.contains(e.getKey())).mapToLong(Map.Entry::getValue).sum();
        return redirects * 2 > stats.hits;
    }

    private static long hits(ShapeStats stats, int low, int high) {
        return stats.statuses.entrySet().stream().filter(e -> e.getKey() >= low && e.getKey() <= high).mapToLong(Map.Entry::getValue).sum();
    }

    /** The statuses from {@code low} to {@code high} the shape has, as "404" or "404, 410". */
    private static String codes(ShapeStats stats, int low, int high) {
        return String.join(", ", stats.statuses.keySet().stream().filter(s -> s >= low && s <= high).map(String::valueOf).toList());
    }

    private static String percent(long part, long whole) {
        return Math.round(100.0 * part / whole) + "%";
    }
}
