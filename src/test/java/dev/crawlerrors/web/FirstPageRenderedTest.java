package dev.crawlerrors.web;

import static dev.crawlerrors.crawler.SampleHits.VERIFIED;
import static dev.crawlerrors.crawler.SampleHits.googlebot;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.Waits;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.report.ReportRequest;
import dev.crawlerrors.report.UncountedFirstPageContract;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's first page rendered before any reader asks it ({@link ReportServer#renderFirstPage}, serve's
 * warm-up): its readers, with or without {@code page=1}, HTML and JSON, are answered what was kept, and the same
 * as a page rendered for them. Told by the server's own counts of answers found kept and not, not by time.
 */
class FirstPageRenderedTest {

    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** After every hit of {@link UncountedFirstPageContract#hits}: the first row of the first page. */
    private static final long NEWER = java.time.Instant.parse("2026-10-31T12:05:00Z").toEpochMilli();

    @Test
    void theFirstPageIsRenderedOnceBeforeItsReadersAndAnsweredFromWhatWasKept() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(UncountedFirstPageContract.hits());
            store.writer().flush();
            CrawlErrorReport report = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC));
            CrawlErrorReport plain = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC));
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0));
                 ReportServer rendering = ReportServer.start(plain, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                report.warmUp(() -> { });
                assertThat(cache(server, "misses")).isZero();

                assertThat(server.renderFirstPage(BOUND)).as("rendered and kept").isTrue();
                long misses = cache(server, "misses");
                assertThat(misses).as("the HTML and the JSON first page, rendered").isEqualTo(2);
                long hits = cache(server, "hits");
                String html = get(server, "/crawl-errors");
                String json = get(server, "/api/crawl-errors");

                // every way of asking the first page is one page, found kept
                assertThat(get(server, "/crawl-errors?page=1")).isEqualTo(html);
                assertThat(get(server, "/api/crawl-errors?page=1")).isEqualTo(json);
                assertThat(cache(server, "misses")).as("no first page rendered for a reader").isEqualTo(misses);
                assertThat(cache(server, "hits")).isEqualTo(hits + 4);

                // and what was kept is what a reader gets rendered for them (its summary counted first, as the warm-up's was)
                assertThat(plain.summaryCounted(plain.request(Map.of()), BOUND)).isTrue();
                assertThat(html).contains("<table").isEqualTo(get(rendering, "/crawl-errors?page=1"));
                assertThat(json).isEqualTo(get(rendering, "/api/crawl-errors"));
                assertThat(cache(rendering, "misses")).isEqualTo(2);

                // a filtered view's first page is its own, one page with or without page=1 (its summary counted first: kept;
                // a page of the rows held in memory is kept when asked again, so the third asking finds it kept either way)
                assertThat(report.summaryCounted(report.request(Map.of("status", java.util.List.of("404"))), BOUND)).isTrue();
                String filtered = get(server, "/crawl-errors?status=404");
                assertThat(get(server, "/crawl-errors?page=1&status=404")).isEqualTo(filtered).isNotEqualTo(html);
                long hitsBefore = cache(server, "hits");
                assertThat(get(server, "/crawl-errors?page=1&status=404")).isEqualTo(filtered);
                assertThat(cache(server, "hits")).as("found kept: one address").isEqualTo(hitsBefore + 1);
                assertThat(cache(server, "misses")).isBetween(misses + 1, misses + 2);
                assertThat(report.page(ReportRequest.FIRST_PAGE).counting()).isFalse();
            } finally {
                report.close();
                plain.close();
            }
        }
    }

    @Test
    void theFirstPageOfEachNewSnapshotIsRenderedOnceBeforeItsFirstReader(@TempDir Path dir) throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"))) {
            store.writer().append(UncountedFirstPageContract.hits());
            store.writer().flush();
            // a page waits for its summary however loaded the machine, so each is kept at its first rendering
            CrawlErrorReport report = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC).withSummaryWait(BOUND));
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                report.warmUp(() -> { });
                assertThat(server.renderFirstPage(BOUND)).isTrue();
                Thread ahead = Thread.ofPlatform().daemon().name("first-pages-ahead").start(() -> {
                    try {
                        server.renderFirstPagesAhead(BOUND);
                    } catch (InterruptedException e) {
                        // the test is done
                    }
                });
                try {
                    String before = get(server, "/api/crawl-errors");
                    assertThat(cache(server, "renders")).as("the HTML and JSON first page, once").isEqualTo(2);

                    // a new snapshot: hits committed as an import beside serve or a followed log commits them
                    store.writer().append(List.of(googlebot(NEWER, "66.249.66.1", "/fresh/after-the-move", 404, VERIFIED)));
                    store.writer().flush();

                    // rendered without a reader: only /metrics is asked until it is
                    Waits.await("the new snapshot's first page rendered ahead").until(() -> cache(server, "ahead") == 4);
                    assertThat(cache(server, "renders")).as("each first page once more, HTML and JSON").isEqualTo(4);
                    long hits = cache(server, "hits");
                    String html = get(server, "/crawl-errors");
                    String json = get(server, "/api/crawl-errors");
                    assertThat(html).contains("/fresh/after-the-move");
                    assertThat(json).contains("/fresh/after-the-move").isNotEqualTo(before);
                    assertThat(JSON.readTree(json).get("total").asLong()).isEqualTo(JSON.readTree(before).get("total").asLong() + 1);
                    assertThat(get(server, "/crawl-errors?page=1")).isEqualTo(html);
                    assertThat(cache(server, "renders")).as("no first page rendered for its readers").isEqualTo(4);
                    assertThat(cache(server, "hits")).isEqualTo(hits + 3);
                } finally {
                    ahead.interrupt();
                    ahead.join(BOUND.toMillis());
                }
            } finally {
                report.close();
            }
        }
    }

    @Test
    void aStoreThatStopsAnsweringAWhileDoesNotEndTheRenderingAhead(@TempDir Path dir) throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"))) {
            store.writer().append(UncountedFirstPageContract.hits());
            store.writer().flush();
            // the look for a new snapshot fails while the store does not answer, as a ClickHouse server that stopped does
            AtomicBoolean down = new AtomicBoolean();
            HitReader real = store.reader();
            HitReader reader = (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(),
                    new Class<?>[] {HitReader.class}, (proxy, method, args) -> {
                        if (method.getName().equals("committed") && down.get()) {
                            throw new IllegalStateException("the store does not answer");
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            CrawlErrorReport report = new CrawlErrorReport(reader, ReportConfig.in(ZoneOffset.UTC).withSummaryWait(BOUND));
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                report.warmUp(() -> { });
                assertThat(server.renderFirstPage(BOUND)).isTrue();
                Thread ahead = Thread.ofPlatform().daemon().name("first-pages-ahead").start(() -> {
                    try {
                        server.renderFirstPagesAhead(BOUND);
                    } catch (InterruptedException e) {
                        // the test is done
                    }
                });
                try {
                    Waits.await("the first page looked at").until(() -> cache(server, "ahead") >= 2);
                    down.set(true);
                    Thread.sleep(ReportServer.NEWEST_LOOK.toMillis() * 5); // some looks fail meanwhile
                    down.set(false);
                    store.writer().append(List.of(googlebot(NEWER, "66.249.66.1", "/fresh/after-the-outage", 404, VERIFIED)));
                    store.writer().flush();
                    Waits.await("the new snapshot's first page rendered ahead after the outage").until(() -> cache(server, "ahead") >= 4);
                    assertThat(ahead.isAlive()).isTrue();
                    assertThat(get(server, "/api/crawl-errors")).contains("/fresh/after-the-outage");
                } finally {
                    ahead.interrupt();
                    ahead.join(BOUND.toMillis());
                }
            } finally {
                report.close();
            }
        }
    }

    /** The server's count of report answers found kept ("hits") or not ("misses"), from its /metrics. */
    static long cache(ReportServer server, String which) throws Exception {
        String name = "crawl_errors_page_cache_" + which + "_total";
        for (String line : get(server, "/metrics").split("\n")) {
            if (line.startsWith(name)) {
                return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no " + name + " in /metrics");
    }

    static String get(ReportServer server, String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + path)).timeout(BOUND).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return response.body();
    }
}
