package dev.crawlerrors.ingest.format;

/**
 * What an address field of a log may hold, checked on its bytes: an IPv4 address, an IPv6 address
 * (with a zone, {@code fe80::1%eth0}, or an IPv4 tail, {@code ::ffff:192.0.2.1}), an IPv6 address
 * in brackets, and, where the format writes one, a port after it ({@code 192.0.2.1:443},
 * {@code [2001:db8::1]:443}). A host name is no address: {@code neutralbank.app:443} in the
 * address field is a line of another format (Apache's {@code vhost_combined}), and a crawler can
 * only be verified by its address.
 */
final class AddressText {

    private AddressText() {
    }

    /** Whether {@code b[from, to)} is an IPv4 or IPv6 address, or an IPv6 address in brackets. */
    static boolean isAddress(byte[] b, int from, int to) {
        return isIpv4(b, from, to) || isIpv6(b, from, to) || isBracketed(b, from, to);
    }

    /** Whether {@code b[from, to)} is an address ({@link #isAddress}), or an IPv4 or bracketed IPv6 address with a port. */
    static boolean isAddressWithPort(byte[] b, int from, int to) {
        if (isAddress(b, from, to)) {
            return true;
        }
        int colon = LogText.lastIndexOf(b, from, to, (byte) ':');
        if (colon <= from || !isPort(b, colon + 1, to)) {
            return false;
        }
        return isIpv4(b, from, colon) || isBracketed(b, from, colon);
    }

    /** Whether {@code text} is an address, with a port where {@code withPort} allows one. */
    static boolean isAddress(String text, boolean withPort) {
        byte[] b = text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        return withPort ? isAddressWithPort(b, 0, b.length) : isAddress(b, 0, b.length);
    }

    /** Whether {@code b[from, to)} is {@code [IPv6]}. */
    static boolean isBracketed(byte[] b, int from, int to) {
        return to - from > 2 && b[from] == '[' && b[to - 1] == ']' && isIpv6(b, from + 1, to - 1);
    }

    /** Four decimal numbers of at most 255, separated by dots. */
    static boolean isIpv4(byte[] b, int from, int to) {
        int p = from;
        for (int part = 1; ; part++) {
            int value = 0;
            int start = p;
            while (p < to && p - start < 3 && isDigit(b[p])) {
                value = value * 10 + (b[p++] - '0');
            }
            if (p == start || value > 255) {
                return false;
            }
            if (part == 4) {
                return p == to;
            }
            if (p == to || b[p] != '.') {
                return false;
            }
            p++;
        }
    }

    /**
     * Up to eight groups of one to four hexadecimal digits separated by colons, one {@code ::}
     * standing for the groups left out, the last two groups optionally written as IPv4, and a
     * zone after {@code %}.
     */
    static boolean isIpv6(byte[] b, int from, int to) {
        int end = zoneStart(b, from, to);
        if (end < 0 || end - from < 2) {
            return false;
        }
        boolean compressed = false;
        int groups = 0;
        int p = from;
        if (b[p] == ':') {
            if (b[p + 1] != ':') {
                return false;
            }
            compressed = true;
            p += 2;
            if (p == end) {
                return true;
            }
        }
        while (true) {
            int start = p;
            while (p < end && p - start < 5 && isHex(b[p])) {
                p++;
            }
            if (p < end && b[p] == '.') {
                // an IPv4 tail counts as two groups
                return isIpv4(b, start, end) && (compressed ? groups + 2 <= 7 : groups + 2 == 8);
            }
            if (p == start || p - start > 4) {
                return false;
            }
            groups++;
            if (p == end) {
                return compressed ? groups <= 7 : groups == 8;
            }
            if (b[p] != ':' || ++p == end) {
                return false;
            }
            if (b[p] == ':') {
                if (compressed) {
                    return false;
                }
                compressed = true;
                if (++p == end) {
                    return groups <= 7;
                }
            }
        }
    }

    /** Where the address before a {@code %zone} ends ({@code to} when there is none); -1 when the zone is empty or not a name. */
    private static int zoneStart(byte[] b, int from, int to) {
        int percent = ByteSearch.indexOf(b, from, to, (byte) '%');
        if (percent < 0) {
            return to;
        }
        if (percent + 1 == to) {
            return -1;
        }
        for (int i = percent + 1; i < to; i++) {
            byte c = b[i];
            if (!(isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '-' || c == '_' || c == '~')) {
                return -1;
            }
        }
        return percent;
    }

    private static boolean isPort(byte[] b, int from, int to) {
        if (to <= from || to - from > 5) {
            return false;
        }
        int value = 0;
        for (int i = from; i < to; i++) {
            if (!isDigit(b[i])) {
                return false;
            }
            value = value * 10 + (b[i] - '0');
        }
        return value <= 65535;
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHex(byte c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
