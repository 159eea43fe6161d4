package dev.crawlerrors.report;

import dev.crawlerrors.store.UrlSort;
import dev.crawlerrors.store.UrlState;
import java.util.Set;

/**
 * What a request to the URLs page asks for: the report's filters, page and snapshot ({@code report};
 * its statuses are the URLs' last statuses, any when none), the URLs' states ({@code states}, every
 * state when empty), whether only fixed or flapping ones, and their order.
 */
public record UrlRequest(ReportRequest report, Set<UrlState.State> states, boolean fixedOnly, boolean inconsistentOnly, UrlSort sort) {

    public UrlRequest {
        states = Set.copyOf(states);
    }
}
