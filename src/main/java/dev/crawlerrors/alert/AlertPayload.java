package dev.crawlerrors.alert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What a receiver is sent for a group of alerts: Alertmanager's webhook format (version 4, with a
 * plain-text summary beside it in {@code text}), Slack's incoming-webhook text alone, or the alerts
 * as an Alertmanager's API takes them ({@code POST /api/v2/alerts}). Each alert carries its summary
 * and a link to the report filtered to its hits at the snapshot it fired at.
 */
final class AlertPayload {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Alertmanager's "no end" time, which its webhook gives a firing alert. */
    private static final String NO_END = "0001-01-01T00:00:00Z";
    /** A summary is cut at this length: a shape or a host comes from a log. */
    private static final int MAX_SUMMARY = 600;

    private final Supplier<String> base;

    /**
     * @param base the report's address as people open it ({@code https://crawl-errors.example.com}), for absolute
     *             links; asked when a message is written (a serve on port 0 knows its port once it listens)
     */
    AlertPayload(Supplier<String> base) {
        this.base = base;
    }

    private String base() {
        String b = base.get();
        return b.endsWith("/") ? b.substring(0, b.length() - 1) : b;
    }

    /** The body for {@code receiver} of {@code notices}, sent at {@code now}. */
    byte[] body(Receiver receiver, List<Alert.Notice> notices, long now) {
        Object body = receiver.alertmanagerApi() ? alertmanagerApi(notices, now)
                : receiver.format() == AlertFormat.slack ? Map.of("text", text(notices)) : webhook(notices);
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("alerts cannot be written as JSON", e);
        }
    }

    /** Alertmanager's webhook format, version 4, as its webhook receivers get it. */
    Map<String, Object> webhook(List<Alert.Notice> notices) {
        List<Map<String, Object>> alerts = new ArrayList<>();
        boolean anyFiring = false;
        for (Alert.Notice notice : notices) {
            anyFiring |= notice.firing();
            Map<String, Object> alert = new LinkedHashMap<>();
            alert.put("status", notice.firing() ? "firing" : "resolved");
            alert.put("labels", notice.labels());
            alert.put("annotations", annotations(notice));
            alert.put("startsAt", Instant.ofEpochMilli(notice.startsMillis()).toString());
            alert.put("endsAt", notice.firing() ? NO_END : Instant.ofEpochMilli(notice.endsMillis()).toString());
            alert.put("generatorURL", absolute(notice.link()));
            alert.put("fingerprint", fingerprint(notice.key()));
            alerts.add(alert);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("version", "4");
        body.put("groupKey", "{}:{source=\"crawl-errors\"}");
        body.put("truncatedAlerts", 0);
        body.put("status", anyFiring ? "firing" : "resolved");
        body.put("receiver", "crawl-errors");
        body.put("groupLabels", Map.of());
        body.put("commonLabels", common(notices.stream().map(Alert.Notice::labels).toList()));
        body.put("commonAnnotations", common(notices.stream().map(this::annotations).toList()));
        body.put("externalURL", base() + ReportLink.ALERTS_PATH);
        body.put("alerts", alerts);
        body.put("text", text(notices));
        return body;
    }

    /** The alerts as {@code POST /api/v2/alerts} takes them: a firing one valid for {@link AlertBook#ALERTMANAGER_VALID}, and sent again before. */
    List<Map<String, Object>> alertmanagerApi(List<Alert.Notice> notices, long now) {
        List<Map<String, Object>> alerts = new ArrayList<>();
        for (Alert.Notice notice : notices) {
            Map<String, Object> alert = new LinkedHashMap<>();
            alert.put("labels", notice.labels());
            alert.put("annotations", annotations(notice));
            alert.put("startsAt", Instant.ofEpochMilli(notice.startsMillis()).toString());
            long ends = notice.firing() ? now + AlertBook.ALERTMANAGER_VALID.toMillis() : notice.endsMillis();
            alert.put("endsAt", Instant.ofEpochMilli(ends).toString());
            alert.put("generatorURL", absolute(notice.link()));
            alerts.add(alert);
        }
        return alerts;
    }

    /**
     * The plain-text summary: a line of counts, then a line for each alert and its link. A chat
     * shows it as it is: {@code &}, {@code <} and {@code >} are written as Slack's mrkdwn asks.
     */
    String text(List<Alert.Notice> notices) {
        long firing = notices.stream().filter(Alert.Notice::firing).count();
        StringBuilder text = new StringBuilder("crawl-errors: ");
        if (firing > 0) {
            text.append(firing).append(" firing");
        }
        if (firing < notices.size()) {
            text.append(firing > 0 ? ", " : "").append(notices.size() - firing).append(" resolved");
        }
        for (Alert.Notice notice : notices) {
            text.append('\n').append(notice.firing() ? "[FIRING] " : "[RESOLVED] ").append(notice.labels().getOrDefault("alertname", ""))
                    .append(": ").append(cut(notice.summary()));
            text.append("\n  ").append(absolute(notice.link()));
        }
        return slackEscaped(text.toString());
    }

    private Map<String, String> annotations(Alert.Notice notice) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put("summary", cut(notice.summary()));
        annotations.put("report", absolute(notice.link()));
        return annotations;
    }

    /** The pairs every one of {@code maps} holds alike. */
    private static Map<String, String> common(List<Map<String, String>> maps) {
        if (maps.isEmpty()) {
            return Map.of();
        }
        Map<String, String> common = new LinkedHashMap<>(maps.get(0));
        for (Map<String, String> map : maps) {
            common.entrySet().removeIf(e -> !e.getValue().equals(map.get(e.getKey())));
        }
        return common;
    }

    private String absolute(String link) {
        return link == null ? base() + ReportLink.REPORT_PATH : base() + link;
    }

    private static String cut(String summary) {
        return summary.length() <= MAX_SUMMARY ? summary : summary.substring(0, MAX_SUMMARY - 1) + "\u2026";
    }

    /** An alert's fingerprint, as Alertmanager writes one: 16 hex digits of its identity. */
    static String fingerprint(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String slackEscaped(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
