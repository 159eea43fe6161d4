package dev.crawlerrors.ingest.format;

import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Compiles an nginx {@code log_format} string, as users paste it from their configuration, into a
 * parser: {@code $remote_addr - $remote_user [$time_local] "$request" $status ...}. The whole
 * directive works too ({@code log_format main '...' '...';}: the name is dropped and the quoted
 * pieces joined), and a format that writes JSON ({@code escape=json '{"time":"$time_iso8601",...}'})
 * becomes a {@link JsonLineParser} that reads each key as the variable the format put there.
 *
 * <p>Each variable maps to a {@link FieldKind} in {@link #VARIABLES}; a variable not in the table
 * is a field that is read past and ignored. A format without a time, a status, a request (or
 * URI) or a client address cannot feed the report and is rejected here, before any line is read.
 */
public final class NginxFormat {

    /** The variables this reads, by name; anything else is skipped. */
    static final Map<String, FieldKind> VARIABLES = Map.ofEntries(
            Map.entry("remote_addr", FieldKind.CLIENT),
            Map.entry("http_x_forwarded_for", FieldKind.FORWARDED_FOR),
            Map.entry("proxy_add_x_forwarded_for", FieldKind.FORWARDED_FOR),
            Map.entry("http_cf_connecting_ip", FieldKind.CONNECTING_IP),
            Map.entry("http_true_client_ip", FieldKind.CONNECTING_IP),
            Map.entry("time_local", FieldKind.TIME_LOCAL),
            Map.entry("time_iso8601", FieldKind.TIME_ISO8601),
            Map.entry("msec", FieldKind.EPOCH_SECONDS),
            Map.entry("request", FieldKind.REQUEST),
            Map.entry("request_method", FieldKind.METHOD),
            Map.entry("request_uri", FieldKind.REQUEST_URI),
            Map.entry("uri", FieldKind.PATH),
            Map.entry("document_uri", FieldKind.PATH),
            Map.entry("args", FieldKind.ARGS),
            Map.entry("query_string", FieldKind.ARGS),
            Map.entry("status", FieldKind.STATUS),
            Map.entry("body_bytes_sent", FieldKind.BODY_BYTES),
            Map.entry("bytes_sent", FieldKind.BYTES_SENT),
            Map.entry("http_referer", FieldKind.REFERER),
            Map.entry("http_user_agent", FieldKind.USER_AGENT),
            Map.entry("request_time", FieldKind.SECONDS),
            Map.entry("upstream_response_time", FieldKind.UPSTREAM_SECONDS),
            Map.entry("upstream_connect_time", FieldKind.SKIP_LIST),
            Map.entry("upstream_header_time", FieldKind.SKIP_LIST),
            Map.entry("upstream_addr", FieldKind.SKIP_LIST),
            Map.entry("upstream_status", FieldKind.SKIP_LIST),
            Map.entry("host", FieldKind.HOST),
            Map.entry("server_name", FieldKind.HOST),
            Map.entry("http_host", FieldKind.HOST),
            Map.entry("sent_http_location", FieldKind.LOCATION),
            Map.entry("http_signature", FieldKind.SIGNATURE),
            Map.entry("http_signature_input", FieldKind.SIGNATURE_INPUT),
            Map.entry("http_signature_agent", FieldKind.SIGNATURE_AGENT));

    private NginxFormat() {
    }

    /**
     * The parser for {@code format}.
     *
     * @throws IllegalArgumentException naming what is missing or wrong, when the format cannot be used
     */
    public static LineParser compile(String format) {
        String body = unwrap(format);
        if (body.isBlank()) {
            throw new IllegalArgumentException("the nginx format is empty; paste the log_format of your access_log, "
                    + "e.g. nginx:'$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent \"$http_referer\" \"$http_user_agent\"'");
        }
        String description = "nginx format '" + body + "'";
        if (body.stripLeading().startsWith("{")) {
            return JsonLineParser.forTemplate(body, description);
        }
        FieldLineParser.Builder builder = new FieldLineParser.Builder();
        int i = 0;
        StringBuilder literal = new StringBuilder();
        while (i < body.length()) {
            char c = body.charAt(i);
            int nameFrom;
            int nameTo;
            int next;
            if (c == '$' && i + 1 < body.length() && body.charAt(i + 1) == '{') {
                nameFrom = i + 2;
                nameTo = body.indexOf('}', nameFrom);
                if (nameTo < 0) {
                    throw new IllegalArgumentException("the nginx format has '${' without a closing '}' at character " + (i + 1));
                }
                next = nameTo + 1;
            } else if (c == '$' && i + 1 < body.length() && isNameChar(body.charAt(i + 1))) {
                nameFrom = i + 1;
                nameTo = nameFrom;
                while (nameTo < body.length() && isNameChar(body.charAt(nameTo))) {
                    nameTo++;
                }
                next = nameTo;
            } else {
                literal.append(c);
                i++;
                continue;
            }
            builder.literal(literal.toString());
            literal.setLength(0);
            String name = body.substring(nameFrom, nameTo);
            builder.field(variable(name), "$" + name);
            i = next;
        }
        builder.literal(literal.toString());
        require(builder, FieldKind::isTime, "a time: $time_local, $time_iso8601 or $msec");
        require(builder, k -> k == FieldKind.STATUS, "$status");
        require(builder, k -> k == FieldKind.REQUEST || k == FieldKind.REQUEST_URI || k == FieldKind.PATH,
                "the request: $request, $request_uri or $uri");
        require(builder, k -> k == FieldKind.CLIENT || k == FieldKind.FORWARDED_FOR, "the client address: $remote_addr");
        return builder.build(description);
    }

    /** The kind of field {@code $name} is. */
    static FieldKind variable(String name) {
        return VARIABLES.getOrDefault(name.toLowerCase(Locale.ROOT), FieldKind.SKIP);
    }

    private static void require(FieldLineParser.Builder builder, Predicate<FieldKind> kind, String what) {
        if (!builder.has(kind)) {
            throw new IllegalArgumentException("the nginx format has no field for " + what + "; the report needs it");
        }
    }

    private static boolean isNameChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    /**
     * The format itself from what the user pasted: a bare format, one quoted string, or a whole
     * {@code log_format NAME [escape=...] '...' '...';} directive.
     */
    static String unwrap(String pasted) {
        String s = pasted.strip();
        if (s.startsWith("log_format ") || s.startsWith("log_format\t")) {
            s = s.substring("log_format".length()).strip();
            s = dropWord(s); // the format's name
            if (s.startsWith("escape=")) {
                s = dropWord(s);
            }
        }
        if (s.endsWith(";")) {
            String joined = joinQuoted(s.substring(0, s.length() - 1).strip());
            return joined != null ? joined : s;
        }
        String joined = joinQuoted(s);
        return joined != null ? joined : s;
    }

    private static String dropWord(String s) {
        int space = 0;
        while (space < s.length() && !Character.isWhitespace(s.charAt(space))) {
            space++;
        }
        return s.substring(space).strip();
    }

    /** The contents of a sequence of quoted strings ('a' 'b' or "a" "b"), joined; null when {@code s} is not one. */
    private static String joinQuoted(String s) {
        if (s.isEmpty() || (s.charAt(0) != '\'' && s.charAt(0) != '"')) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < s.length()) {
            char quote = s.charAt(i);
            if (quote != '\'' && quote != '"') {
                return null;
            }
            i++;
            boolean closed = false;
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c == '\\' && i + 1 < s.length()) {
                    out.append(s.charAt(i + 1));
                    i += 2;
                } else if (c == quote) {
                    closed = true;
                    i++;
                    break;
                } else {
                    out.append(c);
                    i++;
                }
            }
            if (!closed) {
                return null;
            }
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }
        return out.toString();
    }
}
