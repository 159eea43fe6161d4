package dev.crawlerrors.store;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The number and the first rows of the views lately made from the URLs' histories (a time range,
 * a bot type, several crawlers: nothing kept applies to them), each at its snapshot: a view at a
 * snapshot is the same for every read, so its next pages and a reload, in HTML, JSON or CSV's
 * first page, read them here instead of reading every hit of the range again. A sitemap view is
 * kept under the sitemaps' reads it was made with (sitemaps change without a new snapshot); a page
 * past the first rows is made as before.
 * Safe from any thread.
 */
final class MadePages {

    /** How many rows of each view are kept: its first five pages. */
    static final int FIRST_ROWS = KeptPages.FIRST_ROWS;
    /** How many views are kept at most, the least recently read dropped first. */
    private static final int VIEWS = 32;

    /** A view at a snapshot; {@code sitemaps} names the sitemaps' reads a sitemap view was made with, null for any other. */
    private record View(UrlQuery query, Snapshot at, Object sitemaps) {
    }

    private final Map<View, UrlPage> views = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<View, UrlPage> eldest) {
            return size() > VIEWS;
        }
    };

    /**
     * The page from {@code offset}, at most {@code limit} rows, of the view {@code query} at {@code at}.
     *
     * @param sitemaps for a sitemap view, what names the sitemaps' reads it is matched against (equal
     *                 while none is read again), taken before the view is made; null for any other view
     * @param make     makes the view's first {@code offset + limit} rows (at least {@link #FIRST_ROWS} when asked
     *                 through here) and its number, as {@code make.apply(rows)}
     */
    UrlPage page(UrlQuery query, Snapshot at, Object sitemaps, long offset, int limit, java.util.function.LongFunction<UrlPage> make) {
        if ((query.filter().inSitemap() != null && sitemaps == null) || offset + limit > FIRST_ROWS) {
            return slice(make.apply(offset + limit), offset, limit);
        }
        View view = new View(query, at, query.filter().inSitemap() == null ? null : sitemaps);
        UrlPage first = kept(view, () -> make.apply(FIRST_ROWS));
        return slice(first, offset, limit);
    }

    private UrlPage kept(View view, Supplier<UrlPage> make) {
        synchronized (this) {
            UrlPage found = views.get(view);
            if (found != null) {
                return found;
            }
        }
        UrlPage made = make.get();
        synchronized (this) {
            views.put(view, made);
        }
        return made;
    }

    private static UrlPage slice(UrlPage page, long offset, int limit) {
        List<UrlState> rows = page.rows();
        if (offset >= rows.size() || limit <= 0) {
            return new UrlPage(page.total(), List.of());
        }
        return new UrlPage(page.total(), rows.subList((int) offset, (int) Math.min(rows.size(), offset + limit)));
    }
}
