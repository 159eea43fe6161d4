package dev.crawlerrors.web;

import dev.crawlerrors.report.ReportParameters;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Links between the report's pages and formats that keep the request's filters: every page, the
 * patterns, the overview and each chart's bars link with them, changed only where the link says so
 * (another page, a status, a time range, one filter taken off). A repeatable filter's values are
 * kept one by one ({@code status=404&status=3xx}), so each can be taken off alone. They keep the
 * snapshot the page was read at too ({@code at}), so following them shows the same hits however
 * many arrive meanwhile; the fresh report's link drops it.
 */
public final class ReportLinks {

    static final String HTML_PATH = "/crawl-errors";
    static final String JSON_PATH = "/api/crawl-errors";
    static final String CSV_PATH = "/crawl-errors.csv";
    static final String PATTERNS_PATH = "/crawl-errors/patterns";
    static final String PATTERNS_JSON_PATH = "/api/crawl-errors/patterns";
    static final String OVERVIEW_PATH = "/crawl-errors/overview";
    static final String OVERVIEW_JSON_PATH = "/api/crawl-errors/overview";
    static final String HIT_PATH = "/crawl-errors/hits/";
    static final String ALERTS_PATH = "/crawl-errors/alerts";
    static final String HIT_JSON_PATH = "/api/crawl-errors/hits/";
    static final String URLS_PATH = "/crawl-errors/urls";
    static final String URLS_JSON_PATH = "/api/crawl-errors/urls";
    static final String URLS_CSV_PATH = "/crawl-errors/urls.csv";
    static final String URL_PATH = "/crawl-errors/url";
    static final String URL_JSON_PATH = "/api/crawl-errors/url";
    static final String ROBOTS_PATH = "/crawl-errors/robots";
    static final String ROBOTS_JSON_PATH = "/api/crawl-errors/robots";
    static final String SITEMAPS_PATH = "/crawl-errors/sitemaps";
    static final String SITEMAPS_JSON_PATH = "/api/crawl-errors/sitemaps";
    static final String SITEMAPS_CSV_PATH = "/crawl-errors/sitemaps.csv";
    private static final Set<String> REPEATABLE = Set.of("status", "bot", "crawler", "verification");

    /** One filter value: a parameter's name and one of its values. */
    public record Filter(String name, String value) {
    }

    private final List<Filter> filters;
    /** The snapshot's token, or null for the newest. */
    private final String snapshot;

    /** The filters of a request's query (its page, interval and empty values left out), at the newest snapshot. */
    public ReportLinks(Map<String, List<String>> query) {
        this(query, null);
    }

    /** The filters of a request's query (its page, interval and empty values left out), at snapshot {@code at} (its token; null for none). */
    public ReportLinks(Map<String, List<String>> query, String at) {
        List<Filter> kept = new ArrayList<>();
        query.forEach((name, values) -> {
            if (ReportParameters.FILTERS.contains(name)) {
                for (String value : values) {
                    // a crawler's name may hold a comma ("Slurp, Inc."), so its values are kept whole
                    boolean split = REPEATABLE.contains(name) && !name.equals("crawler");
                    for (String part : split ? value.split(",", -1) : new String[] {value}) {
                        String trimmed = REPEATABLE.contains(name) ? part.trim() : part;
                        if (!trimmed.isEmpty() && !kept.contains(new Filter(name, trimmed))) {
                            kept.add(new Filter(name, trimmed));
                        }
                    }
                }
            }
        });
        this.filters = List.copyOf(kept);
        this.snapshot = at;
    }

    private ReportLinks(List<Filter> filters, String snapshot) {
        this.filters = List.copyOf(filters);
        this.snapshot = snapshot;
    }

    /** The first page of the report with every bot type shown ({@code bot=all}), the other filters and the snapshot kept. */
    public String everyBotType() {
        return with("bot", "all").page(1);
    }

    /** These links at snapshot {@code at} (its token; null for the newest). */
    public ReportLinks atSnapshot(String at) {
        return new ReportLinks(filters, at);
    }

    /** The newest report with the same filters, from its first page. */
    public String fresh() {
        return new ReportLinks(filters, null).report();
    }

    /** The filters, in the order the request gave them. */
    public List<Filter> filters() {
        return filters;
    }

    public boolean isEmpty() {
        return filters.isEmpty();
    }

    /** The values of one filter. */
    public List<String> values(String name) {
        return filters.stream().filter(f -> f.name().equals(name)).map(Filter::value).toList();
    }

    /** The one value of a filter, or an empty string. */
    public String value(String name) {
        List<String> values = values(name);
        return values.isEmpty() ? "" : values.get(0);
    }

    /** These filters with {@code name} set to {@code value} alone. */
    public ReportLinks with(String name, String value) {
        List<Filter> out = new ArrayList<>();
        boolean placed = false;
        for (Filter filter : filters) {
            if (!filter.name().equals(name)) {
                out.add(filter);
            } else if (!placed) {
                out.add(new Filter(name, value));
                placed = true;
            }
        }
        if (!placed) {
            out.add(new Filter(name, value));
        }
        return new ReportLinks(out, snapshot);
    }

    /** These filters without one value. */
    public ReportLinks without(Filter filter) {
        return new ReportLinks(filters.stream().filter(f -> !f.equals(filter)).toList(), snapshot);
    }

    /** These filters without any value of {@code name}. */
    public ReportLinks without(String name) {
        return new ReportLinks(filters.stream().filter(f -> !f.name().equals(name)).toList(), snapshot);
    }

    /** {@code path} with these filters. */
    public String at(String path) {
        return path + query("?");
    }

    /** One hit's own page, its verdict as of the links' snapshot. */
    public String hit(long id) {
        return HIT_PATH + id + (snapshot == null ? "" : "?at=" + encode(snapshot));
    }

    /** One hit as JSON, its verdict as of the links' snapshot. */
    public String hitJson(long id) {
        return HIT_JSON_PATH + id + (snapshot == null ? "" : "?at=" + encode(snapshot));
    }

    /** The report's page {@code page} (HTML). */
    public String page(int page) {
        return HTML_PATH + "?page=" + page + query("&");
    }

    /** The report's first page (HTML), its address without a page number (at the links' snapshot). */
    public String report() {
        return HTML_PATH + query("?");
    }

    public String json(int page) {
        return JSON_PATH + "?page=" + page + query("&");
    }

    public String csv() {
        return CSV_PATH + query("?");
    }

    public String patterns() {
        return PATTERNS_PATH + query("?");
    }

    public String patternsJson() {
        return PATTERNS_JSON_PATH + query("?");
    }

    public String overview() {
        return OVERVIEW_PATH + query("?");
    }

    public String overview(String interval) {
        String query = query("&");
        return OVERVIEW_PATH + "?interval=" + interval + query;
    }

    public String overviewJson() {
        return OVERVIEW_JSON_PATH + query("?");
    }

    /** The URLs page with these filters (its own parameters, such as the state, are {@link UrlLinks}'). */
    public String urls() {
        return URLS_PATH + query("?");
    }

    /** The sitemaps page at {@code path} (HTML, JSON or CSV), keeping the filters it takes and the snapshot. */
    public String sitemaps(String path) {
        List<Filter> kept = filters.stream().filter(f -> dev.crawlerrors.report.SitemapReport.PARAMETERS.contains(f.name())).toList();
        return path + new ReportLinks(kept, snapshot).query("?");
    }

    public String sitemaps() {
        return sitemaps(SITEMAPS_PATH);
    }

    /**
     * One URL's own page, keeping the filters of its hits (crawler, bot type, verdict, time range)
     * and the snapshot: {@code url} is the request target itself, {@code host} its host or null.
     */
    public String url(String url, String host) {
        StringBuilder sb = new StringBuilder(URL_PATH).append("?url=").append(encode(url));
        if (host != null && !host.isEmpty()) {
            sb.append("&host=").append(encode(host));
        }
        for (Filter filter : filters) {
            if (List.of("crawler", "bot", "verification", "from", "to").contains(filter.name())) {
                sb.append('&').append(encode(filter.name())).append('=').append(encode(filter.value()));
            }
        }
        if (snapshot != null) {
            sb.append("&at=").append(encode(snapshot));
        }
        return sb.toString();
    }

    /** The filters and snapshot as a query string after {@code lead} ({@code ?} or {@code &}), or nothing when there are none. */
    private String query(String lead) {
        StringBuilder sb = new StringBuilder();
        for (Filter filter : filters) {
            sb.append(sb.isEmpty() ? lead : "&").append(encode(filter.name())).append('=').append(encode(filter.value()));
        }
        if (snapshot != null) {
            sb.append(sb.isEmpty() ? lead : "&").append("at=").append(encode(snapshot));
        }
        return sb.toString();
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
