package dev.crawlerrors.web;

import dev.crawlerrors.report.Overview;
import dev.crawlerrors.report.ReportParameters;
import dev.crawlerrors.text.Figures;
import java.util.List;
import java.util.Map;

/** What the overview page draws: the timeline, the error rate, the breakdowns and response times, each linking into the report. */
public record OverviewView(Overview overview, ReportLinks links, java.util.List<dev.crawlerrors.report.CrawlBudget.Segment> budget) {

    /** A segment's share of its hits in one status class, as a bar's width in percent. */
    public String budgetWidth(dev.crawlerrors.report.CrawlBudget.Segment segment, String statusClass) {
        long hits = segment.hits();
        return hits == 0 ? "0" : String.format(java.util.Locale.ROOT, "%.1f", 100.0 * segment.byClass().get(statusClass) / hits);
    }

    /** The share of a segment's hits that got a page, in percent. */
    public String pageShare(dev.crawlerrors.report.CrawlBudget.Segment segment) {
        return RateChart.percent(segment.pageShare());
    }

    /** The URLs page of one segment, every state. */
    public String budgetLink(dev.crawlerrors.report.CrawlBudget.Segment segment) {
        return links.with("url", segment.segment()).with("state", "broken,redirected,ok").urls();
    }

    public Nav nav() {
        return new Nav("overview", links);
    }

    public FilterBar bar() {
        return new FilterBar(ReportLinks.OVERVIEW_PATH, links);
    }

    public String total() {
        return Figures.counted(overview.total(), "error hit");
    }

    public TimelineChart timeline() {
        return overview.timeline().isEmpty() ? null : TimelineChart.of(overview.timeline(), links, overview.interval(), overview.timeZone(), 260, 1200);
    }

    public RateChart rate() {
        TimelineChart timeline = timeline();
        return timeline == null ? null : RateChart.of(timeline, overview.timeline(), links, 200);
    }

    public BarList byStatus() {
        return BarList.of("by-status", "By status", overview.byStatus(), v -> links.with("status", v).report());
    }

    public BarList byBotType() {
        return BarList.of("by-bot-type", "By bot type", overview.byBotType(), v -> links.with("bot", v).report());
    }

    public BarList byCrawler() {
        return BarList.of("by-crawler", "By crawler", overview.byCrawler(), v -> links.with("crawler", v).report());
    }

    public BarList byVerification() {
        return BarList.of("by-verification", "By verification", overview.byVerification(), v -> links.with("verification", v).report());
    }

    public String spoofedLeftOut() {
        return Figures.counted(overview.spoofedLeftOut(), "spoofed hit");
    }

    public String spoofedLink() {
        return links.with("verification", "spoofed").report();
    }

    /** The intervals the overview may be drawn by other than its own, each with its link. */
    public List<Map.Entry<String, String>> otherIntervals() {
        return ReportParameters.INTERVALS.stream().filter(i -> !i.equals(overview.interval()))
                .map(i -> Map.entry(i, links.overview(i))).toList();
    }

    /** The fewest crawler hits a bucket's rate is drawn for. */
    public int rateMinHits() {
        return RateChart.MIN_HITS;
    }

    public String statusLink(String status) {
        return status.equals("all") ? links.report() : links.with("status", status).report();
    }

    /** A duration read from the buckets: as precise as it is known (three significant digits), grouped. */
    public String ms(double ms) {
        return Figures.significant(ms, 3);
    }

    public String grouped(long n) {
        return Figures.grouped(n);
    }

    public String json() {
        return links.overviewJson();
    }
}
