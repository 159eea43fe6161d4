package dev.crawlerrors.store;

import java.util.ArrayList;
import java.util.List;

/**
 * A request target read as a path for {@link UrlPattern}s: the part before {@code ?}, split at
 * {@code /}. {@code /a/b/} has the segments {@code a}, {@code b} and a trailing slash; {@code /} has
 * none and a trailing slash; a target that does not start with {@code /} is one segment, not rooted.
 */
public record UrlPath(boolean rooted, List<String> segments, boolean trailingSlash) {

    public static UrlPath of(String url) {
        int query = url.indexOf('?');
        String path = query < 0 ? url : url.substring(0, query);
        if (!path.startsWith("/")) {
            return new UrlPath(false, List.of(path), false);
        }
        if (path.length() == 1) {
            return new UrlPath(true, List.of(), true);
        }
        boolean slash = path.endsWith("/");
        String inner = path.substring(1, slash ? path.length() - 1 : path.length());
        List<String> segments = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= inner.length(); i++) {
            if (i == inner.length() || inner.charAt(i) == '/') {
                segments.add(inner.substring(start, i));
                start = i + 1;
            }
        }
        return new UrlPath(true, segments, slash);
    }

    /** One or more ASCII digits. */
    public static boolean isNumber(String segment) {
        if (segment.isEmpty()) {
            return false;
        }
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** One ASCII letter. */
    public static boolean isLetter(String segment) {
        if (segment.length() != 1) {
            return false;
        }
        char c = segment.charAt(0);
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
