package dev.crawlerrors.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The one place that knows the report's columns: their labels and how each row reads in them. */
public final class ReportColumns {

    /** The spec's eight columns, in order. */
    public static final List<String> LABELS =
            List.of("Timestamp", "IP", "Method", "URL", "Status", "Duration ms", "Bot type", "Verification");

    /** The CSV's columns: the spec's eight, then the crawler's name. */
    public static final List<String> CSV_LABELS = csvLabels();

    private ReportColumns() {
    }

    private static List<String> csvLabels() {
        List<String> labels = new ArrayList<>(LABELS);
        labels.add("Crawler");
        return List.copyOf(labels);
    }

    /** The CSV's columns when a sitemap is held: {@link #CSV_LABELS}, then whether a sitemap lists the URL. */
    public static final List<String> CSV_LABELS_WITH_SITEMAPS = withSitemaps();

    private static List<String> withSitemaps() {
        List<String> labels = new ArrayList<>(CSV_LABELS);
        labels.add("In sitemap");
        return List.copyOf(labels);
    }

    /** The row's text in each of {@link #CSV_LABELS} (and "In sitemap" when the row says), in order. */
    public static List<String> csvCells(ReportRow row) {
        List<String> cells = new ArrayList<>(cells(row));
        cells.add(row.crawler());
        if (row.inSitemap() != null) {
            cells.add(row.inSitemap() ? "yes" : "no");
        }
        return cells;
    }

    /** The row's text in each of {@link #LABELS}, in order. */
    public static List<String> cells(ReportRow row) {
        return List.of(row.timestamp(), row.ip(), row.method(), row.url(), Integer.toString(row.status()),
                duration(row.durationMs()), row.botType(), row.verification());
    }

    /** Milliseconds with one decimal place; empty when there is no duration. */
    public static String duration(Double ms) {
        return ms == null ? "" : String.format(Locale.ROOT, "%.1f", ms);
    }

    /** {@code ms} rounded half-up to one decimal place, the precision the report shows. */
    static Double oneDecimal(Double ms) {
        return ms == null ? null : Math.round(ms * 10.0) / 10.0;
    }
}
