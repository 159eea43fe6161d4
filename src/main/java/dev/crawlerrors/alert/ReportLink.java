package dev.crawlerrors.alert;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * A link to the report filtered to an alert's hits ({@code /crawl-errors?status=5xx&crawler=...}),
 * in the report's own parameters, with the snapshot the alert fired at added when it fires.
 */
final class ReportLink {

    static final String REPORT_PATH = "/crawl-errors";
    /** The Alerts page. */
    static final String ALERTS_PATH = "/crawl-errors/alerts";
    /** The report's times: local, to the minute, in its display zone. */
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm");

    private final List<String[]> parameters = new ArrayList<>();

    /** Adds {@code name=value}. */
    ReportLink with(String name, String value) {
        parameters.add(new String[] {name, value});
        return this;
    }

    /** Adds {@code name=value} for each of {@code values}. */
    ReportLink with(String name, Iterable<String> values) {
        values.forEach(value -> with(name, value));
        return this;
    }

    /** Adds {@code from}: the minute of {@code millis} in {@code zone}, as the report reads it. */
    ReportLink from(long millis, ZoneId zone) {
        return with("from", minute(millis, zone));
    }

    /** The time of {@code millis} in {@code zone}, to the minute, as the report shows times. */
    static String minute(long millis, ZoneId zone) {
        return MINUTE.format(Instant.ofEpochMilli(millis).atZone(zone));
    }

    /** The link's path and query, at the snapshot {@code at} (a token; null for none). */
    String at(String snapshot) {
        StringBuilder link = new StringBuilder(REPORT_PATH);
        char separator = '?';
        for (String[] parameter : parameters) {
            link.append(separator).append(parameter[0]).append('=').append(URLEncoder.encode(parameter[1], StandardCharsets.UTF_8));
            separator = '&';
        }
        if (snapshot != null) {
            link.append(separator).append("at=").append(snapshot);
        }
        return link.toString();
    }
}
