package dev.crawlerrors.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.DemoFixture;
import dev.crawlerrors.demo.DemoLog;
import dev.crawlerrors.report.pattern.ErrorPattern;
import dev.crawlerrors.report.pattern.PatternReport;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled demo's URL patterns are the specification's table of URL shapes ("Shape of URL
 * paths"): six shapes with their statuses, {@code /{city}/parkeren} from the inspection tool.
 */
class DemoPatternsTest {

    @TempDir
    static Path dir;

    static DuckDbHitStore store;
    static CrawlErrorReport report;

    @BeforeAll
    static void importDemo() throws Exception {
        store = DemoFixture.demoStore(dir);
        report = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("Europe/Brussels")).withUrlNames(List.of(DemoLog.URL_NAMES)).withSummaryWait(Duration.ofSeconds(30)));
    }

    @AfterAll
    static void close() {
        store.close();
    }

    /** One row of the spec's table: the shape, its statuses and bot types with their hits. */
    record Shape(String pattern, Map<Integer, Long> statuses, Map<String, Long> botTypes) {
    }

    private static List<Shape> shapes(PatternReport patterns) {
        List<Shape> out = new ArrayList<>();
        for (ErrorPattern p : patterns.patterns()) {
            out.add(new Shape(p.pattern(), p.statuses(), p.botTypes()));
        }
        return out;
    }

    @Test
    void theDemosPatternsAreTheSpecsUrlShapes() {
        PatternReport patterns = report.patterns(ReportRequest.FIRST_PAGE);

        assertThat(patterns.total()).isEqualTo(226);
        assertThat(shapes(patterns)).containsExactly(
                new Shape("/{city}/{street}", Map.of(308, 110L), Map.of("crawler_search", 110L)),
                new Shape("/{city}/{street}/", Map.of(304, 40L), Map.of("crawler_search", 40L)),
                new Shape("/{city}/{street}/{section}", Map.of(308, 30L), Map.of("crawler_search", 30L)),
                new Shape("/{city}/straten/{letter}", Map.of(404, 24L), Map.of("crawler_search", 24L)),
                new Shape("/{city}/{street}/{section}/", Map.of(304, 20L), Map.of("crawler_search", 20L)),
                new Shape("/{city}/parkeren", Map.of(308, 2L), Map.of("crawler_inspection_tool", 2L)));
    }

    @Test
    void eachDiagnosisSaysWhatToDo() {
        Map<String, String> diagnoses = new java.util.LinkedHashMap<>();
        report.patterns(ReportRequest.FIRST_PAGE).patterns().forEach(p -> diagnoses.put(p.pattern(), p.diagnosis().text()));

        assertThat(diagnoses).containsExactly(
                Map.entry("/{city}/{street}", "Redirect (308) that adds a trailing slash: /{city}/{street}/ is the final form;"
                        + " internal links and the sitemap should use it."),
                Map.entry("/{city}/{street}/", "304 Not Modified: answers to conditional requests (the crawler asked whether the page"
                        + " changed); normal, nothing to fix."),
                Map.entry("/{city}/{street}/{section}", "Redirect (308) that adds a trailing slash: /{city}/{street}/{section}/ is the"
                        + " final form; internal links and the sitemap should use it."),
                Map.entry("/{city}/straten/{letter}", "A family of 404s: a template or link points at pages that do not exist (such as "
                        + patternsExample("/{city}/straten/{letter}") + "); find where they are linked from."),
                Map.entry("/{city}/{street}/{section}/", "304 Not Modified: answers to conditional requests (the crawler asked whether"
                        + " the page changed); normal, nothing to fix."),
                // no /{city}/parkeren/ answered otherwise, and the log gives no target: no cause is guessed
                Map.entry("/{city}/parkeren", "Redirect (308): the log does not say where to; internal links and the sitemap should"
                        + " point at the final address."));
    }

    private static String patternsExample(String pattern) {
        return report.patterns(ReportRequest.FIRST_PAGE).patterns().stream().filter(p -> p.pattern().equals(pattern))
                .findFirst().orElseThrow().examples().get(0);
    }

    @Test
    void withoutTheSitesTemplatePlaceholdersAreNumbered() {
        CrawlErrorReport unnamed = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("Europe/Brussels")).withSummaryWait(Duration.ofSeconds(30)));

        assertThat(unnamed.patterns(ReportRequest.FIRST_PAGE).patterns()).extracting(ErrorPattern::pattern).containsExactly(
                "/{1}/{2}", "/{1}/{2}/", "/{1}/{2}/{3}", "/{1}/straten/{letter}", "/{1}/{2}/{3}/", "/{1}/parkeren");
    }

    @Test
    void theReportFilteredToAPatternHoldsExactlyItsHits() {
        for (ErrorPattern pattern : report.patterns(ReportRequest.FIRST_PAGE).patterns()) {
            ReportRequest request = new ReportRequest(HitFilter.ERRORS, 1, pattern.pattern(), null);
            ReportPage page = report.page(request);

            assertThat(page.total()).as(pattern.pattern()).isEqualTo(pattern.hits());
            assertThat(page.rows()).extracting(ReportRow::status).containsOnlyElementsOf(pattern.statuses().keySet());
        }
        ReportPage parking = report.page(new ReportRequest(HitFilter.ERRORS, 1, "/{city}/parkeren", null));
        assertThat(parking.rows()).extracting(ReportRow::botType).containsOnly("crawler_inspection_tool");
    }
}
