package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.report.Overview;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimelineChartTest {

    private static List<Overview.TimeBucket> days(int n) {
        List<Overview.TimeBucket> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String day = String.format("2015-05-%02d", 10 + i);
            out.add(new Overview.TimeBucket(day, day, day, 5 + i, Map.of("3xx", 5L + i), 50, 0.1));
        }
        return out;
    }

    private static List<Double> gaps(TimelineChart chart) {
        List<Double> gaps = new ArrayList<>();
        for (int i = 1; i < chart.xTicks().size(); i++) {
            gaps.add(chart.xTicks().get(i).position() - chart.xTicks().get(i - 1).position());
        }
        return gaps;
    }

    @Test
    void fewBucketsFillTheChartsWidthWithBarsOfABoundedWidthAndDatesThatDoNotOverlap() {
        // four days drew four 40 px bars in a 160 px strip of a 1,400 px page
        TimelineChart chart = TimelineChart.of(days(4), new ReportLinks(Map.of()), "day", "Europe/Brussels", 120, 900);

        assertThat(chart.width()).isEqualTo(900);
        assertThat(chart.bars()).hasSize(4).allSatisfy(bar -> assertThat(bar.width()).isEqualTo(48));
        assertThat(chart.bars().get(3).x() + 48).isGreaterThan(800);
        assertThat(chart.xTicks()).extracting(TimelineChart.Tick::label).containsExactly("2015-05-10", "2015-05-11", "2015-05-12",
                "2015-05-13");
        assertThat(gaps(chart)).allSatisfy(gap -> assertThat(gap).isGreaterThanOrEqualTo(TimelineChart.X_LABEL_PX));
        // the days are the report's zone's, which the axis names: "local time" read as the reader's own
        assertThat(chart.xLabel()).isEqualTo("day (Europe/Brussels)");
    }

    @Test
    void theAxisStopsAtARoundNumberJustAboveTheHighestBar() {
        assertThat(TimelineChart.niceCeiling(21)).isEqualTo(25);
        assertThat(TimelineChart.niceCeiling(63)).isEqualTo(70);
        assertThat(TimelineChart.niceCeiling(101)).isEqualTo(120);
        assertThat(TimelineChart.niceCeiling(7)).isEqualTo(7);
        assertThat(TimelineChart.niceCeiling(1)).isEqualTo(1);

        List<Overview.TimeBucket> buckets = new ArrayList<>(days(3));
        buckets.add(new Overview.TimeBucket("2015-05-13", "2015-05-13", "2015-05-13", 21, Map.of("4xx", 21L), 50, 0.4));
        TimelineChart chart = TimelineChart.of(buckets, new ReportLinks(Map.of()), "day", "Europe/Brussels", 260, 900);
        assertThat(chart.yTicks()).extracting(TimelineChart.Tick::label).containsExactly("0", "5", "10", "15", "20", "25");
        assertThat(TimelineChart.tickStep(70)).isEqualTo(10);
        assertThat(TimelineChart.tickStep(100)).isEqualTo(50);
    }

    @Test
    void manyNarrowBarsGetAtMostEightLabelsSpacedAtLeastALabelApart() {
        TimelineChart chart = TimelineChart.of(days(20), new ReportLinks(Map.of()), "day", "Europe/Brussels", 120, 400);

        assertThat(chart.xTicks().size()).isBetween(2, 8);
        assertThat(gaps(chart)).allSatisfy(gap -> assertThat(gap).isGreaterThanOrEqualTo(TimelineChart.X_LABEL_PX));
    }
}
