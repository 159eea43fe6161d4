package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.report.Overview;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RateChartTest {

    private static Overview.TimeBucket day(int day, long errors, long crawlerHits) {
        String start = String.format("2024-01-%02d", day);
        return new Overview.TimeBucket(start, start, start, errors, Map.of("4xx", errors), crawlerHits,
                crawlerHits == 0 ? null : (double) errors / crawlerHits);
    }

    @Test
    void aBucketOfTooFewHitsDrawsNoRateAndBreaksTheLine() {
        // one hit of one is 100%, none of two is 0%: a line jumping between them said nothing
        List<Overview.TimeBucket> buckets = List.of(day(1, 5, 20), day(2, 6, 20), day(3, 1, 1), day(4, 0, 2), day(5, 4, 40),
                day(6, 8, 40));
        TimelineChart timeline = TimelineChart.of(buckets, new ReportLinks(Map.of()), "day", "Europe/Brussels", 260, 900);

        RateChart rate = RateChart.of(timeline, buckets, new ReportLinks(Map.of()), 200);

        assertThat(rate.points()).extracting(RateChart.Point::label).containsExactly(
                "2024-01-01: 25% of 20 crawler hits were errors", "2024-01-02: 30% of 20 crawler hits were errors",
                "2024-01-05: 10% of 40 crawler hits were errors", "2024-01-06: 20% of 40 crawler hits were errors");
        assertThat(rate.lines()).hasSize(2);
        assertThat(rate.yTicks()).extracting(TimelineChart.Tick::label).containsExactly("0%", "15%", "30%");
    }
}
