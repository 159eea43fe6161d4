package dev.crawlerrors.alert;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * A burst of server errors: a crawler family got at least {@code minHits} 5xx answers within
 * {@code window}. A site that answers a crawler 5xx for long is crawled less, and its pages dropped.
 */
record ServerErrorBurstRule(String name, String family, String severity, long minHits, Duration window) implements AlertRule {

    static final String KIND = "server-error-burst";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public List<Firing> firing(CrawlCounts counts, long now, ZoneId zone) {
        List<Firing> firing = new ArrayList<>();
        for (CrawlCounts.FamilyWindow family : counts.families(now, window)) {
            if (covers(family.family()) && family.serverErrors() >= minHits) {
                String summary = family.family() + "'s " + AlertRule.counted(counts.counted()) + " crawlers got "
                        + AlertRule.plural(family.serverErrors(), "server error") + " (5xx) in the last " + AlertRule.spoken(window)
                        + ", of " + AlertRule.plural(family.hits(), "hit");
                ReportLink link = new ReportLink().with("status", "5xx").with("crawler", family.crawlers())
                        .with("verification", counts.counted().stream().map(Enum::name).sorted().toList()).from(now - window.toMillis(), zone);
                firing.add(new Firing(key(family.family()), labels("family", family.family()), summary, link));
            }
        }
        return firing;
    }
}
