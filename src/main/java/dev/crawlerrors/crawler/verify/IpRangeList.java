package dev.crawlerrors.crawler.verify;

import dev.crawlerrors.crawler.JsonDocument;
import inet.ipaddr.IPAddress;
import inet.ipaddr.ipv4.IPv4Address;
import inet.ipaddr.ipv4.IPv4AddressTrie;
import inet.ipaddr.ipv6.IPv6Address;
import inet.ipaddr.ipv6.IPv6AddressTrie;
import java.io.IOException;
import java.time.Duration;
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

    /** The broadest IPv4 block a list may hold: a /8 is sixteen million addresses, more than any crawler uses. */
    static final int MIN_IPV4_PREFIX = 8;
    /** The broadest IPv6 block a list may hold. */
    static final int MIN_IPV6_PREFIX = 16;

    private final String name;
    private final String creationTime;
    private final Instant fetchedAt;
    private final Instant checkedAt;
    private final String staleBecause;
    private final String origin;
    private final IPv4AddressTrie v4;
    private final IPv6AddressTrie v6;
    private final int prefixes;
    /** Entries read past: under keys the parser does not know, fewer than the prefixes read. */
    private final int unreadable;

    private IpRangeList(String name, String creationTime, Instant fetchedAt, Instant checkedAt, String staleBecause,
            String origin, IPv4AddressTrie v4, IPv6AddressTrie v6, int prefixes, int unreadable) {
        this.name = name;
        this.creationTime = creationTime;
        this.fetchedAt = fetchedAt;
        this.checkedAt = checkedAt;
        this.staleBecause = staleBecause;
        this.origin = origin;
        this.v4 = v4;
        this.v6 = v6;
        this.prefixes = prefixes;
        this.unreadable = unreadable;
    }

    /**
     * Parses a list that was fetched (and so confirmed current) at {@code fetchedAt}, and refuses
     * one that cannot be the operator's list of its crawlers' addresses: not JSON, no entries it can
     * read, more entries it cannot read (unknown keys) than it can, or a prefix broader than
     * {@value #MIN_IPV4_PREFIX} bits (IPv4) or {@value #MIN_IPV6_PREFIX} bits (IPv6), which would
     * verify a sixteen-millionth of the Internet and more at once ({@code 0.0.0.0/0}: every address).
     *
     * <p>Read: {@code {"prefixes": [{"ipv4Prefix": ...}, {"ipv6Prefix": ...}]}}, the shape Google,
     * Bing, OpenAI, Apple, Perplexity, Anthropic, DuckDuckGo, Common Crawl and Ahrefs' range list
     * share (with or without {@code creationTime}, which Ahrefs leaves out and Anthropic and Common
     * Crawl write as RFC 3339), and {@code {"ips": [{"ip_address": ...}]}}, Ahrefs' list of single
     * addresses. Other keys beside them ({@code synctoken}, {@code notes}) are ignored.
     *
     * @throws ListRefusedException with a message that says what is wrong with the document
     */
    public static IpRangeList parse(String name, byte[] json, Instant fetchedAt, String origin) throws ListRefusedException {
        Object document;
        try {
            document = JsonDocument.read(json);
        } catch (IOException e) {
            String why = e instanceof com.fasterxml.jackson.core.JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
            throw new ListRefusedException(name + " from " + origin + " is not JSON: " + why);
        }
        Map<String, Object> root = JsonDocument.object(document);
        List<?> entries = root == null ? null : JsonDocument.array(root.get("prefixes"));
        if (entries == null && root != null) {
            entries = JsonDocument.array(root.get("ips"));
        }
        if (entries == null) {
            throw new ListRefusedException(name + " from " + origin + " has no \"prefixes\" array");
        }
        IPv4AddressTrie v4 = new IPv4AddressTrie();
        IPv6AddressTrie v6 = new IPv6AddressTrie();
        int prefixes = 0;
        int unreadable = 0;
        Object firstUnreadable = null;
        for (Object item : entries) {
            String prefix = prefix(JsonDocument.object(item));
            if (prefix == null) {
                unreadable++;
                firstUnreadable = firstUnreadable == null ? item : firstUnreadable;
                continue;
            }
            IPAddress address = IpAddresses.parse(prefix);
            if (address == null) {
                throw new ListRefusedException(name + " from " + origin + " lists '" + prefix + "', which is not an address prefix");
            }
            IPAddress block = address.toPrefixBlock();
            Integer length = block.getNetworkPrefixLength();
            int bits = length == null ? block.getBitCount() : length;
            int least = block.isIPv4() ? MIN_IPV4_PREFIX : MIN_IPV6_PREFIX;
            if (bits < least) {
                throw new ListRefusedException(name + " from " + origin + " lists " + block.toCanonicalString()
                        + ", broader than /" + least + ": no crawler's list holds such a block");
            }
            if (block instanceof IPv4Address a4) {
                v4.add(a4);
            } else if (block instanceof IPv6Address a6) {
                v6.add(a6);
            }
            prefixes++;
        }
        if (prefixes == 0) {
            throw new ListRefusedException(name + " from " + origin + " lists no address prefixes"
                    + (unreadable == 0 ? " (it is empty)" : " it can read (" + unreadable + " entries such as "
                    + excerpt(firstUnreadable) + " are under keys other than ipv4Prefix and ipv6Prefix)"));
        }
        if (unreadable > prefixes) {
            throw new ListRefusedException(name + " from " + origin + " is mostly unreadable: " + unreadable + " of "
                    + (unreadable + prefixes) + " entries, such as " + excerpt(firstUnreadable)
                    + ", are under keys other than ipv4Prefix and ipv6Prefix");
        }
        String creationTime = JsonDocument.text(root, "creationTime");
        return new IpRangeList(name, creationTime == null ? "" : creationTime, fetchedAt, fetchedAt, "", origin, v4, v6, prefixes,
                unreadable);
    }

    /** The prefix an entry holds: {@code ipv4Prefix}, {@code ipv6Prefix} or {@code ip_address}; null for any other entry. */
    private static String prefix(Map<String, Object> entry) {
        if (entry == null) {
            return null;
        }
        for (String key : PREFIX_KEYS) {
            String value = JsonDocument.text(entry, key);
            if (value != null) {
                return value.strip();
            }
        }
        return null;
    }

    private static final String[] PREFIX_KEYS = {"ipv4Prefix", "ipv6Prefix", "ip_address"};

    /** An unreadable entry as a message shows it: its JSON-ish text, cut to a line. */
    private static String excerpt(Object entry) {
        String text = String.valueOf(entry);
        return text.length() > 60 ? text.substring(0, 57) + "..." : text;
    }

    /**
     * The same prefixes with a new check time and stale note; the tries are shared, not copied,
     * because nothing changes them after {@link #parse}.
     *
     * @param staleBecause why this is not the current list, or empty when it is
     */
    IpRangeList checked(Instant checkedAt, String staleBecause) {
        return new IpRangeList(name, creationTime, fetchedAt, checkedAt, staleBecause, origin, v4, v6, prefixes, unreadable);
    }

    /** The same prefixes, fetched at another time (a file's modification time, say). */
    IpRangeList fetched(Instant fetchedAt) {
        return new IpRangeList(name, creationTime, fetchedAt, checkedAt, staleBecause, origin, v4, v6, prefixes, unreadable);
    }

    /**
     * Refuses this fresh copy when it is far smaller than {@code inUse}, the copy it would replace:
     * fewer than half its prefixes. Operators grow and move their lists a few prefixes at a time; a
     * list that loses most of them at once is more likely a broken publication (or someone else's
     * answer) than the truth, and taking it would call every crawler in the lost blocks spoofed.
     *
     * @param inUse the copy in use, or null when there is none
     * @throws ListRefusedException naming both counts and the copy kept
     */
    void requireNotFarSmallerThan(IpRangeList inUse, String inUseIs) throws ListRefusedException {
        if (inUse != null && (long) prefixes * 2 < inUse.prefixes) {
            throw new ListRefusedException(name + " from " + origin + " lists " + prefixes + (prefixes == 1 ? " prefix" : " prefixes")
                    + ", fewer than half of the " + inUse.prefixes + " in " + inUseIs);
        }
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
        StringBuilder line = new StringBuilder(name).append(": ").append(prefixes).append(prefixes == 1 ? " prefix" : " prefixes");
        if (unreadable > 0) {
            line.append(" (").append(unreadable).append(unreadable == 1 ? " entry" : " entries").append(" not read: unknown keys)");
        }
        line.append(", created ").append(creationTime.isEmpty() ? "(not stated)" : creationTime.replaceFirst("\\.\\d+", ""));
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

    /**
     * {@link #describe()} with the list's age as of {@code now}: how long ago it was last confirmed
     * current ({@code ..., 3 days old}), for the pages and summaries that show the lists.
     */
    public String describe(Instant now) {
        String line = describe();
        String age = age(now);
        int stale = line.indexOf("; stale: ");
        return stale < 0 ? line + ", " + age : line.substring(0, stale) + ", " + age + line.substring(stale);
    }

    /** How long ago the list was last confirmed current: {@code less than a day old}, {@code 1 day old}, {@code 12 days old}. */
    public String age(Instant now) {
        long days = Duration.between(checkedAt, now).toDays();
        return days < 1 ? "less than a day old" : days == 1 ? "1 day old" : days + " days old";
    }

    /**
     * The list's date as a verdict's reason names it: {@code created 2026-11-20}, or when the list
     * states no creation time, {@code fetched 2026-11-21}; a stale copy adds when it was last
     * confirmed current ({@code created 2026-11-20, a stale copy last confirmed 2026-11-22}).
     */
    public String dated() {
        String date = creationTime.isEmpty() ? "fetched " + minute(fetchedAt).substring(0, 10) : "created " + creationDate();
        return stale() ? date + ", a stale copy last confirmed " + minute(checkedAt).substring(0, 10) : date;
    }

    /** A time to the minute in UTC, as lists' notes and descriptions show it. */
    static String minute(Instant time) {
        return MINUTE.format(time);
    }

    private static boolean isUrl(String origin) {
        return origin.startsWith("http://") || origin.startsWith("https://");
    }
}
