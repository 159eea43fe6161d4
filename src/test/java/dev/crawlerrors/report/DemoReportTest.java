package dev.crawlerrors.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.DemoFixture;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.demo.DemoLog;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bundled demo, imported into the real DuckDB store, reproduces the page the specification observed. */
class DemoReportTest {

    @TempDir
    static Path dir;

    static DuckDbHitStore store;
    static CrawlErrorReport report;
    static List<ReportRow> all = new ArrayList<>();

    @BeforeAll
    static void importDemo() throws Exception {
        store = DemoFixture.demoStore(dir);
        report = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("Europe/Brussels")));
        report.forEachRow(HitFilter.ERRORS, all::add);
    }

    @AfterAll
    static void close() {
        store.close();
    }

    private static ReportPage page(int n) {
        return report.page(new ReportRequest(HitFilter.ERRORS, n));
    }

    @Test
    void has226ErrorHitsOnThreePagesWithTheLast26OnPageThree() {
        assertThat(List.of(page(1), page(2), page(3)))
                .extracting(ReportPage::total, ReportPage::pages)
                .containsOnly(org.assertj.core.groups.Tuple.tuple(226L, 3));
        assertThat(page(1).rows()).hasSize(100);
        assertThat(page(2).rows()).hasSize(100);
        assertThat(page(3).rows()).hasSize(26);
        assertThat(page(3).rows()).isEqualTo(all.subList(200, 226));
    }

    @Test
    void saysHowManyPagesThereAreForAPagePastTheLast() {
        assertThatThrownBy(() -> page(4)).isInstanceOf(PageNotFoundException.class)
                .hasMessage("page 4 does not exist: the report has 3 pages");
    }

    @Test
    void pagesTileTheOrderedRowsWithoutOverlapOrGap() {
        List<ReportRow> paged = new ArrayList<>();
        for (int n = 1; n <= 3; n++) {
            paged.addAll(page(n).rows());
        }
        assertThat(paged).isEqualTo(all);

        List<StoredHit> hits = store.reader().page(HitFilter.ERRORS, 0, 1000);
        assertThat(hits.stream().map(StoredHit::id).collect(Collectors.toSet())).hasSize(226);
        for (int i = 1; i < hits.size(); i++) {
            StoredHit newer = hits.get(i - 1);
            StoredHit older = hits.get(i);
            assertThat(newer.epochMillis() > older.epochMillis()
                    || (newer.epochMillis() == older.epochMillis() && newer.id() > older.id()))
                    .as("row %d is older than row %d", i + 1, i).isTrue();
        }
    }

    @Test
    void everyRowIsAVerifiedGetFromOneBlockInTheMinuteFormat() {
        assertThat(all).allSatisfy(row -> {
            assertThat(row.timestamp()).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}");
            assertThat(row.ip()).startsWith("66.249.66.");
            assertThat(row.method()).isEqualTo("GET");
            assertThat(row.verification()).isEqualTo("verified");
            assertThat(row.verificationReason()).isEqualTo("in common-crawlers.json 66.249.66.0/24 (created 2025-05-14)");
        });
        assertThat(all).extracting(ReportRow::botType).containsOnly("crawler_search", "crawler_inspection_tool");
        assertThat(all.stream().map(ReportRow::ip).distinct().count()).as("addresses recur").isLessThan(20);
    }

    @Test
    void urlsHaveTheSpecsShapesAndStatuses() {
        String city = "(" + String.join("|", DemoLog.CITIES) + ")";
        String section = "(" + String.join("|", DemoLog.SECTIONS) + ")";
        Map<Pattern, Integer> shapes = Map.of(
                Pattern.compile("/" + city + "/[a-z]+(-[a-z]+)*"), 308,
                Pattern.compile("/" + city + "/[a-z]+(-[a-z]+)*/"), 304,
                Pattern.compile("/" + city + "/[a-z]+(-[a-z]+)*/" + section), 308,
                Pattern.compile("/" + city + "/[a-z]+(-[a-z]+)*/" + section + "/"), 304,
                Pattern.compile("/" + city + "/straten/[a-z]"), 404);
        Set<Pattern> seen = new HashSet<>();
        for (ReportRow row : all) {
            List<Pattern> matching = shapes.keySet().stream().filter(p -> p.matcher(row.url()).matches()).toList();
            assertThat(matching).as("the shape of %s", row.url()).hasSize(1);
            Pattern shape = matching.get(0);
            seen.add(shape);
            if (!row.url().matches("/" + city + "/parkeren")) {
                assertThat(row.status()).as(row.url()).isEqualTo(shapes.get(shape));
            }
        }
        assertThat(seen).hasSize(5);
        assertThat(all.stream().map(r -> r.url().split("/")[1]).collect(Collectors.toSet()))
                .containsExactlyInAnyOrderElementsOf(DemoLog.CITIES);
    }

    @Test
    void theInspectionToolAskedForOneCitysParkingPageTwiceInOneMinuteFromTwoAddresses() {
        List<ReportRow> inspection = all.stream().filter(r -> r.botType().equals("crawler_inspection_tool")).toList();

        assertThat(inspection).hasSize(2);
        assertThat(inspection).extracting(ReportRow::url).allMatch(u -> u.matches("/[a-z]+/parkeren")).hasSize(2);
        assertThat(inspection.get(0).url()).isEqualTo(inspection.get(1).url());
        assertThat(inspection.get(0).timestamp()).isEqualTo(inspection.get(1).timestamp());
        assertThat(inspection.get(0).ip()).isNotEqualTo(inspection.get(1).ip());
        assertThat(inspection).extracting(ReportRow::status).containsOnly(308);
    }

    @Test
    void durationsAreMostlyTenthsOfAMillisecondWithOneBurstOfSlowOnes() {
        List<Double> durations = all.stream().map(ReportRow::durationMs).toList();
        int firstSlow = -1;
        int lastSlow = -1;
        for (int i = 0; i < durations.size(); i++) {
            double ms = durations.get(i);
            assertThat(ms).isBetween(0.1, 17.0);
            if (ms >= 3.0) {
                firstSlow = firstSlow < 0 ? i : firstSlow;
                lastSlow = i;
            } else {
                assertThat(ms).isBetween(0.1, 0.3);
            }
        }
        assertThat(firstSlow).as("a burst exists").isGreaterThanOrEqualTo(0);
        assertThat(durations.subList(firstSlow, lastSlow + 1)).as("the slow rows are consecutive").allMatch(ms -> ms >= 3.0);
        assertThat(lastSlow - firstSlow + 1).isLessThan(30);
    }

    @Test
    void leavesOutPeopleSuccessesAndImpostorsUnlessSpoofedIsAskedFor() {
        assertThat(store.health().size()).isGreaterThan(226);
        HitFilter spoofed = new HitFilter(List.of(), Set.of(), Set.of(Verification.spoofed), null, null, null, null);
        ReportPage impostors = report.page(new ReportRequest(spoofed, 1));

        assertThat(impostors.total()).isEqualTo(14);
        assertThat(impostors.rows()).extracting(ReportRow::ip).containsOnly("203.0.113.7");
        assertThat(impostors.rows()).extracting(ReportRow::verificationReason)
                .containsOnly("claims Googlebot Desktop; 203.0.113.7 is in no Google list (common-crawlers.json (created 2025-05-14))");
    }
}
