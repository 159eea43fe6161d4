package dev.crawlerrors.store;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The number and the first rows of the kept states of the views read lately, kept until the next
 * fold: the kept states change only when a fold publishes, so a view's count and its first pages
 * are the same for every read between two folds, and the URLs page's usual requests (the default
 * view and its first pages, a crawler's) read them here instead of counting and sorting every URL
 * each time. A read that leaves out URLs changed since the fold takes them out of the kept rows;
 * a sitemap view is kept under the sitemaps' reads it was made with (sitemaps change without a
 * fold); a page past the first rows or a count the kept rows cannot tell is read from the store as
 * before. Safe from any thread.
 */
final class KeptPages {

    /** How many rows of each view are kept: its first five pages. */
    static final int FIRST_ROWS = 500;
    /** How many views are kept at most, the least recently read dropped first. */
    private static final int VIEWS = 32;

    /** What reads the kept states from the store. */
    interface Source {
        /** The kept states of {@code scope} that {@code query} takes, less {@code excluded}, from {@code offset}, at most {@code limit}. */
        UrlPage kept(UrlQuery query, String scope, Set<Long> excluded, long offset, int limit);
    }

    /** A view of a scope; {@code sitemaps} names the sitemaps' reads a sitemap view was made with, null for any other. */
    private record View(String scope, UrlQuery query, Object sitemaps) {
    }

    private record First(long total, List<UrlState> rows) {
        boolean whole() {
            return rows.size() >= total;
        }
    }

    /** The fold the kept views are of. */
    private Object fold;
    private final Map<View, First> views = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<View, First> eldest) {
            return size() > VIEWS;
        }
    };

    /**
     * What {@link Source#kept} would answer, read from the view's kept first rows when they tell it.
     *
     * @param fold     what names the fold whose states the store holds now (equal for equal folds)
     * @param sitemaps for a sitemap view, what names the sitemaps' reads it is matched against (equal
     *                 while none is read again), taken before the view is read; null for any other view
     */
    UrlPage page(Object fold, Object sitemaps, UrlQuery query, String scope, Set<Long> excluded, long offset, int limit, Source source) {
        if ((query.filter().inSitemap() != null && sitemaps == null) || offset + limit > FIRST_ROWS) {
            return source.kept(query, scope, excluded, offset, limit);
        }
        View view = new View(scope, query, query.filter().inSitemap() == null ? null : sitemaps);
        First first = kept(fold, view);
        if (first == null) {
            UrlPage read = source.kept(query, scope, Set.of(), 0, FIRST_ROWS);
            first = new First(read.total(), read.rows());
            keep(fold, view, first);
        }
        if (excluded.isEmpty()) {
            return new UrlPage(first.total(), slice(first.rows(), offset, limit));
        }
        if (!first.whole()) {
            // how many of the excluded are among the view's other rows is not known here
            return source.kept(query, scope, excluded, offset, limit);
        }
        List<UrlState> left = first.rows().stream().filter(state -> !excluded.contains(state.key())).toList();
        return new UrlPage(left.size(), slice(left, offset, limit));
    }

    private synchronized First kept(Object fold, View view) {
        return Objects.equals(this.fold, fold) ? views.get(view) : null;
    }

    private synchronized void keep(Object fold, View view, First first) {
        if (!Objects.equals(this.fold, fold)) {
            views.clear();
            this.fold = fold;
        }
        views.put(view, first);
    }

    private static List<UrlState> slice(List<UrlState> rows, long offset, int limit) {
        if (offset >= rows.size() || limit <= 0) {
            return List.of();
        }
        return rows.subList((int) offset, (int) Math.min(rows.size(), offset + limit));
    }
}
