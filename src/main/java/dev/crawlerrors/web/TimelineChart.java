package dev.crawlerrors.web;

import dev.crawlerrors.report.Overview;
import dev.crawlerrors.text.Figures;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A timeline of error hits as server-rendered SVG: a bar per time bucket, stacked by status class,
 * each a link to the report for that bucket; a labelled axis of hits and one of time. Drawn across
 * the whole width it is given, however few its buckets, and scaled by the page to the width it has;
 * on a phone (see layout.jte) and where its bars need more than that width it is shown at its own
 * size in a box that scrolls, so its labels stay readable.
 */
public record TimelineChart(int width, int height, int plotLeft, int plotTop, int plotBottom, List<Bar> bars,
        List<Tick> yTicks, List<Tick> xTicks, String yLabel, String xLabel, boolean overflows) {

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
    /** The widest a bar is drawn: four days' bars across a page were blocks, not bars. */
    private static final double MAX_BAR_PX = 48;
    /** The round numbers an axis may stop at, times a power of ten: 21 stops at 25, 63 at 70. */
    private static final double[] ROUND = {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 10};
    /** Room for one label of the time axis ({@code 2025-05-14} or {@code 05-14 09:00} at 11 px), with a gap. */
    static final int X_LABEL_PX = 72;

    /**
     * The chart of {@code buckets}, {@code height} pixels high, each bar a link through {@code links}; its time axis
     * names {@code timeZone}, the zone its buckets are in (the report's, which need not be the reader's).
     */
    static TimelineChart of(List<Overview.TimeBucket> buckets, ReportLinks links, String interval, String timeZone, int height, int maxWidth) {
        int n = Math.max(1, buckets.size());
        double slot = Math.max(3, (double) (maxWidth - LEFT - RIGHT) / n);
        int width = (int) Math.ceil(LEFT + RIGHT + slot * n);
        double barWidth = Math.min(MAX_BAR_PX, Math.max(1, slot - (slot > 4 ? 2 : 0)));
        int plotBottom = height - BOTTOM;
        long max = buckets.stream().mapToLong(Overview.TimeBucket::errorHits).max().orElse(0);
        long top = niceCeiling(max);
        double scale = top == 0 ? 0 : (plotBottom - TOP) / (double) top;
        List<Bar> bars = new ArrayList<>();
        for (int i = 0; i < buckets.size(); i++) {
            Overview.TimeBucket bucket = buckets.get(i);
            double x = LEFT + i * slot + (slot - barWidth) / 2;
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
            bars.add(new Bar(round(x), round(barWidth), parts, href, label.toString()));
        }
        List<Tick> yTicks = new ArrayList<>();
        long step = tickStep(top);
        for (long value = 0; top > 0 && value <= top; value += step) {
            yTicks.add(new Tick(round(plotBottom - value * scale), Figures.grouped(value)));
        }
        List<Tick> xTicks = new ArrayList<>();
        // at most eight labels, and none closer to the next than one label's width: four days on 40 px bars overlapped
        int every = Math.max(1, Math.max((int) Math.ceil(buckets.size() / (double) MAX_X_LABELS), (int) Math.ceil(X_LABEL_PX / slot)));
        for (int i = 0; i < buckets.size(); i += every) {
            xTicks.add(new Tick(round(LEFT + i * slot + slot / 2), axisLabel(buckets.get(i).start(), interval)));
        }
        return new TimelineChart(width, height, LEFT, TOP, plotBottom, bars, yTicks, xTicks, "error hits", switch (interval) {
            case "hour" -> "hour (" + timeZone + ")";
            case "week" -> "week from Monday (" + timeZone + ")";
            default -> "day (" + timeZone + ")";
        }, width > maxWidth);
    }

    /**
     * The narrowest it is shown, in CSS pixels: its own width where its bars needed more than it was
     * given (hundreds of hours asked for), else 0, scaled to its box.
     */
    public int minWidth() {
        return overflows ? width : 0;
    }

    /** The status classes of a bucket, 3xx at the bottom, then 4xx, 5xx and any other. */
    private static List<String> classes(Overview.TimeBucket bucket) {
        List<String> out = new ArrayList<>(CLASSES);
        bucket.byClass().keySet().stream().filter(c -> !CLASSES.contains(c)).sorted().forEach(out::add);
        return out;
    }

    /** An hour as {@code 05-14 09:00}, a day or a week as {@code 2025-05-14}. */
    private static String axisLabel(String start, String interval) {
        return interval.equals("hour") ? start.substring(5, 10) + " " + start.substring(11) : start;
    }

    /** The smallest round number (a whole {@link #ROUND} times a power of ten) that is at least {@code n}: 21 is 25, 63 is 70. */
    static long niceCeiling(long n) {
        if (n <= 0) {
            return 0;
        }
        long power = 1;
        while (power * 10 <= n) {
            power *= 10;
        }
        for (double round : ROUND) {
            double value = round * power;
            if (value == Math.rint(value) && value >= n) {
                return (long) value;
            }
        }
        return 10 * power;
    }

    /**
     * The step of the axis's labels: a 1, 2 or 5 times a power of ten that divides {@code top} into
     * two to seven parts, the fewest such (0, 5, ... 25; 0, 10, ... 70; 0, 50, 100); {@code top} itself
     * when none does (a top of 1 or 7).
     */
    static long tickStep(long top) {
        long best = top;
        for (long power = 1; power <= Math.max(1, top); power *= 10) {
            for (long step : new long[] {power, 2 * power, 5 * power}) {
                long parts = top / step;
                if (top % step == 0 && parts >= 2 && parts <= 7 && (best == top || parts < top / best)) {
                    best = step;
                }
            }
        }
        return Math.max(1, best);
    }

    static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    /** A number for an SVG attribute: one decimal, a point whatever the locale. */
    public static String n(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
