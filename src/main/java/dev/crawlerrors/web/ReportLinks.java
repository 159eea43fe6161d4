package dev.crawlerrors.web;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Links to other pages and formats of the same report, keeping every filter parameter but {@code page}. */
public final class ReportLinks {

    static final String HTML_PATH = "/crawl-errors";
    static final String JSON_PATH = "/api/crawl-errors";
    static final String CSV_PATH = "/crawl-errors.csv";

    private final String filters;

    public ReportLinks(Map<String, List<String>> query) {
        StringBuilder sb = new StringBuilder();
        query.forEach((name, values) -> {
            if (!"page".equals(name)) {
                for (String value : values) {
                    sb.append('&').append(encode(name)).append('=').append(encode(value));
                }
            }
        });
        this.filters = sb.toString();
    }

    public String page(int page) {
        return HTML_PATH + "?page=" + page + filters;
    }

    public String json(int page) {
        return JSON_PATH + "?page=" + page + filters;
    }

    /** The first page of the report with every bot type shown ({@code bot=all}), the other filters kept. */
    public String everyBotType() {
        return HTML_PATH + "?page=1" + filters + "&bot=all";
    }

    public String csv() {
        return filters.isEmpty() ? CSV_PATH : CSV_PATH + "?" + filters.substring(1);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
