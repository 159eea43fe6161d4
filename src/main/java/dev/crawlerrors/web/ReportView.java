package dev.crawlerrors.web;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.report.Overview;
import dev.crawlerrors.report.ReportColumns;
import dev.crawlerrors.report.ReportPage;
import dev.crawlerrors.report.ReportRow;
import dev.crawlerrors.report.pattern.ExploitProbes;
import dev.crawlerrors.text.Figures;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the HTML report template needs: the page, the column labels, page links that keep the
 * request's filters, the filter bar, the summary above the table (hits by status, the spoofed hits
 * left out, a compact timeline; null when it was not counted in time), the sentence to show when
 * there are no rows, the published IP lists the verdicts rest on (and, when no verdict can be proven,
 * the sentence that says so: null otherwise), and the bot types the page leaves out because no
 * {@code bot} or {@code crawler} filter asked for them.
 */
public record ReportView(ReportPage page, ReportLinks links, boolean anythingRecorded, boolean filtered,
        List<String> evidenceSources, String nothingProvable, Overview summary, Set<BotType> hiddenBotTypes) {

    /** The hidden types, named as the {@code bot} parameter takes them, or empty when none is hidden. */
    public String hiddenBotTypeNames() {
        return hiddenBotTypes.stream().sorted().map(BotType::name).collect(Collectors.joining(", "));
    }

    public String everyBotTypeLink() {
        return links.everyBotType();
    }

    /** One status of the summary line: {@code 142 × 308}, a link to the report of that status. */
    public record StatusCount(String status, String hits, String href) {
    }

    /**
     * The rows' look by column, written once before the table where each cell would otherwise carry
     * it: numbers right-aligned and, on a narrow screen where each row is a card, each cell labelled
     * with its column. A page of a hundred rows is a third smaller for it.
     */
    public static final String ROW_STYLE = rowStyle();

    public List<String> labels() {
        return ReportColumns.LABELS;
    }

    /** Numbers are right-aligned, their headers with them. */
    public boolean isNumeric(String label) {
        return numeric(label);
    }

    private static boolean numeric(String label) {
        return label.equals("Status") || label.equals("Duration ms");
    }

    private static String rowStyle() {
        StringBuilder numbers = new StringBuilder();
        StringBuilder labels = new StringBuilder();
        for (int i = 0; i < ReportColumns.LABELS.size(); i++) {
            String label = ReportColumns.LABELS.get(i);
            String cell = "#hits td:nth-child(" + (i + 1) + ")";
            if (numeric(label)) {
                numbers.append(numbers.isEmpty() ? "" : ", ").append(cell);
            }
            labels.append(' ').append(cell).append("::before { content: \"").append(label).append("\"; }");
        }
        return "<style>" + numbers + " { text-align: right; font-variant-numeric: tabular-nums; }"
                + " @media (max-width: 700px) {" + labels + " " + numbers + " { text-align: left; } }</style>";
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

    public Nav nav() {
        return new Nav("report", links);
    }

    public FilterBar bar() {
        return new FilterBar(ReportLinks.HTML_PATH, links);
    }

    public List<StatusCount> byStatus() {
        return summary.byStatus().stream()
                .map(t -> new StatusCount(t.value(), Figures.grouped(t.hits()), links.with("status", t.value()).report()))
                .toList();
    }

    public String spoofedLeftOut() {
        return Figures.counted(summary.spoofedLeftOut(), "spoofed hit");
    }

    public String spoofedLink() {
        return links.with("verification", "spoofed").report();
    }

    /** The compact timeline above the table, or null when there is nothing to draw. */
    public TimelineChart timeline() {
        return summary == null || summary.timeline().isEmpty() ? null
                : TimelineChart.of(summary.timeline(), links, summary.interval(), summary.timeZone(), 96, 1200);
    }

    /** What is said of a row that is an exploit probe (by its URL or user agent); null for any other. */
    public String probe(ReportRow row) {
        return ExploitProbes.of(row.url(), row.userAgent()).map(ExploitProbes::diagnosis).orElse(null);
    }

    public String hitLink(long id) {
        return links.hit(id);
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
