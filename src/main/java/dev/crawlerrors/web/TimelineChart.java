package dev.crawlerrors.web;

import dev.crawlerrors.report.Overview;
import dev.crawlerrors.text.Figures;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A timeline of error hits as server-rendered SVG: a bar per time bucket, stacked by status class,
 * each a link to the report for that bucket; a labelled axis of hits and one of time. Drawn in
 * pixels (not scaled to its box), so its labels stay readable on a phone, where it scrolls.
 */
public record TimelineChart(int width, int height, int plotLeft, int plotTop, int plotBottom, List<Bar> bars,
        List<Tick> yTicks, List<Tick> xTicks, String yLabel, String xLabel) {

    /** One bucket: its stacked parts, its link and what it says when pointed at. */
    public record Bar(double x, double width, List<Part> parts, String href, String label) {
    }

    /** One status class of a bar. */
    public record Part(double y, double height, String statusClass) {
    }

    /** A labelled position on an axis. */
    public record Tick(double position, String label) {
    }

    static final List<String> CLASSES = List.of("3xx", "4xx", "5xx");
    private static final int LEFT = 56;
    private static final int RIGHT = 12;
    private static final int TOP = 10;
    private static final int BOTTOM = 42;
    private static final int MAX_X_LABELS = 8;
    /** Room for one label of the time axis ({@code 2025-05-14} or {@code 05-14 09:00} at 11 px), with a gap. */
    static final int X_LABEL_PX = 72;

    /** The chart of {@code buckets}, {@code height} pixels high, each bar a link through {@code links}. */
    static TimelineChart of(List<Overview.TimeBucket> buckets, ReportLinks links, String interval, int height, int maxWidth) {
        int n = Math.max(1, buckets.size());
        double slot = Math.max(3, Math.min(40, (double) (maxWidth - LEFT - RIGHT) / n));
        int width = (int) Math.ceil(LEFT + RIGHT + slot * n);
        int plotBottom = height - BOTTOM;
        long max = buckets.stream().mapToLong(Overview.TimeBucket::errorHits).max().orElse(0);
        long top = niceCeiling(max);
        double scale = top == 0 ? 0 : (plotBottom - TOP) / (double) top;
        List<Bar> bars = new ArrayList<>();
        for (int i = 0; i < buckets.size(); i++) {
            Overview.TimeBucket bucket = buckets.get(i);
            double x = LEFT + i * slot + (slot > 4 ? 1 : 0);
            double y = plotBottom;
            List<Part> parts = new ArrayList<>();
            StringBuilder label = new StringBuilder(bucket.start()).append(": ").append(Figures.counted(bucket.errorHits(), "error hit"));
            for (String statusClass : classes(bucket)) {
                long hits = bucket.byClass().getOrDefault(statusClass, 0L);
                if (hits > 0) {
                    double h = Math.max(1, hits * scale);
                    y -= h;
                    parts.add(new Part(round(y), round(h), statusClass));
                    label.append(", ").append(Figures.grouped(hits)).append(" × ").append(statusClass);
                }
            }
            String href = links.with("from", bucket.from()).with("to", bucket.to()).report();
            bars.add(new Bar(round(x), round(Math.max(1, slot - (slot > 4 ? 2 : 0))), parts, href, label.toString()));
        }
        List<Tick> yTicks = new ArrayList<>();
        // 0, the middle and the top; the middle only where it is a whole number (not for a top of 1 or 5)
        for (long value : top % 2 == 0 ? new long[] {0, top / 2, top} : new long[] {0, top}) {
            if (top > 0) {
                yTicks.add(new Tick(round(plotBottom - value * scale), Figures.grouped(value)));
            }
        }
        List<Tick> xTicks = new ArrayList<>();
        // at most eight labels, and none closer to the next than one label's width: four days on 40 px bars overlapped
        int every = Math.max(1, Math.max((int) Math.ceil(buckets.size() / (double) MAX_X_LABELS), (int) Math.ceil(X_LABEL_PX / slot)));
        for (int i = 0; i < buckets.size(); i += every) {
            xTicks.add(new Tick(round(LEFT + i * slot + slot / 2), axisLabel(buckets.get(i).start(), interval)));
        }
        return new TimelineChart(width, height, LEFT, TOP, plotBottom, bars, yTicks, xTicks, "error hits",
                interval.equals("hour") ? "hour (local time)" : "day (local time)");
    }

    /** The status classes of a bucket, 3xx at the bottom, then 4xx, 5xx and any other. */
    private static List<String> classes(Overview.TimeBucket bucket) {
        List<String> out = new ArrayList<>(CLASSES);
        bucket.byClass().keySet().stream().filter(c -> !CLASSES.contains(c)).sorted().forEach(out::add);
        return out;
    }

    /** An hour as {@code 05-14 09:00}, a day as {@code 2025-05-14}. */
    private static String axisLabel(String start, String interval) {
        return interval.equals("hour") ? start.substring(5, 10) + " " + start.substring(11) : start;
    }

    /** The smallest of 1, 2, 5 times a power of ten that is at least {@code n}. */
    static long niceCeiling(long n) {
        if (n <= 0) {
            return 0;
        }
        long power = 1;
        while (power * 10 <= n) {
            power *= 10;
        }
        for (long step : new long[] {1, 2, 5, 10}) {
            if (step * power >= n) {
                return step * power;
            }
        }
        return 10 * power;
    }

    static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    /** A number for an SVG attribute: one decimal, a point whatever the locale. */
    public static String n(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
