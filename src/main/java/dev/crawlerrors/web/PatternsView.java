package dev.crawlerrors.web;

import dev.crawlerrors.report.PatternStates;
import dev.crawlerrors.report.pattern.Diagnosis;
import dev.crawlerrors.report.pattern.ErrorPattern;
import dev.crawlerrors.report.pattern.ExploitProbes;
import dev.crawlerrors.report.pattern.PatternReport;
import dev.crawlerrors.report.pattern.UrlHits;
import dev.crawlerrors.text.Figures;
import dev.crawlerrors.text.ShownText;
import java.util.List;
import java.util.Map;

/** What the patterns page shows: each URL pattern of the error hits, with a link to the report filtered to it. */
public record PatternsView(PatternReport report, ReportLinks links, String timeZone, Map<String, PatternStates.Now> now,
        Map<String, dev.crawlerrors.report.PatternSitemaps.Listed> listed, List<dev.crawlerrors.store.StoredSitemap> sitemaps) {

    /** "96 of these 110 URLs are in the sitemap", or null when no sitemap is held. */
    public String sitemapText(ErrorPattern pattern) {
        dev.crawlerrors.report.PatternSitemaps.Listed found = listed.get(pattern.pattern());
        return found == null ? null : found.text();
    }

    /** What the pattern's URLs are now ("24 URLs, 21 still 404, 3 fixed since ..."), or null when that is not known. */
    public String nowText(ErrorPattern pattern) {
        PatternStates.Now found = now.get(pattern.pattern());
        return found == null ? null : found.text();
    }

    /** The pattern's diagnosis, "fixed: ..." when all its URLs are. */
    public Diagnosis diagnosis(ErrorPattern pattern) {
        return dev.crawlerrors.report.PatternSitemaps.diagnosis(listed.get(pattern.pattern()),
                PatternStates.diagnosis(pattern, now.get(pattern.pattern())), sitemaps);
    }

    public Nav nav() {
        return new Nav("patterns", links);
    }

    public FilterBar bar() {
        return new FilterBar(ReportLinks.PATTERNS_PATH, links);
    }

    public String total() {
        return Figures.counted(report.total(), "error hit");
    }

    public String count() {
        return Figures.counted(report.patterns().size(), "pattern");
    }

    public List<ErrorPattern> patterns() {
        return report.patterns();
    }

    /** The report filtered to one pattern. */
    public String reportLink(ErrorPattern pattern) {
        return links.with("pattern", pattern.pattern()).report();
    }

    /** The report filtered to one pattern and one of its statuses. */
    public String statusLink(ErrorPattern pattern, int status) {
        return links.with("pattern", pattern.pattern()).with("status", Integer.toString(status)).report();
    }

    public String hits(ErrorPattern pattern) {
        return Figures.grouped(pattern.hits());
    }

    public String share(ErrorPattern pattern) {
        return RateChart.percent(pattern.share());
    }

    public List<Map.Entry<Integer, Long>> statuses(ErrorPattern pattern) {
        return List.copyOf(pattern.statuses().entrySet());
    }

    public String grouped(long n) {
        return Figures.grouped(n);
    }

    /** One of a pattern's most requested URLs: {@code 1,482 × /robots.txt}, "at least" where it could not be counted alone. */
    public String topUrl(UrlHits url) {
        return (url.exact() ? "" : "at least ") + Figures.grouped(url.hits()) + " × " + ShownText.of(url.url());
    }

    public boolean isProbe(String url) {
        return ExploitProbes.ofUrl(url).isPresent();
    }

    public String probeAdvice(String url) {
        return ExploitProbes.ofUrl(url).map(ExploitProbes::diagnosis).orElse("");
    }

    public String json() {
        return links.patternsJson();
    }
}
