package dev.crawlerrors.report.pattern;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * Where a shape's redirects went, when the log recorded their targets (the Location header): each
 * target read against the URL it answered, counted by what it is, with one example of each kind.
 * Bounded: a count and an example per kind, whatever the number of URLs.
 */
final class RedirectTargets {

    /** What a redirect's target is, seen from the URL asked. */
    enum Kind {
        /** The same path with a slash added: {@code /a} to {@code /a/}. */
        SLASH_ADDED,
        /** The same path without its trailing slash. */
        SLASH_REMOVED,
        /** Another host than the one asked ({@code example.com} to {@code www.example.com}). */
        OTHER_HOST,
        /**
         * An absolute target with the same path, on the host asked or where the log says no host to
         * compare with: another scheme (http to https) or host.
         */
        SAME_PATH_ELSEWHERE,
        /** The site's home page: a soft 404. */
        HOME,
        /** Any other address on the site. */
        ELSEWHERE
    }

    /** One redirect of a kind: the URL asked, on which host (null: not logged), its target, and when it was last asked. */
    record Example(String url, String host, String target, long lastMillis) {

        /** The example kept of two: the newest (ties by URL), whatever order they come in, as {@link ShapeStats} keeps its own. */
        static Example keep(Example a, Example b) {
            if (a.lastMillis != b.lastMillis) {
                return a.lastMillis > b.lastMillis ? a : b;
            }
            return a.url.compareTo(b.url) <= 0 ? a : b;
        }
    }

    private final Map<Kind, Long> hits = new EnumMap<>(Kind.class);
    private final Map<Kind, Example> examples = new EnumMap<>(Kind.class);

    void add(String url, String host, String location, long n, long lastMillis) {
        Kind kind = kind(url, host, location);
        hits.merge(kind, n, Long::sum);
        examples.merge(kind, new Example(url, host, location, lastMillis), Example::keep);
    }

    void addAll(RedirectTargets other) {
        other.hits.forEach((kind, n) -> hits.merge(kind, n, Long::sum));
        other.examples.forEach((kind, example) -> examples.merge(kind, example, Example::keep));
    }

    RedirectTargets copy() {
        RedirectTargets copy = new RedirectTargets();
        copy.addAll(this);
        return copy;
    }

    /** The kind most of the recorded targets are, ties in the order of {@link Kind}. */
    Kind commonest() {
        Kind best = null;
        for (Map.Entry<Kind, Long> e : hits.entrySet()) {
            if (best == null || e.getValue() > hits.get(best)) {
                best = e.getKey();
            }
        }
        return best;
    }

    long hits() {
        return hits.values().stream().mapToLong(Long::longValue).sum();
    }

    Example example(Kind kind) {
        return examples.get(kind);
    }

    /** What {@code location}, the target of a redirect of {@code url} asked on {@code host} (null: not logged), is. */
    static Kind kind(String url, String host, String location) {
        Target target = Target.of(location);
        if (target.host() != null && host != null && !target.host().equals(withoutPort(host))) {
            return Kind.OTHER_HOST;
        }
        String asked = path(url);
        String to = path(target.path());
        if (target.host() != null && to.equals(asked)) {
            return Kind.SAME_PATH_ELSEWHERE; // the same host (or none logged) and path: another scheme, such as https
        }
        if (to.equals(asked + "/")) {
            return Kind.SLASH_ADDED;
        }
        if (asked.endsWith("/") && to.equals(asked.substring(0, asked.length() - 1)) && !to.isEmpty()) {
            return Kind.SLASH_REMOVED;
        }
        if (to.equals("/") && !asked.equals("/")) {
            return Kind.HOME;
        }
        return Kind.ELSEWHERE;
    }

    /** The path and query on this site a target leads to; null for another host than {@code host} (null: not logged). */
    static String sitePath(String location, String host) {
        Target target = Target.of(location);
        if (target.host() != null && host != null && !target.host().equals(withoutPort(host))) {
            return null;
        }
        return target.path().startsWith("/") ? target.path() : null;
    }

    /** A Location read: its host (lowered, without a port) when it is absolute, else null; and its path with its query. */
    private record Target(String host, String path) {

        static Target of(String location) {
            int scheme = location.indexOf("://");
            boolean absolute = location.startsWith("//") || (scheme > 0 && location.indexOf('/') == scheme + 1);
            if (!absolute) {
                return new Target(null, location);
            }
            int hostFrom = location.startsWith("//") ? 2 : scheme + 3;
            int pathFrom = location.indexOf('/', hostFrom);
            return new Target(withoutPort(location.substring(hostFrom, pathFrom < 0 ? location.length() : pathFrom)),
                    pathFrom < 0 ? "/" : location.substring(pathFrom));
        }
    }

    /** The path of a URL without its query or fragment. */
    private static String path(String url) {
        int end = url.length();
        for (int i = 0; i < url.length(); i++) {
            if (url.charAt(i) == '?' || url.charAt(i) == '#') {
                end = i;
                break;
            }
        }
        return url.substring(0, end);
    }

    private static String withoutPort(String host) {
        int colon = host.lastIndexOf(':');
        boolean port = colon > 0 && host.indexOf(':') == colon; // an IPv6 address in brackets has colons before its port
        if (host.startsWith("[")) {
            int close = host.indexOf(']');
            return (close > 0 ? host.substring(0, close + 1) : host).toLowerCase(Locale.ROOT);
        }
        return (port ? host.substring(0, colon) : host).toLowerCase(Locale.ROOT);
    }
}
