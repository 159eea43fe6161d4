package dev.crawlerrors.alert;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * An error-rate jump: over {@code window}, a crawler family's share of 4xx and 5xx answers is at
 * least {@code factor} times its share over the seven days before, and at least {@code minRate},
 * on at least {@code minHits} hits (and {@code minBaselineHits} in the week, so the comparison
 * means something). What the family always gets (a site's steady 404s) does not fire; a change does.
 */
record ErrorRateRule(String name, String family, String severity, Duration window, double factor, double minRate, long minHits,
        long minBaselineHits) implements AlertRule {

    static final String KIND = "error-rate-jump";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public List<Firing> firing(CrawlCounts counts, long now, ZoneId zone) {
        List<Firing> firing = new ArrayList<>();
        for (CrawlCounts.FamilyWindow family : counts.families(now, window)) {
            if (!covers(family.family()) || family.hits() < minHits || family.baselineHits() < minBaselineHits) {
                continue;
            }
            double rate = (double) family.errors() / family.hits();
            double baseline = (double) family.baselineErrors() / family.baselineHits();
            if (rate >= minRate && rate >= factor * baseline) {
                String summary = family.family() + "'s " + AlertRule.counted(counts.counted()) + " crawlers got errors (4xx, 5xx) on "
                        + AlertRule.percent(rate) + " of their hits in the last " + AlertRule.spoken(window) + " ("
                        + String.format(java.util.Locale.ROOT, "%,d of %,d", family.errors(), family.hits()) + "), against "
                        + AlertRule.percent(baseline) + " over the 7 days before";
                ReportLink link = new ReportLink().with("status", List.of("4xx", "5xx")).with("crawler", family.crawlers())
                        .with("verification", counts.counted().stream().map(Enum::name).sorted().toList()).from(now - window.toMillis(), zone);
                firing.add(new Firing(key(family.family()), labels("family", family.family()), summary, link));
            }
        }
        return firing;
    }
}
