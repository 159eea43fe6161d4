package dev.crawlerrors.crawler.signature;

import java.util.Locale;
import java.util.Map;

/**
 * A request as its log line records it, the parts a signature base can be rebuilt from: the
 * method, the authority (the Host, lower case, without the default port), the target as requested
 * (path and query) and the header fields the log holds, by lower-case name. The scheme is taken
 * as {@code https}: a Web Bot Auth agent signs over TLS, and a log seldom records the scheme.
 *
 * @param fields header fields by lower-case name: {@code signature-agent}, and any other the log holds
 */
public record SignedRequest(String method, String authority, String target, Map<String, String> fields) {

    public static final String SCHEME = "https";

    public SignedRequest {
        fields = fields == null ? Map.of() : Map.copyOf(fields);
        authority = authority == null || authority.isEmpty() ? null : normalized(authority);
    }

    /**
     * A request of the log's fields: the target may be in absolute form ({@code http://host/path},
     * as a proxy's log writes it), whose authority then stands when the log records no host.
     */
    public static SignedRequest of(String method, String host, String target, String signatureAgent) {
        String authority = host;
        String path = target;
        if (target != null && (target.startsWith("https://") || target.startsWith("http://"))) {
            int start = target.indexOf("://") + 3;
            int slash = target.indexOf('/', start);
            int end = slash < 0 ? target.length() : slash;
            int query = target.indexOf('?', start);
            if (query >= 0 && query < end) {
                end = query;
            }
            if (authority == null || authority.isEmpty()) {
                authority = target.substring(start, end);
            }
            path = end == target.length() ? "/" : target.substring(end);
        }
        return new SignedRequest(method, authority, path, signatureAgent == null ? Map.of() : Map.of("signature-agent", signatureAgent));
    }

    /** The path, {@code /} when the target has none. */
    public String path() {
        if (target == null) {
            return null;
        }
        int query = target.indexOf('?');
        String path = query < 0 ? target : target.substring(0, query);
        return path.isEmpty() ? "/" : path;
    }

    /** The query with its leading {@code ?}; a lone {@code ?} when there is none (RFC 9421 section 2.2.7). */
    public String query() {
        if (target == null) {
            return null;
        }
        int query = target.indexOf('?');
        return query < 0 ? "?" : target.substring(query);
    }

    /** The target URI: scheme, authority and target. */
    public String targetUri() {
        return authority == null || target == null ? null : SCHEME + "://" + authority + target;
    }

    /** An authority as RFC 9421 section 2.2.3 compares it: lower case, without the scheme's default port. */
    static String normalized(String authority) {
        String lower = authority.trim().toLowerCase(Locale.ROOT);
        return lower.endsWith(":443") ? lower.substring(0, lower.length() - 4) : lower;
    }
}
