package dev.crawlerrors.report;

import dev.crawlerrors.store.HitReader;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * The report's count cubes, counted one after the other on one thread: the cube of statuses,
 * bot types, crawlers and verdicts, the same counted by host and URL head too, which answers the
 * views with a host or a URL prefix, and the same counted by whether a sitemap lists the URL, which
 * answers {@code in_sitemap} (counted only when a sitemap is held). Not one, because the second has
 * many more cells: past its bound it is dropped alone, and the first still answers the views without a URL.
 */
final class KeptCubes {

    private final KeptCube plain;
    private final KeptCube byUrl;
    private final KeptCube bySitemap;
    private final HitReader store;
    private final ExecutorService counter;

    /** @param maxBytes the memory each cube may take */
    KeptCubes(HitReader store, long maxBytes) {
        this.store = store;
        this.counter = KeptCube.counter();
        this.plain = new KeptCube(store, maxBytes, false, counter);
        this.byUrl = new KeptCube(store, maxBytes, true, counter);
        this.bySitemap = new KeptCube(store, maxBytes, false, true, counter);
    }

    /**
     * The thread the cubes are counted on, for other reads of the whole store that should queue behind
     * them rather than share the cores and the store's memory with them; stopped by {@link #close}.
     */
    ExecutorService counter() {
        return counter;
    }

    /** The cubes, for the views summed from them. */
    KeptCube[] each() {
        return new KeptCube[] {plain, byUrl, bySitemap};
    }

    /**
     * Starts counting them in the background: the one by sitemap first when a sitemap is held (else
     * when first asked), since an {@code in_sitemap=} view waits for it ({@link KeptCube#counts}) rather
     * than have the store count it beside the cubes, then the one without URLs, then the one by URL,
     * which reads every hit's URL.
     */
    void start() {
        if (!store.sitemaps().sitemaps().isEmpty()) {
            bySitemap.start();
        }
        plain.start();
        byUrl.start();
    }

    /** Sitemaps were read: the cube by sitemap is counted again if they changed ({@link KeptCube#sitemapsRead}). */
    void sitemapsRead() {
        bySitemap.sitemapsRead();
    }

    /** The cells kept, the bytes they take, and how many cubes were dropped for their bound: for metrics. */
    List<Long> footprint() {
        List<Long> a = plain.footprint();
        List<Long> b = byUrl.footprint();
        List<Long> c = bySitemap.footprint();
        return List.of(a.get(0) + b.get(0) + c.get(0), a.get(1) + b.get(1) + c.get(1), a.get(2) + b.get(2) + c.get(2));
    }

    /** Stops counting: waits for a count that is running. */
    void close() {
        plain.close();
        byUrl.close();
        bySitemap.close();
    }
}
