package dev.crawlerrors.web;

import dev.crawlerrors.report.Overview;
import dev.crawlerrors.text.Figures;
import java.util.ArrayList;
import java.util.List;

/**
 * The error rate over time as server-rendered SVG: error hits as a share of every crawler hit
 * (same verdicts) in each bucket, one point per bucket of at least {@link #MIN_HITS} crawler hits,
 * each a link to the report for that bucket, the line broken where a bucket has fewer (one hit of
 * one, 100%, beside none of two, 0%, said nothing but jumped); axes labelled in percent and time.
 * Its buckets line up with the timeline's.
 */
public record RateChart(int width, int height, int plotLeft, int plotTop, int plotBottom, List<String> lines, List<Point> points,
        List<TimelineChart.Tick> yTicks, List<TimelineChart.Tick> xTicks, int minWidth) {

    /** The fewest crawler hits a bucket's rate is drawn for. */
    static final int MIN_HITS = 10;

    /** One bucket's rate. */
    public record Point(double x, double y, String href, String label) {
    }

    static RateChart of(TimelineChart timeline, List<Overview.TimeBucket> buckets, ReportLinks links, int height) {
        int plotBottom = height - 42;
        int plotTop = timeline.plotTop();
        double maxRate = buckets.stream().filter(RateChart::drawn).mapToDouble(Overview.TimeBucket::errorRate).max().orElse(0);
        // the axis tops at 100% or at the next 10% above the highest rate, so small rates are not a flat line
        double top = maxRate >= 0.9 || maxRate == 0 ? 1.0 : Math.ceil(maxRate * 10) / 10.0;
        List<Point> points = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < buckets.size(); i++) {
            Overview.TimeBucket bucket = buckets.get(i);
            if (!drawn(bucket)) {
                if (!line.isEmpty()) {
                    lines.add(line.toString());
                    line.setLength(0);
                }
                continue;
            }
            TimelineChart.Bar bar = timeline.bars().get(i);
            double x = TimelineChart.round(bar.x() + bar.width() / 2);
            double y = TimelineChart.round(plotBottom - bucket.errorRate() / top * (plotBottom - plotTop));
            line.append(line.isEmpty() ? "" : " ").append(TimelineChart.n(x)).append(',').append(TimelineChart.n(y));
            points.add(new Point(x, y, bar.href(), bucket.start() + ": " + percent(bucket.errorRate()) + " of "
                    + Figures.counted(bucket.crawlerHits(), "crawler hit") + " were errors"));
        }
        if (!line.isEmpty()) {
            lines.add(line.toString());
        }
        List<TimelineChart.Tick> yTicks = new ArrayList<>();
        for (int k = 0; k <= 2; k++) {
            double rate = top * k / 2;
            yTicks.add(new TimelineChart.Tick(TimelineChart.round(plotBottom - rate / top * (plotBottom - plotTop)), percent(rate)));
        }
        return new RateChart(timeline.width(), height, timeline.plotLeft(), plotTop, plotBottom, lines, points, yTicks,
                timeline.xTicks(), timeline.minWidth());
    }

    /** Whether a bucket's rate is drawn: it has one, over enough crawler hits to mean something. */
    private static boolean drawn(Overview.TimeBucket bucket) {
        return bucket.errorRate() != null && bucket.crawlerHits() >= MIN_HITS;
    }

    static String percent(double share) {
        double percent = share * 100;
        return (percent >= 10 || percent == 0 ? Long.toString(Math.round(percent)) : Figures.fixed(percent, 1)) + "%";
    }
}
