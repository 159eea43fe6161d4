package dev.crawlerrors.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.Waits;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * With a sitemap held, the counts serve starts with include the patterns of the {@code in_sitemap=yes} and {@code =no}
 * views: their first Patterns page finds them counted (no count of the store's URLs of its own), and they are the
 * patterns a report counting them at the ask gives. Without a sitemap, no such count is made. Told by the store's
 * reads of URL counts, not by time.
 */
class SitemapPatternsCountedAtStartTest {

    @Test
    void theInSitemapViewsPatternsAreCountedWithTheStartsCountsAndAnsweredFromThem() throws Exception {
        try (DuckDbHitStore store = HeldBackSitemapCounts.storeWithSitemap()) {
            Map<String, AtomicInteger> counted = new ConcurrentHashMap<>();
            CrawlErrorReport report = new CrawlErrorReport(countingUrls(store.reader(), counted), ReportConfig.in(ZoneOffset.UTC));
            try {
                report.startCounting();
                Waits.await("the in_sitemap= views' patterns counted").until(() -> done(counted, true) == 1 && done(counted, false) == 1);

                CrawlErrorReport plain = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC));
                try {
                    for (String listed : List.of("yes", "no")) {
                        Map<String, List<String>> query = Map.of("in_sitemap", List.of(listed));
                        CountedAt<dev.crawlerrors.report.pattern.PatternReport> found =
                                report.patternsAt(report.request(query, ReportParameters.PATTERNS));
                        assertThat(found.value().patterns()).as(listed).isNotEmpty()
                                .isEqualTo(plain.patternsAt(plain.request(query, ReportParameters.PATTERNS)).value().patterns());
                    }
                } finally {
                    plain.close();
                }
                assertThat(done(counted, true)).as("the store's URLs counted again for in_sitemap=yes").isEqualTo(1);
                assertThat(done(counted, false)).as("the store's URLs counted again for in_sitemap=no").isEqualTo(1);
            } finally {
                report.close();
            }
        }
    }

    @Test
    void withoutASitemapNoInSitemapViewIsCounted() throws Exception {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(UncountedFirstPageContract.hits());
            store.writer().flush();
            Map<String, AtomicInteger> counted = new ConcurrentHashMap<>();
            CrawlErrorReport report = new CrawlErrorReport(countingUrls(store.reader(), counted), ReportConfig.in(ZoneOffset.UTC));
            try {
                report.startCounting();
                // the default view's patterns are counted on the same thread, after which nothing else is queued
                report.patternsAt(report.request(Map.of(), ReportParameters.PATTERNS));
                assertThat(counted).containsOnlyKeys("either");
            } finally {
                report.close();
            }
        }
    }

    private static int done(Map<String, AtomicInteger> counted, boolean listed) {
        AtomicInteger n = counted.get(listed ? "yes" : "no");
        return n == null ? 0 : n.get();
    }

    /** {@code real}, counting each count of the store's URLs that finished by its filter's {@code in_sitemap}: yes, no or either. */
    private static HitReader countingUrls(HitReader real, Map<String, AtomicInteger> counted) {
        return (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(), new Class<?>[] {HitReader.class},
                (proxy, method, args) -> {
                    try {
                        Object result = method.invoke(real, args);
                        if (method.getName().equals("forEachUrl")) {
                            Boolean listed = ((HitFilter) args[0]).inSitemap();
                            String key = listed == null ? "either" : listed ? "yes" : "no";
                            counted.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                        }
                        return result;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
