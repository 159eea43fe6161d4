package dev.crawlerrors.web;

import dev.crawlerrors.report.UrlListPage;
import dev.crawlerrors.report.UrlRow;
import dev.crawlerrors.text.Figures;
import java.util.List;

/**
 * What the URLs page shows: the URLs of the view with their state now, links that pick a state or an
 * order (keeping the filters), each URL a link to its own page, and the page links.
 */
public record UrlsView(UrlListPage page, UrlLinks links, String stateShown) {

    /** A choice among states or orders: its label, its link, and whether it is the one shown. */
    public record Choice(String id, String label, String href, boolean current) {
    }

    public Nav nav() {
        return new Nav("urls", links.filters());
    }

    public FilterBar bar() {
        return new FilterBar(ReportLinks.URLS_PATH, links.filters(), links.own());
    }

    public String total() {
        return Figures.counted(page.total(), "URL");
    }

    /** The states to list: broken now (the default), redirected, ok, fixed, flapping, or every URL. */
    public List<Choice> states() {
        UrlLinks plain = links.without("state", "fixed", "inconsistent");
        return List.of(
                new Choice("state-broken", "broken now", plain.with("state", "broken").first(), stateShown.equals("broken")),
                new Choice("state-redirected", "redirected", plain.with("state", "redirected").first(), stateShown.equals("redirected")),
                new Choice("state-ok", "ok", plain.with("state", "ok").first(), stateShown.equals("ok")),
                new Choice("state-fixed", "fixed", plain.with("fixed", "true").first(), stateShown.equals("fixed")),
                new Choice("state-inconsistent", "inconsistent", plain.with("inconsistent", "true").with("state", "all").first(),
                        stateShown.equals("inconsistent")),
                new Choice("state-all", "every URL", plain.with("state", "all").first(), stateShown.equals("all")));
    }

    public List<Choice> sorts() {
        String current = links.value("sort").isEmpty() ? "errors" : links.value("sort");
        return List.of(
                new Choice("sort-errors", "most error hits", links.with("sort", "errors").first(), current.equals("errors")),
                new Choice("sort-last_error", "newest error", links.with("sort", "last_error").first(), current.equals("last_error")),
                new Choice("sort-first_error", "newest first error", links.with("sort", "first_error").first(), current.equals("first_error")),
                new Choice("sort-last_crawled", "newest crawl", links.with("sort", "last_crawled").first(), current.equals("last_crawled")));
    }

    public String urlLink(UrlRow row) {
        return links.filters().url(row.url(), row.host());
    }

    public String grouped(long n) {
        return Figures.grouped(n);
    }

    public String orDash(String value) {
        return value == null ? "–" : value;
    }

    public String firstLink() {
        return links.page(1);
    }

    public String previousLink() {
        return links.page(page.page() - 1);
    }

    public String nextLink() {
        return links.page(page.page() + 1);
    }

    public String lastLink() {
        return links.page(page.pages());
    }

    public String jsonLink() {
        return links.json(page.page());
    }

    public String csvLink() {
        return links.csv();
    }

    public String freshLink() {
        return links.fresh();
    }

    /** Whether any row has a host (the column is shown only then). */
    public boolean hosts() {
        return page.rows().stream().anyMatch(r -> r.host() != null);
    }
}
