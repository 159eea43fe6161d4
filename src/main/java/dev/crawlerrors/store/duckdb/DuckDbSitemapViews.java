package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.UrlQuery;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The URLs page's {@code in_sitemap=} views of the kept states, each held as its URLs' numbers in
 * the view's order, made once per fold and per read of the sitemaps ({@link DuckDbListedNumbers})
 * by testing the numbers of the view without the sitemap in memory: a page of one is then its
 * numbers' slice and a read of its rows by number, where the store's condition on the listed
 * numbers built a hash table of two million of them for every page (2.7-6.5x the unfiltered page).
 * Bounded: 8 bytes a URL of a view, {@link #VIEWS} views and {@link #MOST_BYTES} in all; a view of
 * more is not held (the store's condition answers it). Safe from any thread.
 */
final class DuckDbSitemapViews {

    /** How many views are held at most, the least recently read dropped first. */
    static final int VIEWS = 4;
    /** The most bytes the views' numbers take together: a view of more is not held. */
    static final long MOST_BYTES = 64L << 20;

    /** A view: the fold and the sitemaps' reads it was made at, its scope and query. */
    record Key(Object fold, long reads, String scope, UrlQuery query) {
    }

    private final Map<Key, long[]> views = new LinkedHashMap<>(8, 0.75f, true);
    private long bytes;
    private Object fold;

    /** The view of {@code key}, if held. */
    synchronized long[] get(Key key) {
        return Objects.equals(fold, key.fold()) ? views.get(key) : null;
    }

    /** Whether a view of {@code urls} URLs may be held. */
    static boolean fits(long urls) {
        return urls * 8 <= MOST_BYTES;
    }

    /** Holds {@code numbers} as the view of {@code key}, dropping those of another fold, and the least recently read past the bounds. */
    synchronized void put(Key key, long[] numbers) {
        if (!Objects.equals(fold, key.fold())) {
            views.clear();
            bytes = 0;
            fold = key.fold();
        }
        long[] old = views.put(key, numbers);
        bytes += 8L * numbers.length - (old == null ? 0 : 8L * old.length);
        var eldest = views.entrySet().iterator();
        while ((views.size() > VIEWS || bytes > MOST_BYTES) && eldest.hasNext()) {
            Map.Entry<Key, long[]> view = eldest.next();
            if (view.getKey().equals(key)) {
                continue;
            }
            bytes -= 8L * view.getValue().length;
            eldest.remove();
        }
    }

    /** The bytes the views hold. */
    synchronized long bytes() {
        return bytes;
    }
}
