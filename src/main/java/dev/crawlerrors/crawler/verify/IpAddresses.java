package dev.crawlerrors.crawler.verify;

import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import inet.ipaddr.ipv4.IPv4Address;
import inet.ipaddr.ipv6.IPv6Address;

/**
 * Addresses and prefixes read from text: {@code 66.249.66.1}, {@code 66.249.64.0/19}, or any form
 * the IPAddress library reads ({@code IPAddressString}), with the same result.
 *
 * <p>A plain dotted quad, with or without a prefix length, is read here: that is nearly every
 * crawler address and list prefix, and the library's general validator, written for every form it
 * knows, is a large method that costs every start its compilation.
 */
final class IpAddresses {

    private IpAddresses() {
    }

    /**
     * The address (with its prefix length, when written), or null when {@code text} is not one.
     * The library also reads ranges ({@code -6.249.66.3} is 0-6.249.66.3, {@code 1.2.3.*}), which
     * are no address: a client address that a log wrote so, looked up in a list, threw from the
     * trie and ended the import or the drain's batch (a 500); such text is not an address here.
     * A prefix block ({@code 66.249.64.0/19}) is, as the lists write their prefixes.
     */
    static IPAddress parse(String text) {
        IPAddress quad = dottedQuad(text);
        if (quad != null) {
            return quad;
        }
        IPAddress address;
        try {
            address = new IPAddressString(text).getAddress();
        } catch (RuntimeException e) {
            return null; // a form the library reads but cannot make one address of
        }
        return address == null || address.isMultiple() && !address.isPrefixBlock() ? null : address;
    }

    /**
     * Whether {@code address} is one no crawler sends from, only a proxy or a machine on the same
     * network: loopback, unspecified, RFC 1918, link-local, shared address space (100.64/10), and for
     * IPv6 unique-local, site-local and link-local; an IPv4-mapped address as its IPv4 address.
     */
    static boolean isPrivate(IPAddress address) {
        if (address instanceof IPv6Address a6 && a6.isIPv4Mapped()) {
            address = a6.getEmbeddedIPv4Address();
        }
        if (address.isLoopback() || address.isUnspecified() || address.isLinkLocal()) {
            return true;
        }
        if (address instanceof IPv4Address a4) {
            int first = a4.getSegment(0).getSegmentValue();
            int second = a4.getSegment(1).getSegmentValue();
            return a4.isPrivate() || (first == 100 && second >= 64 && second <= 127);
        }
        return address instanceof IPv6Address a6 && (a6.isUniqueLocal() || a6.isSiteLocal());
    }

    /**
     * {@code a.b.c.d} or {@code a.b.c.d/n} in canonical form (each number 0-255 without leading
     * zeros, n 0-32), or null for anything else, which {@link #parse} leaves to the library.
     */
    static IPv4Address dottedQuad(String text) {
        int length = text.length();
        int value = 0;
        int i = 0;
        for (int part = 0; part < 4; part++) {
            if (part > 0) {
                if (i >= length || text.charAt(i) != '.') {
                    return null;
                }
                i++;
            }
            int start = i;
            int number = 0;
            while (i < length && i - start < 4) {
                char c = text.charAt(i);
                if (c < '0' || c > '9') {
                    break;
                }
                number = number * 10 + (c - '0');
                i++;
            }
            int digits = i - start;
            if (digits == 0 || digits > 3 || number > 255 || (digits > 1 && text.charAt(start) == '0')) {
                return null;
            }
            value = value << 8 | number;
        }
        if (i == length) {
            return new IPv4Address(value);
        }
        if (text.charAt(i) != '/' || length - i < 2 || length - i > 3) {
            return null;
        }
        int prefix = 0;
        for (int j = i + 1; j < length; j++) {
            char c = text.charAt(j);
            if (c < '0' || c > '9') {
                return null;
            }
            prefix = prefix * 10 + (c - '0');
        }
        if (prefix > 32 || (length - i == 3 && text.charAt(i + 1) == '0')) {
            return null;
        }
        return new IPv4Address(value, prefix);
    }
}
