package dev.crawlerrors.report.pattern;

import dev.crawlerrors.store.UrlPattern;
import java.util.List;

/**
 * What a shape's redirects mean, said only on evidence: the same shape with (or without) a
 * trailing slash answered without redirecting (then the redirect adds or removes the slash). A
 * redirect whose target the log does not give is given no cause: guessing from the site's other
 * redirects named causes that were not there.
 */
final class RedirectDiagnosis {

    private final List<ShapeGeneralizer.Shape> shapes;
    private final PlaceholderNames names;

    RedirectDiagnosis(List<ShapeGeneralizer.Shape> shapes, PlaceholderNames names) {
        this.shapes = shapes;
        this.names = names;
    }

    Diagnosis of(ShapeGeneralizer.Shape shape) {
        int way = slashWay(shape);
        UrlPattern pattern = shape.pattern();
        String codes = shape.stats().codes(300, 399);
        if (way != 0) {
            boolean adds = way > 0;
            String target = names.text(new UrlPattern(true, pattern.segments(), adds));
            return new Diagnosis(adds ? "trailing_slash_added" : "trailing_slash_removed", "Redirect (" + codes + ") that "
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
        if (!pattern.rooted() || pattern.segments().isEmpty() || !shape.stats().mostlyRedirects()) {
            return 0;
        }
        for (ShapeGeneralizer.Shape other : shapes) {
            UrlPattern twin = other.pattern();
            if (twin.rooted() && twin.trailingSlash() != pattern.trailingSlash() && sameSegments(twin, pattern)
                    && !other.stats().mostlyRedirects()) {
                return pattern.trailingSlash() ? -1 : 1;
            }
        }
        return 0;
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
}
