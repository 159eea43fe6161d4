package dev.crawlerrors.crawler.signature;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The signers' key directories as this tool knows them: the readings kept ({@link KeyHistory}, read
 * from the store when it opens) and new ones read when a signature needs them. A directory is read
 * when it was never read, when a key a signature names is unknown (it may have been added since),
 * and when the last reading is more than {@link #MAX_AGE} older than the request (so a removed key
 * stops proving new requests); never more than once per {@link #retryAfter} for one directory, and
 * one reading at a time however many signatures wait for it. A reading whose
 * keys changed is kept and handed to {@code onReading} (the store keeps it); a failed one adds
 * nothing and removes nothing: the draft says an outage is no evidence.
 */
public final class KeyDirectories {

    /** How old a reading may be, against a request's time, before the directory is read again. */
    static final Duration MAX_AGE = Duration.ofDays(1);
    /** The draft's bound on negative caching: a directory that failed is tried again after at most five minutes. */
    static final Duration RETRY_AFTER = Duration.ofMinutes(5);

    /** What a signature's key is, or why it cannot be told now. */
    public sealed interface Found permits Known, Unreachable {
    }

    /** What the history says of the key. */
    public record Known(KeyHistory.Lookup lookup) implements Found {
    }

    /** The directory was never read and cannot be now. */
    public record Unreachable(String reason) implements Found {
    }

    private final DirectorySource source;
    private final KeyHistory history = new KeyHistory();
    private final Clock clock;
    private final Duration retryAfter;
    private final Map<String, Attempt> attempts = new ConcurrentHashMap<>();
    /** When each directory was last read whole, whether its keys changed or not. */
    private final Map<String, Instant> lastRead = new ConcurrentHashMap<>();
    /** The directories this process read or tried to. */
    private final java.util.Set<String> tried = ConcurrentHashMap.newKeySet();
    private final Map<String, Object> locks = new ConcurrentHashMap<>();
    private volatile Consumer<KeyDirectory> onReading = reading -> { };

    private record Attempt(Instant at, boolean ok, String failure) {
    }

    public KeyDirectories(DirectorySource source) {
        this(source, Clock.systemUTC(), RETRY_AFTER);
    }

    public KeyDirectories(DirectorySource source, Clock clock, Duration retryAfter) {
        this.source = source;
        this.clock = clock;
        this.retryAfter = retryAfter;
    }

    /** Where new readings go once made (the store keeps them). */
    public void onReading(Consumer<KeyDirectory> listener) {
        this.onReading = listener;
    }

    /** Adds readings kept before (from the store), without handing them on. */
    public void restore(List<KeyDirectory> readings) {
        for (KeyDirectory reading : readings) {
            history.add(reading);
            attempts.merge(reading.origin(), new Attempt(reading.fetchedAt(), true, null),
                    (a, b) -> a.at().isAfter(b.at()) ? a : b);
            lastRead.merge(reading.origin(), reading.fetchedAt(), (a, b) -> a.isAfter(b) ? a : b);
        }
    }

    public DirectorySource source() {
        return source;
    }

    public KeyHistory history() {
        return history;
    }

    /** The key {@code thumbprint} of {@code origin} at {@code at}, reading the directory first when it must. */
    public Found key(SignerOrigin origin, String thumbprint, Instant at) {
        String name = origin.toString();
        KeyHistory.Lookup lookup = history.key(name, thumbprint, at);
        if (needsReading(name, lookup, at)) {
            synchronized (locks.computeIfAbsent(name, n -> new Object())) {
                lookup = history.key(name, thumbprint, at);
                if (needsReading(name, lookup, at)) {
                    read(origin);
                    lookup = history.key(name, thumbprint, at);
                }
            }
        }
        if (lookup instanceof KeyHistory.NeverRead) {
            Attempt last = attempts.get(name);
            return new Unreachable(last == null || last.failure() == null ? "its directory has not been read" : last.failure());
        }
        return new Known(lookup);
    }

    /**
     * One line for each directory this process read or tried to, for a summary: its keys and when
     * it was read, or why it could not be.
     */
    public List<String> describe() {
        List<String> lines = new java.util.ArrayList<>();
        Map<String, Attempt> now = new java.util.TreeMap<>(attempts);
        now.keySet().retainAll(tried);
        for (Map.Entry<String, Attempt> attempt : now.entrySet()) {
            String url = KeyDirectory.url(attempt.getKey());
            KeyDirectory latest = history.latest(attempt.getKey());
            if (attempt.getValue().ok() && latest != null) {
                lines.add("key directory " + url + ": " + latest.keys().size() + (latest.keys().size() == 1 ? " key" : " keys")
                        + ", read " + WebBotAuthVerifier.when(lastRead.get(attempt.getKey())) + " from " + source.describe());
            } else if (attempt.getValue().failure() != null) {
                lines.add("key directory " + url + ": not read (" + attempt.getValue().failure() + ")"
                        + (latest == null ? "" : "; its keys as read " + WebBotAuthVerifier.when(latest.fetchedAt()) + " are used"));
            }
        }
        return lines;
    }

    /** Why {@code origin}'s directory could not be read last, or null when its last reading worked. */
    public String lastFailure(SignerOrigin origin) {
        Attempt last = attempts.get(origin.toString());
        return last == null || last.ok() ? null : last.failure();
    }

    /** When the directory was last read whole, or null. */
    public Instant lastRead(SignerOrigin origin) {
        return lastRead.get(origin.toString());
    }

    private boolean needsReading(String origin, KeyHistory.Lookup lookup, Instant at) {
        Attempt last = attempts.get(origin);
        Instant now = clock.instant();
        if (last != null && !last.ok() && last.at().plus(retryAfter).isAfter(now)) {
            return false; // failed lately: not tried again yet
        }
        if (last != null && last.at().plus(retryAfter).isAfter(now) && !(lookup instanceof KeyHistory.NeverRead)) {
            return false; // read lately
        }
        return switch (lookup) {
            case KeyHistory.NeverRead n -> true;
            case KeyHistory.Unknown u -> true; // a key added since the last reading: read again (not within retryAfter)
            default -> lastRead.getOrDefault(origin, Instant.MIN).plus(MAX_AGE).isBefore(at);
        };
    }

    private void read(SignerOrigin origin) {
        String name = origin.toString();
        tried.add(name);
        try {
            KeyDirectory reading = source.read(origin);
            attempts.put(name, new Attempt(reading.fetchedAt(), true, null));
            lastRead.put(name, reading.fetchedAt());
            if (history.add(reading)) {
                onReading.accept(reading);
            }
        } catch (DirectorySource.UnavailableException e) {
            attempts.put(name, new Attempt(clock.instant(), false, e.getMessage()));
        }
    }
}
