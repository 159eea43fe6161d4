package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/** The overview of a log that records no response times (Apache's and nginx's combined format). */
class OverviewWithoutTimesTest {

    @Test
    void saysTheLogRecordsNoTimesInsteadOfAnEmptyTable() throws Exception {
        Crawler googlebot = new Crawler("Googlebot Smartphone", "Google", BotType.crawler_search, List.of("Googlebot"), null, null, null);
        List<CrawlerHit> hits = List.of(
                new CrawlerHit(new Hit(1_431_857_103_000L, 120, "66.249.73.135", "GET", "/projects/grok", 301, 0, null, "Googlebot", Double.NaN, null),
                        googlebot, new Verdict(Verification.verified, "test")),
                new CrawlerHit(new Hit(1_431_857_163_000L, 120, "66.249.73.135", "GET", "/files/a.png", 404, 0, null, "Googlebot", Double.NaN, null),
                        googlebot, new Verdict(Verification.verified, "test")));
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(hits);
            try (ReportServer server = ReportServer.start(new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC).withSummaryWait(Duration.ofSeconds(30))), store.health(), ServerConfig.on("127.0.0.1", 0))) {
                HttpClient http = HttpClient.newHttpClient();
                String base = "http://127.0.0.1:" + server.port();
                Document html = Jsoup.parse(http.send(HttpRequest.newBuilder(URI.create(base + "/crawl-errors/overview")).build(),
                        HttpResponse.BodyHandlers.ofString()).body());
                String json = http.send(HttpRequest.newBuilder(URI.create(base + "/api/crawl-errors/overview")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();

                assertThat(html.selectFirst("#summary").text()).isEqualTo("2 error hits");
                assertThat(html.select("#durations")).isEmpty();
                assertThat(html.selectFirst("#durations-none").text()).startsWith("None of these hits has a response time");
                assertThat(new ObjectMapper().readTree(json).get("durations")).isEmpty();
            }
        }
    }
}
