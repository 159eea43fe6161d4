package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.DemoFixture;
import dev.crawlerrors.demo.DemoLog;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.jsoup.Jsoup;

/** {@code in_sitemap=yes|no} over HTTP on the demo's store, with a sitemap listing some of its error URLs. */
class InSitemapFilterTest {

    @org.junit.jupiter.api.io.TempDir
    static Path dir;

    static DuckDbHitStore store;
    static ReportServer server;
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void start() throws Exception {
        store = DemoFixture.demoStore(dir);
        // every other distinct error URL of the demo is listed
        Set<String> urls = new LinkedHashSet<>();
        for (StoredHit hit : store.reader().page(HitFilter.ERRORS, 0, 1000)) {
            urls.add(hit.url());
        }
        List<SitemapUrl> listed = urls.stream().filter(u -> u.hashCode() % 2 == 0).map(u -> new SitemapUrl("www.example.be", u)).toList();
        store.sitemaps().replace("https://www.example.be/sitemap.xml", Instant.now(), listed);
        server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneId.of("UTC")).withUrlNames(List.of(DemoLog.URL_NAMES)).withSummaryWait(Duration.ofSeconds(30))), store.health(), ServerConfig.on("127.0.0.1", 0));
    }

    @AfterAll
    static void stop() {
        server.close();
        store.close();
    }

    static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/crawl-errors", "/api/crawl-errors", "/crawl-errors.csv", "/crawl-errors/patterns",
            "/api/crawl-errors/patterns", "/crawl-errors/overview", "/api/crawl-errors/overview"})
    void answersABadValueWith400NamingInSitemap(String path) throws Exception {
        HttpResponse<String> response = get(path + "?in_sitemap=maybe");

        assertThat(response.statusCode()).isEqualTo(400);
        String message = path.startsWith("/api/") ? JSON.readTree(response.body()).get("error").asText()
                : path.endsWith(".csv") ? response.body().strip() : Jsoup.parse(response.body()).selectFirst("#error").text();
        assertThat(message).isEqualTo("in_sitemap must be yes (URLs a sitemap lists) or no (URLs none lists); got 'maybe'");
    }

    @Test
    void splitsTheErrorHitsIntoThoseOfListedUrlsAndTheRestInJsonAndCsv() throws Exception {
        long listed = store.reader().count(HitFilter.ERRORS.withInSitemap(true));
        JsonNode all = JSON.readTree(get("/api/crawl-errors").body());
        JsonNode yes = JSON.readTree(get("/api/crawl-errors?in_sitemap=yes").body());
        JsonNode no = JSON.readTree(get("/api/crawl-errors?in_sitemap=no").body());
        String csv = get("/crawl-errors.csv?in_sitemap=yes").body();

        assertThat(all.get("total").asLong()).isEqualTo(226);
        assertThat(yes.get("total").asLong()).isEqualTo(listed).isPositive().isLessThan(226);
        assertThat(no.get("total").asLong()).isEqualTo(226 - listed);
        assertThat(csv.lines().count() - 1).isEqualTo(listed);
        assertThat(get("/crawl-errors?in_sitemap=no").body()).contains("in_sitemap=no");
    }
}
