package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.DemoFixture;
import dev.crawlerrors.Waits;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.sitemap.SitemapUrl;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's pages kept rendered follow the sitemaps: a sitemap read again (no new snapshot)
 * changes the {@code in_sitemap=} pages and the rows' {@code inSitemap} of the pages without it.
 */
class SitemapRefreshPagesTest {

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aSitemapReadAgainChangesThePagesKeptOfTheSameSnapshot() throws Exception {
        try (DuckDbHitStore store = DemoFixture.demoStore(dir)) {
            Set<String> urls = new LinkedHashSet<>();
            for (StoredHit hit : store.reader().page(HitFilter.ERRORS, 0, 1000)) {
                urls.add(hit.url());
            }
            String sitemap = "https://www.example.be/sitemap.xml";
            store.sitemaps().replace(sitemap, Instant.now().minusSeconds(60), List.of(new SitemapUrl("www.example.be", urls.iterator().next())));
            long first = store.reader().count(HitFilter.ERRORS.withInSitemap(true));
            try (ReportServer server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC"))
                    .withSummaryWait(Duration.ofSeconds(30))), store.health(), ServerConfig.on("127.0.0.1", 0))) {
                String base = "http://127.0.0.1:" + server.port();
                assertThat(total(base + "/api/crawl-errors?in_sitemap=yes")).isEqualTo(first);
                assertThat(total(base + "/api/crawl-errors?in_sitemap=yes")).isEqualTo(first);
                assertThat(listedRows(base + "/api/crawl-errors")).isLessThanOrEqualTo(first);
                // the URLs page's sitemap views, kept (no time range) and made from the histories (one)
                String sitemapUrls = base + "/api/crawl-errors/urls?in_sitemap=";
                String made = "&from=2000-01-01&to=2100-01-01";
                Waits.await("the URL states").until(() -> get(sitemapUrls + "yes").statusCode() == 200);
                long everyUrl = total(base + "/api/crawl-errors/urls");
                long madeEvery = total(base + "/api/crawl-errors/urls?from=2000-01-01&to=2100-01-01");
                assertThat(everyUrl).isGreaterThan(1);
                for (int i = 0; i < 2; i++) {
                    assertThat(total(sitemapUrls + "yes")).as("broken URLs listed, read %d", i).isLessThanOrEqualTo(1);
                    assertThat(total(sitemapUrls + "yes") + total(sitemapUrls + "no")).isEqualTo(everyUrl);
                    assertThat(total(sitemapUrls + "yes" + made) + total(sitemapUrls + "no" + made)).isEqualTo(madeEvery);
                }

                // read again: every error URL listed now, the store's snapshot unchanged
                store.sitemaps().replace(sitemap, Instant.now(), urls.stream().map(url -> new SitemapUrl("www.example.be", url)).toList());

                Waits.await("the in_sitemap=yes page to follow the sitemap").until(() -> total(base + "/api/crawl-errors?in_sitemap=yes") == 226);
                Waits.await("the rows' inSitemap to follow the sitemap").until(() -> listedRows(base + "/api/crawl-errors") == 100);
                assertThat(total(base + "/api/crawl-errors?in_sitemap=no")).isZero();
                assertThat(get(base + "/crawl-errors?in_sitemap=no").body()).contains("0 error hits");
                assertThat(total(sitemapUrls + "yes")).as("every broken URL listed now").isEqualTo(everyUrl);
                assertThat(total(sitemapUrls + "no")).isZero();
                assertThat(total(sitemapUrls + "yes" + made)).isEqualTo(madeEvery);
                assertThat(total(sitemapUrls + "no" + made)).isZero();
            }
        }
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private long total(String url) throws Exception {
        return JSON.readTree(get(url).body()).get("total").asLong();
    }

    /** How many of the page's rows say a sitemap lists them. */
    private long listedRows(String url) throws Exception {
        long listed = 0;
        for (JsonNode row : JSON.readTree(get(url).body()).get("rows")) {
            listed += row.path("inSitemap").asBoolean(false) ? 1 : 0;
        }
        return listed;
    }
}
