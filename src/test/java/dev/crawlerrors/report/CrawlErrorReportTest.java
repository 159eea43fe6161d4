package dev.crawlerrors.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.report.pattern.ErrorPattern;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The report over a real (in-memory) DuckDB store, built from one {@link ReportConfig}. */
class CrawlErrorReportTest {

    private static final Crawler GOOGLEBOT = new Crawler("Googlebot Smartphone", "Google", BotType.crawler_search,
            List.of("Googlebot"), null, null, null);
    private static final long START = Instant.parse("2025-05-14T10:00:00Z").toEpochMilli();
    /** 150 errors on two street pages of two cities, a success between each. */
    private static final int ERRORS = 150;

    static DuckDbHitStore store;

    @BeforeAll
    static void store() {
        store = DuckDbHitStore.inMemory();
        List<CrawlerHit> hits = new ArrayList<>();
        for (int i = 0; i < ERRORS; i++) {
            String city = i % 2 == 0 ? "gent" : "brugge";
            hits.add(hit(START + i * 60_000L, "/" + city + "/street-" + i, 404));
            hits.add(hit(START + i * 60_000L + 1_000, "/" + city + "/", 200));
        }
        store.writer().append(hits);
        store.writer().flush();
    }

    @AfterAll
    static void close() {
        store.close();
    }

    private static CrawlerHit hit(long millis, String url, int status) {
        Hit hit = new Hit(millis, 0, "66.249.66.1", "GET", url, status, 0, null, "Googlebot/2.1", 1.0, null);
        return new CrawlerHit(hit, GOOGLEBOT, new Verdict(Verification.verified, "in common-crawlers.json"));
    }

    private static CrawlErrorReport report(ReportConfig config) {
        return new CrawlErrorReport(store.reader(), config.withSummaryWait(Duration.ofMinutes(1)));
    }

    @Test
    void theDefaultsAreTheBuiltInCatalogNoTemplatesAndTheUsualWaitAndMemory() {
        ReportConfig config = ReportConfig.in(ZoneOffset.UTC);

        assertThat(config).isEqualTo(new ReportConfig(ZoneOffset.UTC, null, List.of(), ReportConfig.SUMMARY_WAIT,
                ReportConfig.DEFAULT_INDEX_BYTES, ReportConfig.UNCOUNTED_FROM));
        assertThat(config.withIndexBytes(1 << 20).withUrlNames(List.of("/{city}/{street}")))
                .isEqualTo(new ReportConfig(ZoneOffset.UTC, null, List.of("/{city}/{street}"), ReportConfig.SUMMARY_WAIT, 1 << 20,
                        ReportConfig.UNCOUNTED_FROM));
    }

    @Test
    void pagesTheErrorsNewestFirstAHundredAPage() {
        CrawlErrorReport report = report(ReportConfig.in(ZoneOffset.UTC));

        ReportPage first = report.page(new ReportRequest(HitFilter.ERRORS, 1));
        ReportPage second = report.page(new ReportRequest(HitFilter.ERRORS, 2));

        assertThat(first.total()).isEqualTo(ERRORS);
        assertThat(first.pages()).isEqualTo(2);
        assertThat(first.rows()).hasSize(100);
        assertThat(first.rows().get(0).url()).isEqualTo("/brugge/street-149");
        assertThat(second.rows()).hasSize(50);
        assertThat(second.rows().get(49).url()).isEqualTo("/gent/street-0");
        assertThat(second.rows()).allSatisfy(row -> assertThat(row.status()).isEqualTo(404));
        report.close();
    }

    @Test
    void showsTimesInItsZone() {
        CrawlErrorReport utc = report(ReportConfig.in(ZoneOffset.UTC));
        CrawlErrorReport brussels = report(ReportConfig.in(ZoneId.of("Europe/Brussels")));

        ReportPage inUtc = utc.page(new ReportRequest(HitFilter.ERRORS, 2));
        ReportPage inBrussels = brussels.page(new ReportRequest(HitFilter.ERRORS, 2));

        assertThat(inUtc.timeZone()).isEqualTo("Z");
        assertThat(inUtc.rows().get(49).timestamp()).isEqualTo("2025-05-14T10:00");
        assertThat(inBrussels.timeZone()).isEqualTo("Europe/Brussels");
        assertThat(inBrussels.rows().get(49).timestamp()).isEqualTo("2025-05-14T12:00");
        utc.close();
        brussels.close();
    }

    @Test
    void aPagePastTheLastSaysHowManyThereAre() {
        CrawlErrorReport report = report(ReportConfig.in(ZoneOffset.UTC));

        assertThatThrownBy(() -> report.page(new ReportRequest(HitFilter.ERRORS, 3)))
                .isInstanceOfSatisfying(PageNotFoundException.class, e -> assertThat(e.pages()).isEqualTo(2));
        report.close();
    }

    @Test
    void theSummaryAddsUpToThePagesTotal() {
        CrawlErrorReport report = report(ReportConfig.in(ZoneOffset.UTC));
        ReportRequest request = new ReportRequest(HitFilter.ERRORS, 1);

        Overview summary = report.summary(request, report.page(request)).orElseThrow();

        assertThat(summary.total()).isEqualTo(ERRORS);
        report.close();
    }

    @Test
    void theSitesTemplatesNameThePatternsPlaceholders() {
        CrawlErrorReport unnamed = report(ReportConfig.in(ZoneOffset.UTC));
        CrawlErrorReport named = report(ReportConfig.in(ZoneOffset.UTC).withUrlNames(List.of("/{city}/{street}")));
        ReportRequest request = new ReportRequest(HitFilter.ERRORS, 1);

        assertThat(named.patterns(request).patterns()).extracting(ErrorPattern::pattern)
                .containsExactlyInAnyOrder("/brugge/{street}", "/gent/{street}");
        assertThat(unnamed.patterns(request).patterns()).extracting(ErrorPattern::pattern)
                .containsExactlyInAnyOrder("/brugge/{1}", "/gent/{1}");
        assertThat(named.patterns(request).total()).isEqualTo(ERRORS);
        unnamed.close();
        named.close();
    }

    @Test
    void aTemplateThatIsNotOneIsRefusedWhenTheReportIsMade() {
        assertThatThrownBy(() -> report(ReportConfig.in(ZoneOffset.UTC).withUrlNames(List.of("city/{street}"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("city/{street}");
    }

    @Test
    void oneHitByItsNumberWhateverItsStatus() {
        CrawlErrorReport report = report(ReportConfig.in(ZoneOffset.UTC));
        long id = report.page(new ReportRequest(HitFilter.ERRORS, 1)).rows().get(0).id();

        HitDetail detail = report.hit(id).orElseThrow();

        assertThat(detail.row().url()).isEqualTo("/brugge/street-149");
        assertThat(detail.probe()).isNull();
        assertThat(report.hit(Long.MAX_VALUE)).isEmpty();
        report.close();
    }

    @Test
    void aRequestsParametersAreReadInTheReportsZone() {
        CrawlErrorReport report = report(ReportConfig.in(ZoneId.of("Europe/Brussels")));

        ReportRequest request = report.request(Map.of("page", List.of("2")));

        assertThat(request.page()).isEqualTo(2);
        assertThat(report.zone()).isEqualTo(ZoneId.of("Europe/Brussels"));
        report.close();
    }
}
