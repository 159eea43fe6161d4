package dev.crawlerrors.report;

import static dev.crawlerrors.crawler.SampleHits.VERIFIED;
import static dev.crawlerrors.crawler.SampleHits.googlebot;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The overview picks its buckets by the range its hits span, so its chart has tens of bars: hours
 * over four days, weeks over 500 days (a year and a half of days drew 500 hairlines), days between.
 */
class OverviewBucketsTest {

    private static final ZoneId ZONE = ZoneId.of("Europe/Brussels");
    private static final Instant START = Instant.parse("2024-01-01T00:30:00Z");

    /** An error hit every {@code every} from the start, {@code n} of them. */
    private static Overview overview(int n, Duration every, String interval) {
        List<CrawlerHit> hits = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            hits.add(googlebot(START.plus(every.multipliedBy(i)).toEpochMilli(), "66.249.66.1", "/page/" + i, 404, VERIFIED));
        }
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(hits);
            CrawlErrorReport report = new CrawlErrorReport(store.reader(), ReportConfig.in(ZONE).withSummaryWait(Duration.ofSeconds(30)));
            try {
                Map<String, List<String>> query = interval == null ? Map.of() : Map.of("interval", List.of(interval));
                return report.overview(report.request(query, ReportParameters.OVERVIEW));
            } finally {
                report.close();
            }
        }
    }

    @Test
    void fourDaysAreDrawnByTheHour() {
        Overview overview = overview(4 * 24, Duration.ofHours(1), null);

        assertThat(overview.interval()).isEqualTo("hour");
        assertThat(overview.timeline()).hasSize(96);
        assertThat(overview.timeline().get(0).start()).isEqualTo("2024-01-01T01:00");
    }

    @Test
    void fiveHundredDaysAreDrawnByTheWeekFromMonday() {
        Overview overview = overview(500, Duration.ofDays(1), null);

        assertThat(overview.interval()).isEqualTo("week");
        assertThat(overview.timeline()).hasSize(72);
        // 2024-01-01 was a Monday; each week runs to its Sunday, and its hits add up
        assertThat(overview.timeline().get(0)).satisfies(week -> {
            assertThat(week.start()).isEqualTo("2024-01-01");
            assertThat(week.from()).isEqualTo("2024-01-01");
            assertThat(week.to()).isEqualTo("2024-01-07");
            assertThat(week.errorHits()).isEqualTo(7);
        });
        assertThat(overview.timeline().stream().mapToLong(Overview.TimeBucket::errorHits).sum()).isEqualTo(500);
    }

    @Test
    void aMonthIsDrawnByTheDayAndAnyIntervalCanBeAskedFor() {
        assertThat(overview(30, Duration.ofDays(1), null)).satisfies(month -> {
            assertThat(month.interval()).isEqualTo("day");
            assertThat(month.timeline()).hasSize(30);
        });
        assertThat(overview(30, Duration.ofDays(1), "week").timeline()).hasSize(5);
    }
}
