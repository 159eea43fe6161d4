package dev.crawlerrors.web;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Links to other pages and formats of the same report: they keep every filter parameter of the
 * request, and the snapshot the page was read at ({@code at}), so following them shows the same
 * hits however many arrive meanwhile. The fresh report's link drops the snapshot.
 */
public final class ReportLinks {

    static final String HTML_PATH = "/crawl-errors";
    static final String JSON_PATH = "/api/crawl-errors";
    static final String CSV_PATH = "/crawl-errors.csv";

    private final String filters;
    private final String at;

    /** Links for a page read at snapshot {@code at} (its token; null for none). */
    public ReportLinks(Map<String, List<String>> query, String at) {
        StringBuilder sb = new StringBuilder();
        query.forEach((name, values) -> {
            if (!"page".equals(name) && !"at".equals(name)) {
                for (String value : values) {
                    sb.append('&').append(encode(name)).append('=').append(encode(value));
                }
            }
        });
        this.filters = sb.toString();
        this.at = at == null ? "" : "&at=" + encode(at);
    }

    public ReportLinks(Map<String, List<String>> query) {
        this(query, null);
    }

    public String page(int page) {
        return HTML_PATH + "?page=" + page + filters + at;
    }

    public String json(int page) {
        return JSON_PATH + "?page=" + page + filters + at;
    }

    /** The first page of the report with every bot type shown ({@code bot=all}), the other filters kept. */
    public String everyBotType() {
        return HTML_PATH + "?page=1" + filters + "&bot=all" + at;
    }

    public String csv() {
        String query = filters + at;
        return query.isEmpty() ? CSV_PATH : CSV_PATH + "?" + query.substring(1);
    }

    /** The newest report with the same filters, from its first page. */
    public String fresh() {
        return filters.isEmpty() ? HTML_PATH : HTML_PATH + "?" + filters.substring(1);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
