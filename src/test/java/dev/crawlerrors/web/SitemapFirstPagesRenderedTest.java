package dev.crawlerrors.web;

import static dev.crawlerrors.web.FirstPageRenderedTest.cache;
import static dev.crawlerrors.web.FirstPageRenderedTest.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.Waits;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.HeldBackSitemapCounts;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * With a sitemap held, serve's warm-up makes the {@code in_sitemap=} first pages before any reader asks them
 * ({@link ReportServer#readSitemapUrlPages}, {@link ReportServer#renderSitemapFirstPages}): while the cube by sitemap is
 * still counting, the report's pages are answered as kept (its newest rows, no store read, no rendering); once the count
 * is done they are answered until their counted pages, rendered behind the first reader who finds them stale or by the
 * warm-up, are kept in their place (no reader renders them), and those are the pages a reader gets rendered for them. Told by the server's counts of answers found kept and not and by the store's reads, not by time.
 */
class SitemapFirstPagesRenderedTest {

    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theInSitemapFirstPagesAreMadeByTheWarmUpAndKeptUntilCounted() throws Exception {
        try (DuckDbHitStore store = HeldBackSitemapCounts.storeWithSitemap()) {
            // the counts by sitemap held back until let go, as the cube by sitemap of a large store is still counting
            HeldBackSitemapCounts held = new HeldBackSitemapCounts(store.reader(), BOUND);
            CountDownLatch letGo = held.letGo;
            AtomicBoolean warmed = held.warmed;
            AtomicInteger reads = held.reads;
            HitReader reader = held.reader;
            CrawlErrorReport report = new CrawlErrorReport(reader, ReportConfig.in(ZoneOffset.UTC).withUncountedFrom(0));
            CrawlErrorReport plain = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC));
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0));
                 ReportServer rendering = ReportServer.start(plain, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                // serve's warm-up: the URLs page's views right after the first page's count, then the report's pages
                assertTimeoutPreemptively(BOUND, () -> report.warmUp(server::readSitemapUrlPages));
                assertThat(server.renderFirstPage(BOUND)).isTrue();
                assertThat(assertTimeoutPreemptively(BOUND, server::renderSitemapFirstPages)).as("kept while counting").isTrue();
                warmed.set(true);
                long misses = cache(server, "misses");
                long hits = cache(server, "hits");

                // what a reader gets once counted, from a server of its own
                for (String inSitemap : List.of("yes", "no")) {
                    assertThat(plain.summaryCounted(plain.request(Map.of("in_sitemap", List.of(inSitemap))), BOUND)).isTrue();
                }
                for (String inSitemap : List.of("yes", "no")) {
                    String json = get(server, "/api/crawl-errors?in_sitemap=" + inSitemap);
                    String html = get(server, "/crawl-errors?in_sitemap=" + inSitemap);
                    JsonNode shown = JSON.readTree(json);
                    JsonNode counted = JSON.readTree(get(rendering, "/api/crawl-errors?in_sitemap=" + inSitemap));
                    assertThat(shown.get("counting").asBoolean()).as("in_sitemap=" + inSitemap + ": its count held back").isTrue();
                    assertThat(counted.get("counting").asBoolean()).isFalse();
                    assertThat(shown.get("rows")).as("the newest rows, as the counted page has them").isEqualTo(counted.get("rows")).isNotEmpty();
                    assertThat(html).contains("<table");
                    // the URLs page's view, made by the warm-up, says what a reader gets from a server of its own
                    assertThat(get(server, "/api/crawl-errors/urls?in_sitemap=" + inSitemap))
                            .isEqualTo(get(rendering, "/api/crawl-errors/urls?in_sitemap=" + inSitemap));
                }
                assertThat(cache(server, "misses")).as("no in_sitemap= first page rendered for a reader").isEqualTo(misses);
                assertThat(cache(server, "hits")).isEqualTo(hits + 4);
                assertThat(reads.get()).as("no row read of the store after the warm-up").isZero();

                // once counted, the counting page is answered as kept until its counted page, rendered behind the first
                // reader who finds it stale, is kept in its place: no reader renders it or waits for its rendering
                letGo.countDown();
                assertThat(report.summaryCounted(report.request(Map.of("in_sitemap", List.of("yes"))), BOUND)).isTrue();
                // its page's count, which a summary counted does not wait for: what makes the kept counting page stale
                Waits.await("the in_sitemap=yes view counted").until(() -> report.counted(report.request(Map.of("in_sitemap", List.of("yes")))));
                String counted = get(rendering, "/api/crawl-errors?in_sitemap=yes");
                JsonNode stale = JSON.readTree(get(server, "/api/crawl-errors?in_sitemap=yes"));
                assertThat(stale.get("rows")).as("the kept page or its counted replacement").isEqualTo(JSON.readTree(counted).get("rows"));
                Waits.await("the counted page kept in the counting page's place")
                        .until(() -> get(server, "/api/crawl-errors?in_sitemap=yes").equals(counted));
                assertThat(cache(server, "misses")).as("no reader rendered it").isEqualTo(misses);

                // and the warm-up renders the counted pages before their readers: the same as rendered for a reader
                assertThat(server.renderSitemapPagesCounted(BOUND)).isTrue();
                long after = cache(server, "misses");
                for (String inSitemap : List.of("yes", "no")) {
                    for (String path : List.of("/api/crawl-errors?in_sitemap=", "/crawl-errors?in_sitemap=")) {
                        String body = get(server, path + inSitemap);
                        assertThat(body).as(path + inSitemap).isEqualTo(get(rendering, path + inSitemap));
                        assertThat(body).doesNotContain("\"counting\":true");
                    }
                }
                assertThat(cache(server, "misses")).as("each counted page found kept").isEqualTo(after);
            } finally {
                letGo.countDown();
                report.close();
                plain.close();
            }
        }
    }
}
