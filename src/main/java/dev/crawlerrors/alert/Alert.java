package dev.crawlerrors.alert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawlerrors.store.StoredAlert;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One alert and what its receivers were told of it: the firing notice each got last (and when),
 * and which got its resolution. Kept in the store ({@link #stored}) each time that changes, so a
 * restart sends neither again. Touched under its {@link AlertBook}'s lock only.
 */
final class Alert {

    private static final ObjectMapper JSON = new ObjectMapper();

    final String key;
    Map<String, String> labels;
    String summary;
    /** The report's hits behind it, at the snapshot it fired at: a path and query. */
    String link;
    boolean firing;
    long startsMillis;
    long endsMillis;
    long updatedMillis;
    /** When each receiver (by {@link Receiver#id()}) was last told it fires, this time it fired. */
    final Map<String, Long> firingSent = new HashMap<>();
    /** The receivers told it resolved. */
    final Set<String> resolvedSent = new HashSet<>();

    Alert(String key) {
        this.key = key;
    }

    /** Starts a firing of {@code firing} at {@code now}: what receivers were told of an earlier one is forgotten. */
    void fire(Firing firing, long now, String link) {
        this.labels = firing.labels();
        this.summary = firing.summary();
        this.link = link;
        this.firing = true;
        this.startsMillis = now;
        this.endsMillis = 0;
        firingSent.clear();
        resolvedSent.clear();
    }

    String name() {
        return labels.getOrDefault("alertname", "");
    }

    /** The record the store keeps; {@code now} is its time, later than the last one's. */
    StoredAlert stored(long now) {
        updatedMillis = Math.max(now, updatedMillis + 1);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("labels", labels);
        details.put("summary", summary);
        details.put("link", link);
        details.put("firingSent", firingSent);
        details.put("resolvedSent", resolvedSent);
        try {
            return new StoredAlert(key, firing, startsMillis, endsMillis, updatedMillis, JSON.writeValueAsString(details));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an alert cannot be written as JSON", e);
        }
    }

    /** The alert a stored record holds; null when its details cannot be read (written by another version). */
    static Alert of(StoredAlert stored) {
        Details details;
        try {
            details = JSON.readValue(stored.details(), new TypeReference<Details>() { });
        } catch (JsonProcessingException e) {
            return null;
        }
        Alert alert = new Alert(stored.key());
        alert.labels = details.labels == null ? Map.of() : Map.copyOf(details.labels);
        alert.summary = details.summary == null ? "" : details.summary;
        alert.link = details.link;
        alert.firing = stored.firing();
        alert.startsMillis = stored.startsMillis();
        alert.endsMillis = stored.endsMillis();
        alert.updatedMillis = stored.updatedMillis();
        if (details.firingSent != null) {
            alert.firingSent.putAll(details.firingSent);
        }
        if (details.resolvedSent != null) {
            alert.resolvedSent.addAll(details.resolvedSent);
        }
        return alert;
    }

    /** The details as stored. */
    static final class Details {
        public Map<String, String> labels;
        public String summary;
        public String link;
        public Map<String, Long> firingSent;
        public List<String> resolvedSent;
    }

    /** What a receiver is sent of it now. */
    Notice notice() {
        return new Notice(key, Map.copyOf(labels), summary, link, firing, startsMillis, endsMillis);
    }

    /**
     * An alert as it is sent: its state at one moment.
     *
     * @param link the report's hits behind it, a path and query
     */
    record Notice(String key, Map<String, String> labels, String summary, String link, boolean firing, long startsMillis, long endsMillis) {
    }
}
