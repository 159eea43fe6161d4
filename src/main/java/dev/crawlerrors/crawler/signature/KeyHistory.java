package dev.crawlerrors.crawler.signature;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every reading kept of each signer's key directory, oldest first, and the key a signature names
 * as it was published when its request was made. A key is taken as published at a request's time
 * when a reading holds it and no reading between the last one that held it and the request lacks
 * it; a key first read after the request counts too (a log imported weeks later is checked against
 * the directory as read since: a signer publishes a key before it signs with it). A reading that
 * lacks a key it held before says the key was removed then: requests made after it are not proven
 * by it, and those made before still are. A directory that cannot be read adds no reading, so its
 * outage removes nothing.
 */
public final class KeyHistory {

    /** What the history says of one key at one time. */
    public sealed interface Lookup permits Published, Removed, Unknown, NeverRead {
    }

    /**
     * The key, and the readings that show it published.
     *
     * @param firstSeen the first reading that held it
     * @param latest    the reading the key was taken from: the last one at or before the request that held it, or the first after
     */
    public record Published(SigningKey key, KeyDirectory firstSeen, KeyDirectory latest) implements Lookup {
    }

    /** The key was held, then a reading before the request lacked it. */
    public record Removed(SigningKey key, Instant lastHeld, Instant removedAt) implements Lookup {
    }

    /** No reading holds the key; {@code lastRead} is the latest reading of the directory. */
    public record Unknown(Instant lastRead) implements Lookup {
    }

    /** The directory was never read. */
    public record NeverRead() implements Lookup {
    }

    private final Map<String, List<KeyDirectory>> readings = new ConcurrentHashMap<>();

    /** Adds a reading; returns false when it lists the same keys as the latest one kept, which it then does not keep. */
    public boolean add(KeyDirectory reading) {
        boolean[] added = {false};
        readings.compute(reading.origin(), (origin, kept) -> {
            List<KeyDirectory> list = kept == null ? new ArrayList<>() : new ArrayList<>(kept);
            KeyDirectory before = null;
            for (KeyDirectory r : list) {
                if (!r.fetchedAt().isAfter(reading.fetchedAt())) {
                    before = r;
                }
            }
            if (reading.sameKeysAs(before)) {
                return kept;
            }
            list.add(reading);
            list.sort(Comparator.comparing(KeyDirectory::fetchedAt));
            added[0] = true;
            return List.copyOf(list);
        });
        return added[0];
    }

    /** The readings kept of {@code origin}, oldest first. */
    public List<KeyDirectory> readings(String origin) {
        return readings.getOrDefault(origin, List.of());
    }

    /** The latest reading kept of {@code origin}, or null. */
    public KeyDirectory latest(String origin) {
        List<KeyDirectory> list = readings(origin);
        return list.isEmpty() ? null : list.get(list.size() - 1);
    }

    /** The key {@code thumbprint} of {@code origin} as published at {@code at}. */
    public Lookup key(String origin, String thumbprint, Instant at) {
        List<KeyDirectory> list = readings(origin);
        if (list.isEmpty()) {
            return new NeverRead();
        }
        KeyDirectory first = null;
        KeyDirectory held = null;
        Instant removedAt = null;
        KeyDirectory after = null;
        for (KeyDirectory reading : list) {
            boolean holds = reading.keys().containsKey(thumbprint);
            if (holds && first == null) {
                first = reading;
            }
            if (!reading.fetchedAt().isAfter(at)) {
                if (holds) {
                    held = reading;
                    removedAt = null;
                } else if (held != null && removedAt == null) {
                    removedAt = reading.fetchedAt();
                }
            } else if (holds && after == null) {
                after = reading;
            }
        }
        if (first == null) {
            return new Unknown(list.get(list.size() - 1).fetchedAt());
        }
        if (removedAt != null) {
            return new Removed(held.keys().get(thumbprint), held.fetchedAt(), removedAt);
        }
        KeyDirectory from = held != null ? held : after;
        return new Published(from.keys().get(thumbprint), first, from);
    }
}
