package dev.crawlerrors.web;

import dev.crawlerrors.report.UrlParameters;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Links of the URLs page: the report's filters and snapshot ({@link ReportLinks}) with the page's
 * own parameters (state, fixed, inconsistent, sort), changed only where a link says so.
 */
public final class UrlLinks {

    private final ReportLinks filters;
    private final List<ReportLinks.Filter> own;

    /** The filters and own parameters of a request's query, at snapshot {@code at} (its token; null for the newest). */
    public UrlLinks(Map<String, List<String>> query, String at) {
        this.filters = new ReportLinks(query, at);
        List<ReportLinks.Filter> kept = new ArrayList<>();
        query.forEach((name, values) -> {
            if (UrlParameters.OWN.contains(name)) {
                for (String value : values) {
                    if (!value.isBlank()) {
                        kept.add(new ReportLinks.Filter(name, value));
                    }
                }
            }
        });
        this.own = List.copyOf(kept);
    }

    private UrlLinks(ReportLinks filters, List<ReportLinks.Filter> own) {
        this.filters = filters;
        this.own = own;
    }

    /** The report's filters and snapshot, for the links to the other pages. */
    public ReportLinks filters() {
        return filters;
    }

    /** The page's own parameters, as given. */
    public List<ReportLinks.Filter> own() {
        return own;
    }

    /** The value of an own parameter, or an empty string. */
    public String value(String name) {
        return own.stream().filter(f -> f.name().equals(name)).map(ReportLinks.Filter::value).findFirst().orElse("");
    }

    /** These links with own parameter {@code name} set to {@code value} alone (null: taken off). */
    public UrlLinks with(String name, String value) {
        List<ReportLinks.Filter> out = new ArrayList<>();
        for (ReportLinks.Filter f : own) {
            if (!f.name().equals(name)) {
                out.add(f);
            }
        }
        if (value != null) {
            out.add(new ReportLinks.Filter(name, value));
        }
        return new UrlLinks(filters, List.copyOf(out));
    }

    /** These links without {@code names} of the own parameters. */
    public UrlLinks without(String... names) {
        List<String> gone = List.of(names);
        return new UrlLinks(filters, own.stream().filter(f -> !gone.contains(f.name())).toList());
    }

    public String page(int page) {
        return path(ReportLinks.URLS_PATH, "?page=" + page);
    }

    /** The first page (its address without a page number). */
    public String first() {
        return path(ReportLinks.URLS_PATH, "");
    }

    public String json(int page) {
        return path(ReportLinks.URLS_JSON_PATH, "?page=" + page);
    }

    public String csv() {
        return path(ReportLinks.URLS_CSV_PATH, "");
    }

    /** The fresh list: the newest snapshot, from the first page. */
    public String fresh() {
        return new UrlLinks(filters.atSnapshot(null), own).first();
    }

    /** {@code path} with {@code lead} ({@code ?page=N} or nothing), the own parameters, then the filters and snapshot. */
    private String path(String path, String lead) {
        StringBuilder sb = new StringBuilder(lead);
        for (ReportLinks.Filter f : own) {
            sb.append(sb.isEmpty() ? '?' : '&').append(ReportLinks.encode(f.name())).append('=').append(ReportLinks.encode(f.value()));
        }
        String rest = filters.at("");
        if (!rest.isEmpty()) {
            sb.append(sb.isEmpty() ? '?' : '&').append(rest.substring(1));
        }
        return path + sb;
    }
}
