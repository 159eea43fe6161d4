package dev.crawlerrors.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.report.pattern.PatternReport;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Patterns pages of the default view and the {@code in_sitemap=yes} and {@code =no} views made in one walk of the URL
 * states say what each view's own walks say: its states now and sitemap counts by pattern, record for record, with a
 * sitemap held, after a new snapshot and after the sitemap read again.
 */
class PatternWalkTest {

    private static final List<Map<String, List<String>>> VIEWS = List.of(Map.of(), Map.of("in_sitemap", List.of("yes")),
            Map.of("in_sitemap", List.of("no")));

    @Test
    void oneWalkForThreeViewsSaysWhatEachViewsOwnWalksSay() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(UncountedFirstPageContract.hits());
            store.writer().flush();
            HeldBackSitemapCounts.listEveryThirdPage(store);
            CrawlErrorReport report = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC));
            try {
                UrlReport urls = new UrlReport(report);
                sameAsOwnWalks(report, urls);
                HeldBackSitemapCounts.storeSomeAgain(store);
                sameAsOwnWalks(report, urls);
                HeldBackSitemapCounts.listEveryFifthPage(store, report);
                sameAsOwnWalks(report, urls);
            } finally {
                report.close();
            }
        }
    }

    private static void sameAsOwnWalks(CrawlErrorReport report, UrlReport urls) {
        List<PatternWalk.View> views = new ArrayList<>();
        List<String> at = new ArrayList<>();
        for (Map<String, List<String>> query : VIEWS) {
            ReportRequest request = report.request(query, ReportParameters.PATTERNS);
            CountedAt<PatternReport> counted = report.patternsAt(request);
            views.add(new PatternWalk.View(counted.value(), request.filter()));
            at.add(counted.at());
        }
        assertThat(at).as("counted at one snapshot").containsOnly(at.get(0));
        List<PatternWalk.Walked> walked = new PatternWalk(report, urls).of(views, at.get(0));
        PatternStates states = new PatternStates(urls);
        PatternSitemaps sitemaps = new PatternSitemaps(report, urls);
        for (int v = 0; v < views.size(); v++) {
            PatternWalk.View view = views.get(v);
            Map<String, PatternStates.Now> now = states.of(view.patterns(), view.filter(), at.get(0));
            Map<String, PatternSitemaps.Listed> listed = sitemaps.of(view.patterns(), view.filter(), at.get(0));
            assertThat(now).as("states now of " + VIEWS.get(v)).isNotEmpty();
            assertThat(listed).as("sitemap counts of " + VIEWS.get(v)).isNotEmpty();
            assertThat(walked.get(v).now()).as("states now of " + VIEWS.get(v)).containsExactlyEntriesOf(now);
            assertThat(walked.get(v).listed()).as("sitemap counts of " + VIEWS.get(v)).containsExactlyEntriesOf(listed);
        }
    }
}
