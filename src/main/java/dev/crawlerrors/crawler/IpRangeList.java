package dev.crawlerrors.crawler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import inet.ipaddr.ipv4.IPv4Address;
import inet.ipaddr.ipv4.IPv4AddressTrie;
import inet.ipaddr.ipv6.IPv6Address;
import inet.ipaddr.ipv6.IPv6AddressTrie;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;

/**
 * One operator's published IP list, in the JSON shape Google, Bing, OpenAI and Apple share:
 * {@code {"creationTime": ..., "prefixes": [{"ipv4Prefix": ...}, {"ipv6Prefix": ...}]}}, held in
 * prefix tries so a lookup costs a walk down at most 32 (or 128) bits.
 */
public final class IpRangeList {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String name;
    private final String creationTime;
    private final Instant fetchedAt;
    private final String origin;
    private final IPv4AddressTrie v4 = new IPv4AddressTrie();
    private final IPv6AddressTrie v6 = new IPv6AddressTrie();
    private int prefixes;

    private IpRangeList(String name, String creationTime, Instant fetchedAt, String origin) {
        this.name = name;
        this.creationTime = creationTime;
        this.fetchedAt = fetchedAt;
        this.origin = origin;
    }

    /**
     * Parses a list.
     *
     * @throws IOException with a message that says what is wrong with the document
     */
    public static IpRangeList parse(String name, byte[] json, Instant fetchedAt, String origin) throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(name + " from " + origin + " is not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.path("prefixes").isArray()) {
            throw new IOException(name + " from " + origin + " has no \"prefixes\" array");
        }
        IpRangeList list = new IpRangeList(name, root.path("creationTime").asText(""), fetchedAt, origin);
        for (JsonNode entry : root.path("prefixes")) {
            String prefix = entry.has("ipv4Prefix") ? entry.get("ipv4Prefix").asText() : entry.path("ipv6Prefix").asText(null);
            if (prefix == null) {
                continue;
            }
            IPAddress address = new IPAddressString(prefix).getAddress();
            if (address == null) {
                throw new IOException(name + " from " + origin + " lists '" + prefix + "', which is not an address prefix");
            }
            IPAddress block = address.toPrefixBlock();
            if (block instanceof IPv4Address a4) {
                list.v4.add(a4);
            } else if (block instanceof IPv6Address a6) {
                list.v6.add(a6);
            }
            list.prefixes++;
        }
        return list;
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

    public Instant fetchedAt() {
        return fetchedAt;
    }

    /** Where the list was read from (a path or a URL). */
    public String origin() {
        return origin;
    }

    public int prefixCount() {
        return prefixes;
    }
}
