package dev.crawlerrors.ingest.format;

import java.nio.charset.StandardCharsets;

/**
 * Client addresses as logs write them: checked cheaply on bytes, taken from an X-Forwarded-For
 * list (only where the log records no address of its own), or freed of a port.
 */
final class ClientAddress {

    private ClientAddress() {
    }

    /**
     * Whether {@code b[from, to)} may be a client address: IPv4, IPv6 (with a zone), or a host
     * name (Apache's {@code %h} with HostnameLookups on). A cheap screen, not a full parse.
     */
    static boolean looksLikeAddress(byte[] b, int from, int to) {
        if (to <= from || (to - from == 1 && b[from] == '-')) {
            return false;
        }
        for (int i = from; i < to; i++) {
            byte c = b[i];
            boolean ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                    || c == '.' || c == ':' || c == '-' || c == '_' || c == '%';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** The last address of an X-Forwarded-For list such as {@code "66.249.66.1, 10.0.0.2"}, or null. */
    static String lastForwarded(String list) {
        if (list == null) {
            return null;
        }
        String last = list.substring(list.lastIndexOf(',') + 1).trim();
        byte[] bytes = last.getBytes(StandardCharsets.UTF_8);
        return looksLikeAddress(bytes, 0, bytes.length) ? withoutPort(last) : null;
    }

    /** The address of {@code host:port}, {@code [v6]:port} or a bare address. */
    static String withoutPort(String address) {
        if (address.startsWith("[")) {
            int close = address.indexOf(']');
            return close > 0 ? address.substring(1, close) : address;
        }
        int colon = address.indexOf(':');
        if (colon > 0 && colon == address.lastIndexOf(':')) {
            return address.substring(0, colon); // IPv4 or name with a port; IPv6 has several colons
        }
        return address;
    }
}
