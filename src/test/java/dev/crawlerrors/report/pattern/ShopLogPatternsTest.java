package dev.crawlerrors.report.pattern;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.format.AgentFilter;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.format.FormatDetector;
import dev.crawlerrors.ingest.format.LineParser;
import dev.crawlerrors.store.UrlCount;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The URL patterns of lines of a real shop's nginx log (see README.md beside shop-access.log), read
 * by the format detector and parser an import uses.
 */
class ShopLogPatternsTest {

    private static final Path LOG = Path.of("src/test/resources/dev/crawlerrors/report/pattern/shop-access.log");

    @Test
    void aFamilyOfMissingProductsIsNamedByAProductThatWasMissing() throws Exception {
        UrlShapes shapes = new UrlShapes();
        hits().stream().filter(hit -> hit.status() >= 300).forEach(hit -> shapes.add(new UrlCount(hit.url(), hit.status(),
                "crawler_search", 1, hit.epochMillis(), hit.epochMillis(), 0, 0)));

        ErrorPattern products = shapes.report(ZoneOffset.UTC, PlaceholderNames.of(List.of())).patterns().stream()
                .filter(p -> p.pattern().equals("/product/{n}")).findFirst().orElseThrow();

        assertThat(products.statuses()).containsEntry(404, 2L).containsEntry(302, 1L);
        assertThat(products.examples()).startsWith("/product/25828"); // the newest, which redirected
        assertThat(products.diagnosis().kind()).isEqualTo("not_found");
        assertThat(products.diagnosis().text()).isEqualTo("A family of 404s: a template or link points at pages that do not exist"
                + " (such as /product/81900); find where they are linked from.");
    }

    @Test
    void theShopsMobilePagesAreUnderM() throws Exception {
        UrlShapes shapes = new UrlShapes();
        hits().stream().filter(hit -> hit.status() >= 300).forEach(hit -> shapes.add(new UrlCount(hit.url(), hit.status(),
                "crawler_search", 1, hit.epochMillis(), hit.epochMillis(), 0, 0)));

        assertThat(shapes.report(ZoneOffset.UTC, PlaceholderNames.of(List.of())).patterns()).extracting(ErrorPattern::pattern)
                .containsExactlyInAnyOrder("/product/{n}", "/m/product/{n}", "/robots.txt");
    }

    @Test
    void aRobotsTxtThatRedirectedAndThenAnsweredIsNotToldToBeServedAtItself() throws Exception {
        // DotBot met the 301, then read the file (200) two seconds later: the redirect went to robots.txt elsewhere
        UrlShapes shapes = new UrlShapes();
        hits().stream().filter(hit -> hit.status() >= 300).forEach(hit -> shapes.add(new UrlCount(hit.url(), hit.status(),
                "crawler_seo", 1, hit.epochMillis(), hit.epochMillis(), 0, 0)));

        ErrorPattern robots = shapes.report(ZoneOffset.UTC, PlaceholderNames.of(List.of())).patterns().stream()
                .filter(p -> p.pattern().equals("/robots.txt")).findFirst().orElseThrow();

        assertThat(robots.diagnosis().kind()).isEqualTo("robots_redirect");
        assertThat(robots.diagnosis().text()).contains("the log does not say where to").doesNotContain("serve it at /robots.txt itself");
    }

    private static List<Hit> hits() throws Exception {
        byte[] bytes = Files.readAllBytes(LOG);
        FormatChooser.Choice choice = new FormatDetector(notice -> { }).choose(new ByteArrayInputStream(bytes), LOG.toString());
        byte[] read = choice.in().readAllBytes();
        LineParser parser = choice.parser();
        List<Hit> hits = new ArrayList<>();
        int from = 0;
        while (from < read.length) {
            int end = from;
            while (end < read.length && read[end] != '\n') {
                end++;
            }
            try {
                Hit hit = parser.parse(read, from, end, AgentFilter.ALL);
                if (hit != null) {
                    hits.add(hit);
                }
            } catch (BadLineException e) {
                throw new AssertionError("a line of the real log is bad: " + e.getMessage(), e);
            }
            from = end + 1;
        }
        assertThat(hits).hasSize(6);
        return hits;
    }
}
