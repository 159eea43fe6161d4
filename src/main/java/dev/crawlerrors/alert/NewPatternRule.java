package dev.crawlerrors.alert;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A new error pattern: a URL shape ({@link UrlShape}) that first erred within {@code newFor} got at
 * least {@code minHits} errors (4xx, 5xx) within {@code window}: a deploy that breaks a kind of page.
 * A shape that has always erred (a site's old dead links) never fires.
 */
record NewPatternRule(String name, String severity, long minHits, Duration window, Duration newFor) implements AlertRule {

    static final String KIND = "new-pattern";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public String family() {
        return null;
    }

    @Override
    public List<Firing> firing(CrawlCounts counts, long now, ZoneId zone) {
        List<Firing> firing = new ArrayList<>();
        for (CrawlCounts.ShapeWindow shape : counts.shapes(now, window)) {
            if (shape.errors() >= minHits && shape.firstSeenMillis() >= now - newFor.toMillis()) {
                String summary = "New error pattern " + shape.shape() + ": " + AlertRule.plural(shape.errors(), "error") + " ("
                        + statuses(shape.statuses()) + ") from " + AlertRule.counted(counts.counted()) + " crawlers in the last "
                        + AlertRule.spoken(window) + "; it first erred at " + ReportLink.minute(shape.firstSeenMillis(), zone);
                ReportLink link = new ReportLink().with("status", List.of("4xx", "5xx"))
                        .with("verification", counts.counted().stream().map(Enum::name).sorted().toList());
                if (!shape.shape().equals(UrlShape.NOT_A_PATH)) {
                    link.with("pattern", shape.shape());
                }
                link.from(shape.firstSeenMillis(), zone);
                firing.add(new Firing(key(shape.shape()), labels("shape", shape.shape()), summary, link));
            }
        }
        return firing;
    }

    /** {@code 404 × 12, 410 × 1}: the statuses, most first. */
    private static String statuses(Map<Integer, Long> statuses) {
        return statuses.entrySet().stream()
                .sorted(Map.Entry.<Integer, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(4).map(e -> e.getKey() + " \u00d7 " + e.getValue()).collect(Collectors.joining(", "));
    }
}
