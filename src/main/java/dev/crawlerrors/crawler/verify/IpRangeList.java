package dev.crawlerrors.crawler.verify;

import dev.crawlerrors.crawler.JsonDocument;
import inet.ipaddr.IPAddress;
import inet.ipaddr.ipv4.IPv4Address;
import inet.ipaddr.ipv4.IPv4AddressTrie;
import inet.ipaddr.ipv6.IPv6Address;
import inet.ipaddr.ipv6.IPv6AddressTrie;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One operator's published IP list, in the JSON shape Google, Bing, OpenAI and Apple share:
 * {@code {"creationTime": ..., "prefixes": [{"ipv4Prefix": ...}, {"ipv6Prefix": ...}]}}, held in
 * prefix tries so a lookup costs a walk down at most 32 (or 128) bits.
 *
 * <p>Besides the prefixes it carries where and when it was read, so a summary or report can say
 * how current it is: {@link #fetchedAt()} is when this content was read, {@link #checkedAt()}
 * when it was last confirmed current, and {@link #staleBecause()} is non-empty when a refresh
 * failed and this is the last good copy instead. Instances are immutable.
 */
public final class IpRangeList {

    private static final DateTimeFormatter MINUTE =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final String name;
    private final String creationTime;
    private final Instant fetchedAt;
    private final Instant checkedAt;
    private final String staleBecause;
    private final String origin;
    private final IPv4AddressTrie v4;
    private final IPv6AddressTrie v6;
    private final int prefixes;

    private IpRangeList(String name, String creationTime, Instant fetchedAt, Instant checkedAt, String staleBecause,
            String origin, IPv4AddressTrie v4, IPv6AddressTrie v6, int prefixes) {
        this.name = name;
        this.creationTime = creationTime;
        this.fetchedAt = fetchedAt;
        this.checkedAt = checkedAt;
        this.staleBecause = staleBecause;
        this.origin = origin;
        this.v4 = v4;
        this.v6 = v6;
        this.prefixes = prefixes;
    }

    /**
     * Parses a list that was fetched (and so confirmed current) at {@code fetchedAt}.
     *
     * @throws IOException with a message that says what is wrong with the document
     */
    public static IpRangeList parse(String name, byte[] json, Instant fetchedAt, String origin) throws IOException {
        Object document;
        try {
            document = JsonDocument.read(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(name + " from " + origin + " is not JSON: " + e.getOriginalMessage());
        }
        Map<String, Object> root = JsonDocument.object(document);
        List<?> entries = root == null ? null : JsonDocument.array(root.get("prefixes"));
        if (entries == null) {
            throw new IOException(name + " from " + origin + " has no \"prefixes\" array");
        }
        IPv4AddressTrie v4 = new IPv4AddressTrie();
        IPv6AddressTrie v6 = new IPv6AddressTrie();
        int prefixes = 0;
        for (Object item : entries) {
            Map<String, Object> entry = JsonDocument.object(item);
            String prefix = entry == null ? null
                    : JsonDocument.text(entry, entry.containsKey("ipv4Prefix") ? "ipv4Prefix" : "ipv6Prefix");
            if (prefix == null) {
                continue;
            }
            IPAddress address = IpAddresses.parse(prefix);
            if (address == null) {
                throw new IOException(name + " from " + origin + " lists '" + prefix + "', which is not an address prefix");
            }
            IPAddress block = address.toPrefixBlock();
            if (block instanceof IPv4Address a4) {
                v4.add(a4);
            } else if (block instanceof IPv6Address a6) {
                v6.add(a6);
            }
            prefixes++;
        }
        String creationTime = JsonDocument.text(root, "creationTime");
        return new IpRangeList(name, creationTime == null ? "" : creationTime, fetchedAt, fetchedAt, "", origin, v4, v6, prefixes);
    }

    /**
     * The same prefixes with a new check time and stale note; the tries are shared, not copied,
     * because nothing changes them after {@link #parse}.
     *
     * @param staleBecause why this is not the current list, or empty when it is
     */
    IpRangeList checked(Instant checkedAt, String staleBecause) {
        return new IpRangeList(name, creationTime, fetchedAt, checkedAt, staleBecause, origin, v4, v6, prefixes);
    }

    /** The same prefixes, fetched at another time (a file's modification time, say). */
    IpRangeList fetched(Instant fetchedAt) {
        return new IpRangeList(name, creationTime, fetchedAt, checkedAt, staleBecause, origin, v4, v6, prefixes);
    }

    /** The prefix that contains {@code address}, if any. */
    public Optional<String> prefixContaining(IPAddress address) {
        IPAddress match = null;
        if (address instanceof IPv4Address a4) {
            match = v4.longestPrefixMatch(a4);
        } else if (address instanceof IPv6Address a6) {
            IPv4Address mapped = a6.isIPv4Mapped() ? a6.getEmbeddedIPv4Address() : null;
            match = mapped != null ? v4.longestPrefixMatch(mapped) : v6.longestPrefixMatch(a6);
        }
        return Optional.ofNullable(match).map(IPAddress::toCanonicalString);
    }

    public String name() {
        return name;
    }

    /** The list's own {@code creationTime}, as published; empty when it has none. */
    public String creationTime() {
        return creationTime;
    }

    /** The date part of {@code creationTime}, for reasons. */
    public String creationDate() {
        return creationTime.length() >= 10 ? creationTime.substring(0, 10) : creationTime;
    }

    /**
     * When this content was read: the time of the download that brought it, or for a list read from
     * a directory, the file's modification time.
     */
    public Instant fetchedAt() {
        return fetchedAt;
    }

    /**
     * When this content was last confirmed current: the last download or {@code 304 Not Modified}
     * answer, or when a directory's file was read. A failed refresh does not move it.
     */
    public Instant checkedAt() {
        return checkedAt;
    }

    /** Whether a refresh failed and this is the last good copy instead of the current list. */
    public boolean stale() {
        return !staleBecause.isEmpty();
    }

    /**
     * Why this is the last good copy rather than the current list, e.g. {@code refresh failed at
     * 2026-11-21T09:00Z: <reason>; using the copy fetched 2026-11-20T10:00Z}; empty when current.
     */
    public String staleBecause() {
        return staleBecause;
    }

    /** Where the list was read from (a path or a URL). */
    public String origin() {
        return origin;
    }

    public int prefixCount() {
        return prefixes;
    }

    /**
     * One line for summaries, e.g. {@code common-crawlers.json: 312 prefixes, created
     * 2026-11-20T23:00:47, fetched 2026-11-21T09:00Z from https://...}, followed by when it was
     * last confirmed current if later, and by the stale note if there is one.
     */
    public String describe() {
        StringBuilder line = new StringBuilder(name).append(": ").append(prefixes).append(prefixes == 1 ? " prefix" : " prefixes")
                .append(", created ").append(creationTime.isEmpty() ? "(not stated)" : creationTime.replaceFirst("\\.\\d+", ""));
        if (isUrl(origin)) {
            line.append(", fetched ").append(minute(fetchedAt)).append(" from ").append(origin);
            if (!minute(checkedAt).equals(minute(fetchedAt))) {
                line.append(", confirmed current ").append(minute(checkedAt));
            }
        } else {
            line.append(", modified ").append(minute(fetchedAt)).append(", read from ").append(origin);
        }
        if (stale()) {
            line.append("; stale: ").append(staleBecause);
        }
        return line.toString();
    }

    /** A time to the minute in UTC, as lists' notes and descriptions show it. */
    static String minute(Instant time) {
        return MINUTE.format(time);
    }

    private static boolean isUrl(String origin) {
        return origin.startsWith("http://") || origin.startsWith("https://");
    }
}
