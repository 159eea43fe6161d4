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
    void fourDaysOnWideBarsLabelEveryOtherDaySoTheDatesDoNotOverlap() {
        // a real four-day log: bars 40 px wide, a date about 62 px at 11 px; every day's label overlapped the next
        TimelineChart chart = TimelineChart.of(days(4), new ReportLinks(Map.of()), "day", 120, 900);

        assertThat(chart.bars()).hasSize(4);
        assertThat(chart.xTicks()).extracting(TimelineChart.Tick::label).containsExactly("2015-05-10", "2015-05-12");
        assertThat(gaps(chart)).allSatisfy(gap -> assertThat(gap).isGreaterThanOrEqualTo(TimelineChart.X_LABEL_PX));
    }

    @Test
    void manyNarrowBarsGetAtMostEightLabelsSpacedAtLeastALabelApart() {
        TimelineChart chart = TimelineChart.of(days(20), new ReportLinks(Map.of()), "day", 120, 400);

        assertThat(chart.xTicks().size()).isBetween(2, 8);
        assertThat(gaps(chart)).allSatisfy(gap -> assertThat(gap).isGreaterThanOrEqualTo(TimelineChart.X_LABEL_PX));
    }
}
