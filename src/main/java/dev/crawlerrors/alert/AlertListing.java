package dev.crawlerrors.alert;

import java.util.Map;

/**
 * An alert as the Alerts page lists it.
 *
 * @param link           the report's hits behind it (a path and query, at the snapshot it fired at)
 * @param receiversTold how many receivers were told it fires
 */
public record AlertListing(String key, String name, String kind, String severity, boolean firing, long startsMillis, long endsMillis,
        String summary, String link, Map<String, String> labels, int receiversTold) {

    public AlertListing {
        labels = Map.copyOf(labels);
    }
}
