package dev.crawlerrors.report.pattern;

import dev.crawlerrors.store.UrlPattern;
import java.util.List;

/**
 * What a shape's redirects mean, said only on evidence. Where the log records their targets (nginx
 * {@code $sent_http_location}, Apache {@code %{Location}o}, a JSON field), the commonest kind of
 * target says it: the same path with a slash added or removed, another host, the home page (a soft
 * 404), another address; and a target that redirects again makes a chain. Where it does not, the
 * same shape with (or without) a trailing slash answered without redirecting says the redirect adds
 * or removes the slash; else no cause is given: guessing from the site's other redirects named
 * causes that were not there.
 */
final class RedirectDiagnosis {

    private final List<ShapeGeneralizer.Shape> shapes;
    private final PlaceholderNames names;

    RedirectDiagnosis(List<ShapeGeneralizer.Shape> shapes, PlaceholderNames names) {
        this.shapes = shapes;
        this.names = names;
    }

    Diagnosis of(ShapeGeneralizer.Shape shape) {
        UrlPattern pattern = shape.pattern();
        String codes = shape.stats().codes(300, 399);
        RedirectTargets targets = shape.stats().targets;
        if (targets != null && targets.hits() * 2 >= shape.stats().redirects()) {
            return byTarget(shape, targets, codes);
        }
        int way = slashWay(shape);
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

    /** The diagnosis the targets the log recorded give: their commonest kind, or a chain when its example redirects again. */
    private Diagnosis byTarget(ShapeGeneralizer.Shape shape, RedirectTargets targets, String codes) {
        RedirectTargets.Kind kind = targets.commonest();
        RedirectTargets.Example example = targets.example(kind);
        String such = " (such as " + example.url() + " \u2192 " + example.target() + ")";
        String path = RedirectTargets.sitePath(example.target(), example.host());
        // the same path on another scheme or host is not this path again: the redirects seen here are the ones before it
        if (kind != RedirectTargets.Kind.SAME_PATH_ELSEWHERE && path != null && redirectsAgain(path)) {
            return new Diagnosis("redirect_chain", "Redirect chain (" + codes + "): the target redirects again" + such + "; point the"
                    + " first redirect, internal links and the sitemap at the final address.");
        }
        UrlPattern pattern = shape.pattern();
        return switch (kind) {
            case SLASH_ADDED, SLASH_REMOVED -> {
                boolean adds = kind == RedirectTargets.Kind.SLASH_ADDED;
                String target = pattern.rooted() && !pattern.segments().isEmpty()
                        ? names.text(new UrlPattern(true, pattern.segments(), adds)) : example.target();
                yield new Diagnosis(adds ? "trailing_slash_added" : "trailing_slash_removed", "Redirect (" + codes + ") that "
                        + (adds ? "adds" : "removes") + " a trailing slash" + such + ": " + target + " is the final form; internal"
                        + " links and the sitemap should use it.");
            }
            case OTHER_HOST -> new Diagnosis("redirect_other_host", "Redirect (" + codes + ") to another host" + such + ": internal"
                    + " links and the sitemap should use the address it ends at.");
            case SAME_PATH_ELSEWHERE -> new Diagnosis("redirect_other_host", "Redirect (" + codes + ") to the same path on another"
                    + " scheme or host" + such + ": internal links and the sitemap should use the address it ends at.");
            case HOME -> new Diagnosis("soft_404", "Redirect (" + codes + ") to the home page" + such + ": a soft 404, which search"
                    + " engines count as not found; answer 404 or 410, or redirect to the page that takes its place.");
            case ELSEWHERE -> new Diagnosis("redirect", "Redirect (" + codes + ") to another address" + such + ": internal links and"
                    + " the sitemap should point at the new address.");
        };
    }

    /** Whether {@code path}, a redirect's target, is itself an address whose hits here mostly redirect. */
    private boolean redirectsAgain(String path) {
        for (ShapeGeneralizer.Shape shape : shapes) {
            if (shape.pattern().rooted() && shape.stats().mostlyRedirects() && shape.pattern().matches(path)) {
                return true;
            }
        }
        return false;
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
