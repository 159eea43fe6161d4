package dev.crawlerrors.store;

import java.util.Comparator;

/**
 * The orders the URLs page lists URLs in; the names are the {@code sort} parameter's values. Every
 * order ends with the host and the URL, so that pages neither repeat nor skip a URL; times are the
 * newest first, URLs without one last.
 */
public enum UrlSort {
    /** Most error hits (4xx, 5xx) first: the default. */
    errors(Comparator.comparingLong(UrlState::errorHits).reversed()),
    /** The newest error first. */
    last_error(Comparator.comparingLong(UrlState::lastError).reversed()),
    /** The newest first error first: what began to fail last. */
    first_error(Comparator.comparingLong(UrlState::firstError).reversed()),
    /** The newest crawl first. */
    last_crawled(Comparator.comparingLong(UrlState::lastCrawled).reversed());

    private final Comparator<UrlState> order;

    UrlSort(Comparator<UrlState> first) {
        // host, then URL, by code point (as both engines compare text): the end of every order
        this.order = first.thenComparing(UrlState::host, UrlSort::byCodePoint).thenComparing(UrlState::url, UrlSort::byCodePoint);
    }

    /** Text in code point order, which is UTF-8's byte order (Java's own compares UTF-16 units). */
    static int byCodePoint(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }

    /** The order as a comparator over states (a missing time, {@link UrlState#NONE}, sorts last). */
    public Comparator<UrlState> order() {
        return order;
    }
}
