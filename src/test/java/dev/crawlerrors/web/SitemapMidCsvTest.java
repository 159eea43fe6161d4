package dev.crawlerrors.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.DemoFixture;
import dev.crawlerrors.demo.DemoLog;
import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.sitemap.SitemapUrl;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.SitemapStore;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A sitemap read while a CSV is being written changes neither its header nor its rows: the CSV asks
 * once whether a sitemap is held. The read is made to land right after that question, on the real
 * store, through a reader that forwards everything to it.
 */
class SitemapMidCsvTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {ReportLinks.CSV_PATH, ReportLinks.URLS_CSV_PATH})
    void aSitemapReadMidCsvLeavesHeaderAndRowsAgreeing(String path) throws Exception {
        try (DuckDbHitStore store = DemoFixture.demoStore(dir)) {
            List<SitemapUrl> listed = new ArrayList<>();
            for (StoredHit hit : store.reader().page(HitFilter.ERRORS, 0, 1000)) {
                listed.add(new SitemapUrl("www.example.be", hit.url()));
            }
            AtomicBoolean armed = new AtomicBoolean();
            SitemapStore sitemaps = forwarding(SitemapStore.class, store.sitemaps(), (real, method, args) -> {
                Object value = method.invoke(real, args);
                if (method.getName().equals("sitemaps") && armed.getAndSet(false)) {
                    store.sitemaps().replace("https://www.example.be/sitemap.xml", Instant.now(), listed);
                }
                return value;
            });
            HitReader reader = forwarding(HitReader.class, store.reader(),
                    (real, method, args) -> method.getName().equals("sitemaps") ? sitemaps : method.invoke(real, args));
            CrawlErrorReport report = new CrawlErrorReport(reader, ReportConfig.in(ZoneId.of("UTC")).withUrlNames(List.of(DemoLog.URL_NAMES)).withSummaryWait(Duration.ofSeconds(30)));
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                armed.set(true);
                HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + path)).build(), HttpResponse.BodyHandlers.ofString());

                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(armed).isFalse(); // the sitemap was read mid-response
                List<Integer> cells = response.body().lines().map(SitemapMidCsvTest::cells).distinct().toList();
                assertThat(response.body().lines().count()).isGreaterThan(10);
                assertThat(cells).as("cells a line, header and rows").hasSize(1);
            }
        }
    }

    /** How many cells a CSV line (no line breaks in its cells) has. */
    private static int cells(String line) {
        int cells = 1;
        boolean quoted = false;
        for (char c : line.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                cells++;
            }
        }
        return cells;
    }

    private interface Forward {
        Object call(Object real, java.lang.reflect.Method method, Object[] args) throws Exception;
    }

    /** {@code real} behind {@code type}, each call going through {@code forward}. */
    private static <T> T forwarding(Class<T> type, T real, Forward forward) {
        InvocationHandler handler = (proxy, method, args) -> {
            try {
                return forward.call(real, method, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }
}
