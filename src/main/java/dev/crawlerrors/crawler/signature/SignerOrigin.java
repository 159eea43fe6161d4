package dev.crawlerrors.crawler.signature;

import java.util.Locale;

/**
 * The origin a {@code Signature-Agent} member names ({@code https://chatgpt.com}), checked as the
 * draft's {@code directory} type asks: an {@code https} URI of a host (and port) with no path but
 * {@code /}, no user, query or fragment. Its host is lower case and its port only when not 443.
 *
 * @param host a DNS name or an IP address (an IPv6 one without brackets)
 * @param port the port, 443 unless the URI names another
 */
public record SignerOrigin(String host, int port) {

    /** The longest host name DNS allows. */
    private static final int MAX_HOST = 253;

    /** A value that is not a directory's origin. */
    public static final class InvalidException extends Exception {
        InvalidException(String message) {
            super(message);
        }
    }

    /** The origin {@code uri} names. */
    public static SignerOrigin parse(String uri) throws InvalidException {
        if (uri.length() > 300) {
            throw new InvalidException("a Signature-Agent of " + uri.length() + " characters is no origin");
        }
        String lower = uri.toLowerCase(Locale.ROOT);
        if (!lower.startsWith("https://")) {
            throw new InvalidException("'" + uri + "' is not an https URI, as a key directory's must be");
        }
        String rest = lower.substring("https://".length());
        if (rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        if (rest.isEmpty() || rest.contains("/") || rest.contains("?") || rest.contains("#") || rest.contains("@")) {
            throw new InvalidException("'" + uri + "' is not an origin (a directory is found at an origin's well-known address)");
        }
        String host = rest;
        int port = 443;
        int colon = rest.lastIndexOf(':');
        if (rest.startsWith("[")) {
            int close = rest.indexOf(']');
            if (close < 0) {
                throw new InvalidException("'" + uri + "' has an unclosed IPv6 address");
            }
            host = rest.substring(1, close);
            colon = close + 1 < rest.length() && rest.charAt(close + 1) == ':' ? close + 1 : -1;
            if (close + 1 < rest.length() && colon < 0) {
                throw new InvalidException("'" + uri + "' is not an origin");
            }
        } else if (colon >= 0) {
            host = rest.substring(0, colon);
        }
        if (colon >= 0) {
            try {
                port = Integer.parseInt(rest.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new InvalidException("'" + uri + "' has a port that is not a number");
            }
            if (port < 1 || port > 65535) {
                throw new InvalidException("'" + uri + "' has no valid port");
            }
        }
        if (host.isEmpty() || host.length() > MAX_HOST || !validHost(host)) {
            throw new InvalidException("'" + uri + "' does not name a host");
        }
        return new SignerOrigin(host, port);
    }

    /** {@code host} or {@code host:port} (brackets around an IPv6 address), as an allow-list or a file name writes it. */
    public String authority() {
        String h = host.contains(":") ? "[" + host + "]" : host;
        return port == 443 ? h : h + ":" + port;
    }

    @Override
    public String toString() {
        return "https://" + authority();
    }

    /** Letters, digits, dots and hyphens (a DNS name or IPv4 address), or hex digits and colons (IPv6). */
    private static boolean validHost(String host) {
        boolean colons = host.indexOf(':') >= 0;
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || (colons && c == ':');
            if (!ok) {
                return false;
            }
        }
        return !host.startsWith(".") && !host.startsWith("-");
    }
}
