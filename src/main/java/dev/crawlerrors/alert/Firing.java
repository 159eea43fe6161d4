package dev.crawlerrors.alert;

import java.util.Map;

/**
 * An alert whose condition holds now, as a rule found it.
 *
 * @param key     its identity: the same each evaluation while the same thing holds, and after a restart
 * @param labels  what identifies it to a receiver, Alertmanager's way (alertname, kind, family, ...)
 * @param summary one sentence for people, with the figures
 * @param link    the report's hits behind it
 */
record Firing(String key, Map<String, String> labels, String summary, ReportLink link) {

    Firing {
        labels = Map.copyOf(labels);
    }
}
