package dev.crawlerrors.web;

/**
 * The links between the report's pages, each keeping the filters (but the Alerts page's, which
 * lists every alert whatever the filters); {@code current} is the page shown.
 */
public record Nav(String current, ReportLinks links) {

    public String report() {
        return links.report();
    }

    public String patterns() {
        return links.patterns();
    }

    public String overview() {
        return links.overview();
    }

    public String urls() {
        return links.urls();
    }

    public String sitemaps() {
        return links.atSnapshot(null).sitemaps();
    }

    public String alerts() {
        return ReportLinks.ALERTS_PATH;
    }
}
