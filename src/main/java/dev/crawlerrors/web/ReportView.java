package dev.crawlerrors.web;

import dev.crawlerrors.report.ReportColumns;
import dev.crawlerrors.report.ReportPage;
import java.util.List;

/**
 * What the HTML report template needs: the page, the column labels, page links that keep the
 * request's filters, the sentence to show when there are no rows, and the published IP lists the
 * verdicts rest on (with their creation and fetch times).
 */
public record ReportView(ReportPage page, ReportLinks links, boolean anythingRecorded, boolean filtered, List<String> evidenceSources) {

    public List<String> labels() {
        return ReportColumns.LABELS;
    }

    /** Numbers are right-aligned, their headers with them. */
    public boolean isNumeric(String label) {
        return label.equals("Status") || label.equals("Duration ms");
    }

    public String emptyMessage() {
        if (!anythingRecorded) {
            return "Nothing has been recorded yet: no crawler requests are in the store. "
                    + "Import an access log with: crawl-errors import FILE";
        }
        return filtered
                ? "No error hits match these filters."
                : "No crawler request has had an error response.";
    }

    public String firstLink() {
        return links.page(1);
    }

    public String previousLink() {
        return links.page(page.page() - 1);
    }

    public String nextLink() {
        return links.page(page.page() + 1);
    }

    public String lastLink() {
        return links.page(page.pages());
    }

    public String csvLink() {
        return links.csv();
    }

    /** The newest report with the same filters: where to go when newer hits exist. */
    public String freshLink() {
        return links.fresh();
    }

    public String jsonLink() {
        return links.json(page.page());
    }
}
