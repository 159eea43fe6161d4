package dev.crawlerrors.report.pattern;

import dev.crawlerrors.text.Figures;
import java.util.List;
import java.util.Optional;

/**
 * Reads each shape's statuses (and its neighbours') into a {@link Diagnosis}, the most telling
 * first: an exploit probe, a file crawlers fetch by themselves ({@link SiteFileDiagnosis}), server
 * faults, slowness, requests the crawler gave up on, pages that do not exist, redirects ({@link RedirectDiagnosis}), conditional
 * requests answered 304.
 */
final class Diagnoses {

    /** The share of a shape's timed hits that must be slow for the shape to be called slow. */
    private static final double SLOW_SHARE = 0.5;
    private static final String SCANNER = "security_scanner";
    /** nginx's status for a request whose client closed the connection before the answer was sent. */
    private static final int CLIENT_CLOSED = 499;

    private final RedirectDiagnosis redirects;

    Diagnoses(List<ShapeGeneralizer.Shape> shapes, PlaceholderNames names) {
        this.redirects = new RedirectDiagnosis(shapes, names);
    }

    Diagnosis of(ShapeGeneralizer.Shape shape) {
        ShapeStats stats = shape.stats();
        Optional<String> probe = probe(shape);
        if (probe.isPresent()) {
            return new Diagnosis("probe", ExploitProbes.diagnosis(probe.get()));
        }
        Optional<Diagnosis> siteFile = SiteFileDiagnosis.of(shape.pattern(), stats);
        if (siteFile.isPresent()) {
            return siteFile.get();
        }
        long serverErrors = stats.hits(500, 599);
        if (serverErrors > 0) {
            return new Diagnosis("server_error", "Server errors (" + stats.codes(500, 599) + ") on "
                    + Figures.counted(serverErrors, "hit") + ": the site failed to answer; urgent, crawlers slow down when they meet them.");
        }
        if (stats.timedHits > 0 && stats.slowHits >= SLOW_SHARE * stats.timedHits) {
            return new Diagnosis("slow", "Slow: " + percent(stats.slowHits, stats.timedHits)
                    + " of these answers took a second or more; crawlers slow their crawl on a slow site.");
        }
        if (stats.hits(CLIENT_CLOSED, CLIENT_CLOSED) >= stats.half()) {
            // nginx's own code: the crawler hung up before the answer; nothing turned it away
            return new Diagnosis("client_closed", "Closed by the crawler (" + stats.codes(CLIENT_CLOSED, CLIENT_CLOSED) + "): it hung up"
                    + " before the site answered, most often because the page took longer than it waits; look at these pages'"
                    + " response times.");
        }
        long notFound = stats.hits(404, 404) + stats.hits(410, 410);
        if (notFound >= stats.half()) {
            // the example is one that was not found: the newest of the shape may be one of its redirects
            List<String> missing = stats.notFoundExamples();
            return missing.size() > 1
                    ? new Diagnosis("not_found", "A family of " + stats.codes(404, 410) + "s: a template or link points at pages that do"
                            + " not exist (such as " + missing.get(0) + "); find where they are linked from.")
                    : new Diagnosis("not_found", "Not found (" + stats.codes(404, 410) + "): a link or sitemap entry points at a page"
                            + " that does not exist.");
        }
        if (stats.redirects() >= stats.half()) {
            return redirects.of(shape);
        }
        if (stats.hits(304, 304) >= stats.half()) {
            return new Diagnosis("not_modified", "304 Not Modified: answers to conditional requests (the crawler asked whether the page"
                    + " changed); normal, nothing to fix.");
        }
        if (stats.hits(400, 499) >= stats.half()) {
            return new Diagnosis("client_error", "Refused (" + stats.codes(400, 499) + "): the site turned these requests away; check"
                    + " that crawlers may fetch them (rules, rate limits, authentication).");
        }
        return new Diagnosis("mixed", "Mixed answers (" + stats.codes(300, 999) + "): open the report for this pattern to see which.");
    }

    /**
     * What a shape probes for, when it is an exploit probe: its words, or every URL kept as its
     * example, carry a probe's signature, or most of its hits are a scanner's.
     */
    private static Optional<String> probe(ShapeGeneralizer.Shape shape) {
        StringBuilder words = new StringBuilder();
        for (var segment : shape.pattern().segments()) {
            words.append('/').append(segment.literal() == null ? "{}" : segment.literal());
        }
        Optional<String> found = ExploitProbes.ofUrl(words.append('/').toString());
        List<String> examples = shape.stats().examples();
        if (found.isEmpty() && !examples.isEmpty() && examples.stream().allMatch(url -> ExploitProbes.ofUrl(url).isPresent())) {
            found = ExploitProbes.ofUrl(examples.get(0));
        }
        if (found.isEmpty() && shape.stats().botTypes.getOrDefault(SCANNER, 0L) >= shape.stats().half()) {
            found = Optional.of("a security scanner's requests");
        }
        return found;
    }

    private static String percent(long part, long whole) {
        return Math.round(100.0 * part / whole) + "%";
    }
}
