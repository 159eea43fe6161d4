package dev.crawlerrors.web;

import dev.crawlerrors.report.UrlDetail;
import dev.crawlerrors.text.Figures;
import java.util.List;
import java.util.Map;

/** One URL's own page: its state, every hit of the view to it newest first (status changes marked), and its crawlers. */
public record UrlView(UrlDetail detail, Map<String, List<String>> query) {

    private ReportLinks links() {
        return new ReportLinks(query, detail.at());
    }

    public Nav nav() {
        return new Nav("url", links());
    }

    public String hitLink(long id) {
        return links().hit(id);
    }

    /** The report of this URL's error hits (its URL as the prefix). */
    public String reportLink() {
        return links().with("url", detail.url()).report();
    }

    /** The same page with the hits of spoofed addresses. */
    public String spoofedLink() {
        return links().with("verification", "spoofed").url(detail.url(), detail.host());
    }

    public String pageLink(int page) {
        return links().url(detail.url(), detail.host()) + "&page=" + page;
    }

    public String json() {
        return ReportLinks.URL_JSON_PATH + links().url(detail.url(), detail.host()).substring(ReportLinks.URL_PATH.length());
    }

    public String total() {
        return Figures.counted(detail.total(), "crawler hit");
    }

    public String grouped(long n) {
        return Figures.grouped(n);
    }

    public String orDash(String value) {
        return value == null ? "–" : value;
    }
}
