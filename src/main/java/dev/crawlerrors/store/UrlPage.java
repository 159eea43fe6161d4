package dev.crawlerrors.store;

import java.util.List;

/** One page of the URLs a view lists, and how many it lists in all. */
public record UrlPage(long total, List<UrlState> rows) {

    public UrlPage {
        rows = List.copyOf(rows);
    }
}
