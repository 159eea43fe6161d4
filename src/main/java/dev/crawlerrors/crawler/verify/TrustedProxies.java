package dev.crawlerrors.crawler.verify;

import inet.ipaddr.IPAddress;
import inet.ipaddr.ipv4.IPv4Address;
import inet.ipaddr.ipv4.IPv4AddressTrie;
import inet.ipaddr.ipv6.IPv6Address;
import inet.ipaddr.ipv6.IPv6AddressTrie;
import java.util.ArrayList;
import java.util.List;

/**
 * The proxies in front of the web server that the user vouches for ({@code --trusted-proxies
 * CIDR[,CIDR...]}): a CDN's edge, a load balancer. Where the logged address is one of them, the
 * request's client is the rightmost address of the forwarded field (X-Forwarded-For, or the
 * CF-Connecting-IP / True-Client-IP address) that is not one of them: each trusted proxy appended the
 * address it received the request from, and whatever lies left of the first untrusted address is
 * what the client itself claimed, which verification must never rest on.
 */
public final class TrustedProxies {

    /** No trusted proxies: every logged address is the client. */
    public static final TrustedProxies NONE = new TrustedProxies(List.of());

    private final List<String> prefixes;
    private final IPv4AddressTrie v4 = new IPv4AddressTrie();
    private final IPv6AddressTrie v6 = new IPv6AddressTrie();

    private TrustedProxies(List<String> prefixes) {
        this.prefixes = List.copyOf(prefixes);
    }

    /**
     * The proxies named in {@code list}: addresses or CIDR prefixes, separated by commas.
     *
     * @throws IllegalArgumentException naming the entry that is neither
     */
    public static TrustedProxies parse(String list) {
        List<String> texts = new ArrayList<>();
        List<IPAddress> blocks = new ArrayList<>();
        for (String item : list.split(",")) {
            String text = item.strip();
            if (text.isEmpty()) {
                continue;
            }
            IPAddress address = IpAddresses.parse(text);
            if (address == null) {
                throw new IllegalArgumentException("'" + text + "' is not an IP address or CIDR prefix such as 173.245.48.0/20 or 2400:cb00::/32");
            }
            texts.add(text);
            blocks.add(address.toPrefixBlock());
        }
        TrustedProxies proxies = new TrustedProxies(texts);
        for (IPAddress block : blocks) {
            if (block instanceof IPv4Address a4) {
                proxies.v4.add(a4);
            } else if (block instanceof IPv6Address a6) {
                proxies.v6.add(a6);
            }
        }
        return proxies;
    }

    public boolean isEmpty() {
        return prefixes.isEmpty();
    }

    /** Whether {@code ip} is one of the trusted proxies; false for text that is not an address. */
    public boolean contains(String ip) {
        if (prefixes.isEmpty() || ip == null) {
            return false;
        }
        IPAddress address = IpAddresses.parse(ip);
        return address != null && contains(address);
    }

    private boolean contains(IPAddress address) {
        if (address instanceof IPv4Address a4) {
            return v4.elementContains(a4);
        }
        if (address instanceof IPv6Address a6) {
            IPv4Address mapped = a6.isIPv4Mapped() ? a6.getEmbeddedIPv4Address() : null;
            return mapped != null ? v4.elementContains(mapped) : v6.elementContains(a6);
        }
        return false;
    }

    /**
     * The client behind {@code logged}: {@code logged} itself when it is not a trusted proxy; else
     * the rightmost address of {@code forwarded} that is not one; null when {@code logged} is a
     * trusted proxy and {@code forwarded} names no such address (none recorded, all trusted, or the
     * rightmost untrusted entry is not an address, such as {@code unknown}).
     */
    public String client(String logged, String forwarded) {
        if (!contains(logged)) {
            return logged;
        }
        if (forwarded == null) {
            return null;
        }
        int end = forwarded.length();
        while (end > 0) {
            int comma = forwarded.lastIndexOf(',', end - 1);
            String entry = withoutPort(forwarded.substring(comma + 1, end).strip());
            end = comma < 0 ? 0 : comma;
            if (entry.isEmpty()) {
                continue;
            }
            IPAddress address = IpAddresses.parse(entry);
            if (address == null || address.isPrefixed()) {
                return null;
            }
            if (!contains(address)) {
                return entry;
            }
        }
        return null;
    }

    /** The prefixes as given, for messages. */
    public List<String> prefixes() {
        return prefixes;
    }

    /** The address of {@code host:port}, {@code [v6]:port} or a bare address. */
    private static String withoutPort(String address) {
        if (address.startsWith("[")) {
            int close = address.indexOf(']');
            return close > 0 ? address.substring(1, close) : address;
        }
        int colon = address.indexOf(':');
        if (colon > 0 && colon == address.lastIndexOf(':')) {
            return address.substring(0, colon);
        }
        return address;
    }
}
