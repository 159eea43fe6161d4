package dev.crawlerrors.report;

import dev.crawlerrors.sitemap.SitemapUrl;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.HitStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store's reader whose counts by sitemap wait until {@link #letGo} (as a large store's cube by
 * sitemap is still counting when serve starts), and that counts the rows it reads once {@link
 * #warmed}: what the tests of the in_sitemap= first pages made by serve's warm-up share, with the
 * sitemap they hold ({@link #listEveryThirdPage}).
 */
public final class HeldBackSitemapCounts {

    public final CountDownLatch letGo = new CountDownLatch(1);
    public final AtomicBoolean warmed = new AtomicBoolean();
    /** Rows read of the store since {@link #warmed}. */
    public final AtomicInteger reads = new AtomicInteger();
    public final HitReader reader;

    public HeldBackSitemapCounts(HitReader real, Duration bound) {
        reader = (HitReader) Proxy.newProxyInstance(HitReader.class.getClassLoader(), new Class<?>[] {HitReader.class},
                (proxy, method, args) -> {
                    boolean bySitemap = method.getName().equals("countBySitemap")
                            || method.getName().equals("minuteCounts") && ((HitFilter) args[0]).inSitemap() != null;
                    if (bySitemap && !letGo.await(bound.toSeconds(), TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the count was held back past the test's bound");
                    }
                    if (warmed.get() && (method.getName().equals("rows") || method.getName().equals("hit"))) {
                        reads.incrementAndGet();
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** A store in memory with {@link UncountedFirstPageContract#hits()}, committed, and {@link #listEveryThirdPage}'s sitemap. */
    public static dev.crawlerrors.store.duckdb.DuckDbHitStore storeWithSitemap() {
        dev.crawlerrors.store.duckdb.DuckDbHitStore store = dev.crawlerrors.store.duckdb.DuckDbHitStore.inMemory();
        store.writer().append(UncountedFirstPageContract.hits());
        store.writer().flush();
        listEveryThirdPage(store);
        return store;
    }

    /** A sitemap of www.example.be that lists every third of the pages /p0 to /p1200. */
    public static void listEveryThirdPage(HitStore store) {
        List<SitemapUrl> listed = new ArrayList<>();
        for (int n = 0; n < 1_201; n += 3) {
            listed.add(new SitemapUrl("www.example.be", "/p" + n));
        }
        store.sitemaps().replace("https://www.example.be/sitemap.xml", Instant.parse("2026-10-01T00:00:00Z"), listed);
    }

    /** The same sitemap read again, listing every fifth page instead; returns once {@code report} has seen the new read. */
    public static void listEveryFifthPage(HitStore store, CrawlErrorReport report) {
        List<SitemapUrl> listed = new ArrayList<>();
        for (int n = 0; n < 1_201; n += 5) {
            listed.add(new SitemapUrl("www.example.be", "/p" + n));
        }
        String before = report.sitemapsVersion();
        store.sitemaps().replace("https://www.example.be/sitemap.xml", Instant.parse("2026-10-02T00:00:00Z"), listed);
        dev.crawlerrors.Waits.await("the sitemap's new read seen").until(() -> !report.sitemapsVersion().equals(before));
    }

    /** A new snapshot of {@code store}: the first 300 of {@link UncountedFirstPageContract#hits()} stored again. */
    public static void storeSomeAgain(HitStore store) {
        store.writer().append(new ArrayList<>(UncountedFirstPageContract.hits().subList(0, 300)));
        store.writer().flush();
    }
}
