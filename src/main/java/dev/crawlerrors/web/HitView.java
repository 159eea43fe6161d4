package dev.crawlerrors.web;

import dev.crawlerrors.report.HitDetail;
import dev.crawlerrors.report.ReportColumns;
import dev.crawlerrors.report.ReportRow;
import java.util.List;

/**
 * One hit's own page: every field, the crawler and the evidence behind its verdict, and links to the
 * report around it, at the snapshot the hit was read at ({@code at}, null for the newest).
 */
public record HitView(HitDetail detail, List<String> evidenceSources, String at) {

    private ReportLinks links(java.util.Map<String, List<String>> query) {
        return new ReportLinks(query, at);
    }

    public ReportRow row() {
        return detail.row();
    }

    public String duration() {
        return ReportColumns.duration(detail.row().durationMs());
    }

    /** The offset the log wrote the time with, as {@code +02:00}. */
    public String logOffset() {
        int minutes = detail.utcOffsetMinutes();
        return String.format(java.util.Locale.ROOT, "%s%02d:%02d", minutes < 0 ? "-" : "+", Math.abs(minutes) / 60, Math.abs(minutes) % 60);
    }

    public Nav nav() {
        return new Nav("hit", links(java.util.Map.of()));
    }

    public String sameUrl() {
        return links(java.util.Map.of("url", List.of(detail.row().url()))).report();
    }

    public String sameCrawler() {
        return links(java.util.Map.of("crawler", List.of(detail.row().crawler()))).report();
    }

    public String json() {
        return links(java.util.Map.of()).hitJson(detail.id());
    }
}
