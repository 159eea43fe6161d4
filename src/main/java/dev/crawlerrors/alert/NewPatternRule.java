package dev.crawlerrors.alert;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A new error pattern: a URL shape ({@link UrlShape}) that first erred within {@code newFor} got at
 * least {@code minHits} errors (4xx, 5xx) within {@code window}: a deploy that breaks a kind of page.
 * A shape that has always erred (a site's old dead links) never fires. At most {@link #ONE_BY_ONE}
 * shapes a rule fire an alert each, those that first erred earliest (so the same ones while they
 * hold); the rest fire one alert together, with their count: a deploy that breaks hundreds of
 * shapes is one page to read, not hundreds.
 */
record NewPatternRule(String name, String severity, long minHits, Duration window, Duration newFor) implements AlertRule {

    static final String KIND = "new-pattern";
    /** New shapes a rule alerts of one by one; the others go in one alert. */
    static final int ONE_BY_ONE = 10;
    /** The {@code shape} label, and the key, of the alert of the shapes beyond {@link #ONE_BY_ONE}. */
    static final String MORE_SHAPES = "(more shapes)";
    /** Shapes a grouped alert's summary names. */
    private static final int NAMED = 5;

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
        List<CrawlCounts.ShapeWindow> fresh = new ArrayList<>();
        for (CrawlCounts.ShapeWindow shape : counts.shapes(now, window)) {
            if (shape.errors() >= minHits && shape.firstSeenMillis() >= now - newFor.toMillis()) {
                fresh.add(shape);
            }
        }
        fresh.sort(Comparator.comparingLong(CrawlCounts.ShapeWindow::firstSeenMillis).thenComparing(CrawlCounts.ShapeWindow::shape));
        List<Firing> firing = new ArrayList<>();
        for (CrawlCounts.ShapeWindow shape : fresh.subList(0, Math.min(ONE_BY_ONE, fresh.size()))) {
            String summary = "New error pattern " + shape.shape() + ": " + AlertRule.plural(shape.errors(), "error") + " ("
                    + statuses(shape.statuses()) + ") from " + AlertRule.counted(counts.counted()) + " crawlers in the last "
                    + AlertRule.spoken(window) + "; it first erred at " + ReportLink.minute(shape.firstSeenMillis(), zone);
            ReportLink link = errors(counts);
            if (!shape.shape().equals(UrlShape.NOT_A_PATH)) {
                link.with("pattern", shape.shape());
            }
            link.from(shape.firstSeenMillis(), zone);
            firing.add(new Firing(key(shape.shape()), labels("shape", shape.shape()), summary, link));
        }
        if (fresh.size() > ONE_BY_ONE) {
            firing.add(more(fresh.subList(ONE_BY_ONE, fresh.size()), counts, zone));
        }
        return firing;
    }

    /** The one alert of the new shapes beyond {@link #ONE_BY_ONE}: how many, the busiest few, a link to all the errors since. */
    private Firing more(List<CrawlCounts.ShapeWindow> shapes, CrawlCounts counts, ZoneId zone) {
        long errors = shapes.stream().mapToLong(CrawlCounts.ShapeWindow::errors).sum();
        String named = shapes.stream()
                .sorted(Comparator.comparingLong(CrawlCounts.ShapeWindow::errors).reversed().thenComparing(CrawlCounts.ShapeWindow::shape))
                .limit(NAMED).map(s -> s.shape() + " (" + s.errors() + ")").collect(Collectors.joining(", "));
        String summary = AlertRule.plural(shapes.size(), "more new error pattern") + " beyond the " + ONE_BY_ONE + " alerted one by one: "
                + AlertRule.plural(errors, "error") + " from " + AlertRule.counted(counts.counted()) + " crawlers in the last "
                + AlertRule.spoken(window) + ", the most on " + named + (shapes.size() > NAMED ? ", ..." : "");
        long first = shapes.get(0).firstSeenMillis();
        ReportLink link = errors(counts);
        link.from(first, zone);
        return new Firing(key(MORE_SHAPES), labels("shape", MORE_SHAPES), summary, link);
    }

    /** The report's crawl errors of the counted crawlers. */
    private static ReportLink errors(CrawlCounts counts) {
        return new ReportLink().with("status", List.of("4xx", "5xx"))
                .with("verification", counts.counted().stream().map(Enum::name).sorted().toList());
    }

    /** {@code 404 × 12, 410 × 1}: the statuses, most first. */
    private static String statuses(Map<Integer, Long> statuses) {
        return statuses.entrySet().stream()
                .sorted(Map.Entry.<Integer, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(4).map(e -> e.getKey() + " \u00d7 " + e.getValue()).collect(Collectors.joining(", "));
    }
}
