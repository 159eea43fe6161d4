package dev.crawlerrors.web;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Verification;
import java.util.List;

/**
 * The filter bar every page shows: a plain GET form to {@code action} holding the request's
 * filters, and the active ones as chips, each with a link that takes it off alone; a page's own
 * parameters ({@code kept}, such as the URLs page's state and order) ride along in hidden fields.
 */
public record FilterBar(String action, ReportLinks links, List<ReportLinks.Filter> kept) {

    public FilterBar(String action, ReportLinks links) {
        this(action, links, List.of());
    }

    /** One active filter value and the same page without it. */
    public record Chip(String name, String value, String remove) {
    }

    public List<String> botTypes() {
        return java.util.Arrays.stream(BotType.values()).map(Enum::name).toList();
    }

    public List<String> verifications() {
        return java.util.Arrays.stream(Verification.values()).map(Enum::name).toList();
    }

    public boolean checked(String name, String value) {
        return links.values(name).contains(value);
    }

    /** A filter's values as its text field shows them: {@code 404, 5xx}. */
    public String text(String name) {
        return String.join(", ", links.values(name));
    }

    public List<Chip> chips() {
        return links.filters().stream()
                .map(f -> new Chip(f.name(), f.value(), links.without(f).at(action)))
                .toList();
    }

    /** The same page without any filter. */
    public String clear() {
        return action;
    }

    /** Whether a filter the form has no field for is active (kept by a hidden field). */
    public boolean has(String name) {
        return !links.values(name).isEmpty();
    }
}
