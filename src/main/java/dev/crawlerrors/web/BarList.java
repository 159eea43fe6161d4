package dev.crawlerrors.web;

import dev.crawlerrors.report.Overview;
import dev.crawlerrors.text.Figures;
import java.util.List;
import java.util.function.Function;

/**
 * Error hits by one value (status, bot type, crawler, verdict) as a list of horizontal bars, each a
 * link to the report filtered to that value.
 *
 * @param id the list's element id
 */
public record BarList(String id, String title, List<Row> rows) {

    /** One value: its bar's width (percent of the largest), count, share and link. */
    public record Row(String value, String hits, String share, double width, String href) {
    }

    static BarList of(String id, String title, List<Overview.Tally> tallies, Function<String, String> href) {
        long max = tallies.stream().mapToLong(Overview.Tally::hits).max().orElse(1);
        List<Row> rows = tallies.stream().map(t -> new Row(t.value(), Figures.grouped(t.hits()), RateChart.percent(t.share()),
                TimelineChart.round(100.0 * t.hits() / Math.max(1, max)), href.apply(t.value()))).toList();
        return new BarList(id, title, rows);
    }
}
