package dev.crawlerrors.web;

import static dev.crawlerrors.web.FirstPageRenderedTest.get;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.report.HeldBackSitemapCounts;
import dev.crawlerrors.report.ReportConfig;
import dev.crawlerrors.report.UncountedFirstPageContract;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Every HTML page of a view shows the same summary: made once for the view, its snapshot and the sitemaps' read
 * (its count of the view's other hits by time is a store read, slower with {@code in_sitemap=}), the pages after the
 * first do not read it again, and they are the pages a server of its own renders; a new snapshot or a sitemap read
 * again makes it again. Told by the store's reads, not by time.
 */
class KeptSummaryPagesTest {

    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final List<String> VIEWS = List.of("", "in_sitemap=yes&", "in_sitemap=no&");

    @Test
    void thePagesOfAViewShowItsSummaryReadOnceAsAServerOfItsOwnShowsIt() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(UncountedFirstPageContract.hits());
            store.writer().flush();
            HeldBackSitemapCounts.listEveryThirdPage(store);
            AtomicInteger byTime = new AtomicInteger();
            HitReader reader = (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(), new Class<?>[] {HitReader.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("countByTime")) {
                            byTime.incrementAndGet();
                        }
                        try {
                            return method.invoke(store.reader(), args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            CrawlErrorReport report = new CrawlErrorReport(reader, ReportConfig.in(ZoneOffset.UTC).withSummaryWait(BOUND));
            try (ReportServer server = ReportServer.start(report, store.health(), ServerConfig.on("127.0.0.1", 0))) {
                counted(report);
                for (String view : VIEWS) {
                    get(server, "/crawl-errors?" + view + "page=1");
                }
                int read = byTime.get();
                assertThat(read).as("the summaries' other hits read of the store").isPositive();
                for (String view : VIEWS) {
                    for (int page = 2; page <= 3; page++) {
                        assertThat(get(server, "/crawl-errors?" + view + "page=" + page)).contains("<table");
                    }
                }
                assertThat(byTime).as("the pages after the first read no summary again").hasValue(read);
                sameAsAServerOfItsOwn(store, server);

                // a new snapshot: its pages' summary made again, with the new hits
                HeldBackSitemapCounts.storeSomeAgain(store);
                counted(report);
                sameAsAServerOfItsOwn(store, server);

                // the sitemap read again, listing other pages: the in_sitemap= pages' summaries made again
                HeldBackSitemapCounts.listEveryFifthPage(store, report);
                sameAsAServerOfItsOwn(store, server);
            } finally {
                report.close();
            }
        }
    }

    private static void counted(CrawlErrorReport report) {
        for (String listed : List.of("yes", "no")) {
            assertThat(report.summaryCounted(report.request(Map.of("in_sitemap", List.of(listed))), BOUND)).isTrue();
        }
        assertThat(report.summaryCounted(report.request(Map.of()), BOUND)).isTrue();
    }

    /** Each view's pages 2 and 3 as a server of its own, on the store as it is now, renders them. */
    private static void sameAsAServerOfItsOwn(DuckDbHitStore store, ReportServer server) throws Exception {
        CrawlErrorReport plain = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC).withSummaryWait(BOUND));
        try (ReportServer own = ReportServer.start(plain, store.health(), ServerConfig.on("127.0.0.1", 0))) {
            counted(plain);
            for (String view : VIEWS) {
                for (int page = 2; page <= 3; page++) {
                    String path = "/crawl-errors?" + view + "page=" + page;
                    assertThat(get(server, path)).as(path).isEqualTo(get(own, path));
                }
            }
        } finally {
            plain.close();
        }
    }
}
