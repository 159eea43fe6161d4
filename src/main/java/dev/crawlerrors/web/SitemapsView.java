package dev.crawlerrors.web;

import dev.crawlerrors.report.SitemapsPage;
import dev.crawlerrors.text.Figures;

/** What the sitemaps page shows: each sitemap's URLs by state, those the chosen crawler did not fetch lately, and the off-map URLs. */
public record SitemapsView(SitemapsPage page, ReportLinks links) {

    public Nav nav() {
        return new Nav("sitemaps", links);
    }

    public String jsonLink() {
        return links.sitemaps(ReportLinks.SITEMAPS_JSON_PATH);
    }

    public String csvLink() {
        return links.sitemaps(ReportLinks.SITEMAPS_CSV_PATH);
    }

    /** A URL's own page, keeping the view's crawler filters and the snapshot. */
    public String urlLink(String url, String host) {
        return links.url(url, host);
    }

    public String grouped(long n) {
        return Figures.grouped(n);
    }

    public String counted(long n, String what) {
        return Figures.counted(n, what);
    }

    public String orDash(Object value) {
        return value == null ? "–" : value.toString();
    }

    /** How many sitemap URLs are not fetched lately beyond those listed. */
    public long notShown() {
        return page.neverFetchedRecent() - page.neverFetchedRecently().size();
    }
}
