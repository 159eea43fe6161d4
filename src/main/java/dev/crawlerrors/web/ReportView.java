package dev.crawlerrors.web;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.report.ReportColumns;
import dev.crawlerrors.report.ReportPage;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the HTML report template needs: the page, the column labels, page links that keep the
 * request's filters, the sentence to show when there are no rows, the published IP lists the
 * verdicts rest on (with their creation and fetch times), and the bot types the page leaves out
 * because no {@code bot} filter asked for them.
 */
public record ReportView(ReportPage page, ReportLinks links, boolean anythingRecorded, boolean filtered, List<String> evidenceSources,
        Set<BotType> hiddenBotTypes) {

    public ReportView(ReportPage page, ReportLinks links, boolean anythingRecorded, boolean filtered, List<String> evidenceSources) {
        this(page, links, anythingRecorded, filtered, evidenceSources, Set.of());
    }

    /** The hidden types, named as the {@code bot} parameter takes them, or empty when none is hidden. */
    public String hiddenBotTypeNames() {
        return hiddenBotTypes.stream().sorted().map(BotType::name).collect(Collectors.joining(", "));
    }

    public String everyBotTypeLink() {
        return links.everyBotType();
    }

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
