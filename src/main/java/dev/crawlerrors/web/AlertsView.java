package dev.crawlerrors.web;

import dev.crawlerrors.alert.AlertListing;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What the Alerts page shows: the built-in alerts firing, then those resolved (kept 7 days), each
 * with its summary, since when, and the link to the report's hits behind it at the snapshot it
 * fired at; or, when {@code serve} runs without alerts, how to turn them on.
 *
 * @param on whether {@code serve} runs its built-in alerts
 */
public record AlertsView(boolean on, List<Row> firing, List<Row> resolved, String zone) {

    private static final DateTimeFormatter SHOWN = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");

    /** One alert as a row of the page; {@code link} is the report's path and query. */
    public record Row(String name, String severity, String summary, String about, String starts, String ends, String link,
            int receiversTold) {
    }

    public Nav nav() {
        return new Nav("alerts", new ReportLinks(Map.of()));
    }

    /** The page for {@code alerts} (null: alerts are off), times in {@code zone}. */
    static AlertsView of(List<AlertListing> alerts, ZoneId zone) {
        if (alerts == null) {
            return new AlertsView(false, List.of(), List.of(), zone.getId());
        }
        List<Row> firing = alerts.stream().filter(AlertListing::firing).map(a -> row(a, zone)).toList();
        List<Row> resolved = alerts.stream().filter(a -> !a.firing()).map(a -> row(a, zone)).toList();
        return new AlertsView(true, firing, resolved, zone.getId());
    }

    private static Row row(AlertListing alert, ZoneId zone) {
        Map<String, String> about = new TreeMap<>(alert.labels());
        about.keySet().removeAll(List.of("alertname", "severity", "kind"));
        String labels = about.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
        return new Row(alert.name(), alert.severity(), alert.summary(), labels, time(alert.startsMillis(), zone),
                alert.firing() ? "" : time(alert.endsMillis(), zone), alert.link() == null ? ReportLinks.HTML_PATH : alert.link(),
                alert.receiversTold());
    }

    private static String time(long millis, ZoneId zone) {
        return SHOWN.format(Instant.ofEpochMilli(millis).atZone(zone));
    }
}
