package dev.crawlerrors.sitemap;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * A sitemap's {@code <loc>} as the host and request target a logged hit is matched by: the host in
 * lower case with a port only when it is not the scheme's default, the raw path ({@code /} for
 * none) and raw query, no fragment; null for text that is no HTTP(S) URL with a host. The plain
 * shape nearly every sitemap uses ({@code https://host[:port]/path?query} in ASCII) is split by
 * hand, since parsing a million locations as {@link URI}s was most of a large sitemap's read; any
 * other text (a fragment, user info, an IPv6 or IDN host, a character out of the plain set) is
 * left to {@link URI}, so the answers are the same as {@link URI}'s.
 */
final class SitemapLoc {

    private SitemapLoc() {
    }

    /** {@code loc}'s host and target, or null when it is no HTTP(S) URL with a host. */
    static SitemapUrl parse(String loc) {
        SitemapUrl plain = plain(loc);
        return plain != null ? plain : byUri(loc);
    }

    /** {@code loc} split by {@link URI}: the reference the fast path must agree with. */
    static SitemapUrl byUri(String loc) {
        URI url = httpUrl(loc);
        if (url == null) {
            return null;
        }
        String host = url.getHost().toLowerCase(Locale.ROOT);
        int port = url.getPort();
        boolean defaultPort = port < 0 || (port == 80 && url.getScheme().equalsIgnoreCase("http"))
                || (port == 443 && url.getScheme().equalsIgnoreCase("https"));
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        return new SitemapUrl(defaultPort ? host : host + ":" + port, url.getRawQuery() == null ? path : path + "?" + url.getRawQuery());
    }

    /** {@code text} as an HTTP(S) URL with a host, or null. */
    static URI httpUrl(String text) {
        try {
            URI url = new URI(text);
            String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && url.getHost() != null ? url : null;
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /** {@code loc} split by hand when it has the plain shape; null when it has not (then {@link URI} decides). */
    static SitemapUrl plain(String loc) {
        int defaultPort;
        int at;
        if (loc.regionMatches(true, 0, "https://", 0, 8)) {
            defaultPort = 443;
            at = 8;
        } else if (loc.regionMatches(true, 0, "http://", 0, 7)) {
            defaultPort = 80;
            at = 7;
        } else {
            return null;
        }
        int hostEnd = hostEnd(loc, at);
        if (hostEnd < 0) {
            return null;
        }
        String host = loc.substring(at, hostEnd).toLowerCase(Locale.ROOT);
        int end = loc.length();
        int i = hostEnd;
        if (i < end && loc.charAt(i) == ':') {
            int digits = i + 1;
            while (digits < end && isDigit(loc.charAt(digits))) {
                digits++;
            }
            if (digits == i + 1 || digits - i - 1 > 5) {
                return null;
            }
            int port = Integer.parseInt(loc, i + 1, digits, 10);
            if (port != defaultPort) {
                host = host + ":" + port;
            }
            i = digits;
        }
        if (i < end && loc.charAt(i) != '/' && loc.charAt(i) != '?') {
            return null;
        }
        int query = -1;
        for (int j = i; j < end; j++) {
            char c = loc.charAt(j);
            if (c == '?' && query < 0) {
                query = j;
            } else if (c == '%') {
                if (j + 2 >= end || !isHex(loc.charAt(j + 1)) || !isHex(loc.charAt(j + 2))) {
                    return null;
                }
                j += 2;
            } else if (!isPlain(c, query >= 0)) {
                return null;
            }
        }
        String target = i == end ? "/" : loc.substring(i);
        if (target.charAt(0) == '?') {
            target = "/" + target;
        }
        return new SitemapUrl(host, target);
    }

    /**
     * Where a host name starting at {@code from} ends, or -1 unless it is one {@link URI} reads as a
     * host name for certain: labels of letters, digits and inner hyphens, the last starting with a letter.
     */
    private static int hostEnd(String loc, int from) {
        int i = from;
        int labelStart = from;
        int end = loc.length();
        while (i < end) {
            char c = loc.charAt(i);
            if (c == '.') {
                if (i == labelStart || loc.charAt(i - 1) == '-') {
                    return -1;
                }
                labelStart = i + 1;
            } else if (c == '-') {
                if (i == labelStart) {
                    return -1;
                }
            } else if (!isLetter(c) && !isDigit(c)) {
                break;
            }
            i++;
        }
        if (i == labelStart || loc.charAt(i - 1) == '-' || !isLetter(loc.charAt(labelStart))) {
            return -1;
        }
        return i;
    }

    /** A character every path (and query, when {@code query}) takes as it is: unreserved, or one of the reserved set a path keeps. */
    private static boolean isPlain(char c, boolean query) {
        if (isLetter(c) || isDigit(c)) {
            return true;
        }
        return switch (c) {
            case '-', '_', '.', '!', '~', '*', '\'', '(', ')', ';', ':', '@', '&', '=', '+', '$', ',', '/' -> true;
            case '?' -> query;
            default -> false;
        };
    }

    private static boolean isLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHex(char c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
