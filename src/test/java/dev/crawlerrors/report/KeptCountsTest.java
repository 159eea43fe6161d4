package dev.crawlerrors.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.Waits;
import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.report.pattern.ErrorPattern;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The patterns and the overview follow the store: new hits are counted in, a changed verdict is counted again. */
class KeptCountsTest {

    private static final Crawler GOOGLEBOT = new Crawler("Googlebot Smartphone", "Google", BotType.crawler_search, List.of("Googlebot"),
            null, null, null);
    private static final Verdict VERIFIED = new Verdict(Verification.verified, "in the list");

    private final DuckDbHitStore store = DuckDbHitStore.inMemory();
    private final CrawlErrorReport report = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC).withSummaryWait(Duration.ofSeconds(30)));

    @AfterEach
    void close() {
        report.close();
        store.close();
    }

    private static List<CrawlerHit> hits(String ip, String prefix, int n, int status) {
        List<CrawlerHit> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Hit hit = new Hit(Instant.parse("2025-05-14T10:00:00Z").plusSeconds(i).toEpochMilli(), 0, ip, "GET", prefix + i, status, 0,
                    null, "Googlebot", 1.0, null);
            out.add(new CrawlerHit(hit, GOOGLEBOT, VERIFIED));
        }
        return out;
    }

    @Test
    void countsNewHitsInWithoutCountingTheOldOnesAgain() {
        store.writer().append(hits("66.249.66.1", "/items/a", 5, 404));
        assertThat(report.overview(ReportRequest.FIRST_PAGE).total()).isEqualTo(5);
        assertThat(report.patterns(ReportRequest.FIRST_PAGE).patterns()).extracting(ErrorPattern::pattern).containsExactly("/items/{1}");

        store.writer().append(hits("66.249.66.2", "/items/b", 3, 404));
        store.writer().append(hits("66.249.66.2", "/pages/", 4, 410));

        Overview overview = report.overview(ReportRequest.FIRST_PAGE);
        assertThat(overview.total()).isEqualTo(12);
        assertThat(overview.byStatus()).extracting(Overview.Tally::value, Overview.Tally::hits)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("404", 8L), org.assertj.core.groups.Tuple.tuple("410", 4L));
        assertThat(report.patterns(ReportRequest.FIRST_PAGE).patterns()).extracting(ErrorPattern::pattern, ErrorPattern::hits)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("/items/{1}", 8L), org.assertj.core.groups.Tuple.tuple("/pages/{n}", 4L));
    }

    @Test
    void aChangedVerdictIsAnsweredFromTheCountsBeforeItUntilTheyAreMadeAgain() throws Exception {
        store.writer().append(hits("66.249.66.1", "/items/a", 5, 404));
        store.writer().append(hits("203.0.113.7", "/items/b", 3, 404));
        assertThat(report.overview(ReportRequest.FIRST_PAGE).total()).isEqualTo(8);

        store.verdicts().update("203.0.113.7", "Googlebot Smartphone", new Verdict(Verification.spoofed, "in no Google list"));

        Overview during = report.overview(ReportRequest.FIRST_PAGE);
        assertThat(during.recounting()).isTrue();
        assertThat(during.total()).isEqualTo(8);
        Overview after = Waits.await("the recount").until(() -> report.overview(ReportRequest.FIRST_PAGE), o -> !o.recounting());
        assertThat(after.total()).isEqualTo(5);
        assertThat(after.spoofedLeftOut()).isEqualTo(3);
    }

    @Test
    void theSummaryOfAPageIsCountedAtThePagesSnapshotAndSaysSo() {
        store.writer().append(hits("66.249.66.1", "/items/a", 5, 404));
        ReportPage first = report.page(ReportRequest.FIRST_PAGE);
        store.writer().append(hits("66.249.66.1", "/items/b", 3, 404));
        ReportPage second = report.page(ReportRequest.FIRST_PAGE);

        Overview summary = report.summary(ReportRequest.FIRST_PAGE, second).orElseThrow();

        assertThat(first.total()).isEqualTo(5);
        assertThat(second.total()).isEqualTo(8);
        assertThat(summary.total()).isEqualTo(second.total());
        assertThat(summary.at()).isEqualTo(second.at());
        // the patterns' links lead to the hits they counted: they carry the snapshot of the counts
        assertThat(report.patternsAt(ReportRequest.FIRST_PAGE).at()).isEqualTo(second.at());
    }
}
