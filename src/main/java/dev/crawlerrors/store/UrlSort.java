package dev.crawlerrors.store;

import java.util.Comparator;

/**
 * The orders the URLs page lists URLs in; the names are the {@code sort} parameter's values. Every
 * order ends with the URL's number ({@link UrlKey#number()}), the same in every engine, so that pages
 * neither repeat nor skip a URL; times are the newest first, URLs without one last.
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
        this.order = first.thenComparingLong(UrlState::key);
    }

    /** The order as a comparator over states (a missing time, {@link UrlState#NONE}, sorts last). */
    public Comparator<UrlState> order() {
        return order;
    }
}
