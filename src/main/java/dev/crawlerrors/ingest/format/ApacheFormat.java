package dev.crawlerrors.ingest.format;

import java.util.Locale;
import java.util.function.Predicate;

/**
 * Compiles an Apache {@code LogFormat} string, as users paste it from their configuration, into a
 * parser: {@code %h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" %D}. The whole directive
 * works too ({@code LogFormat "%h %l ..." combined}: the nickname is dropped and {@code \"}
 * unescaped).
 *
 * <p>Each directive maps to a {@link FieldKind} in {@link #kind}: {@code %h %a} client,
 * {@code %t} (and {@code %{sec}t}, {@code %{msec}t}, {@code %{usec}t}, and the strftime forms of
 * the common-log and ISO 8601 times) time, {@code %r %m %U %q} request, {@code %s %>s} status,
 * {@code %b %B %O} size, {@code %{Referer}i %{User-Agent}i %{X-Forwarded-For}i %{Host}i} headers, and
 * Web Bot Auth's {@code %{Signature}i %{Signature-Input}i %{Signature-Agent}i},
 * {@code %D %T} duration, {@code %v %V} host. Conditions ({@code %400,501{User-agent}i}) and the
 * {@code <}/{@code >} modifiers are read and ignored. Any other directive is a field that is read
 * past. A format without a time, a status, a request (or URL path) or a client address is
 * rejected here, before any line is read.
 */
public final class ApacheFormat {

    private ApacheFormat() {
    }

    /**
     * The parser for {@code format}.
     *
     * @throws IllegalArgumentException naming what is missing or wrong, when the format cannot be used
     */
    public static LineParser compile(String format) {
        String body = unwrap(format);
        if (body.isBlank()) {
            throw new IllegalArgumentException("the Apache format is empty; paste the LogFormat of your CustomLog, "
                    + "e.g. apache:'%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\" %D'");
        }
        FieldLineParser.Builder builder = new FieldLineParser.Builder();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < body.length()) {
            char c = body.charAt(i);
            if (c != '%') {
                literal.append(c);
                i++;
                continue;
            }
            int start = i;
            i++;
            if (i < body.length() && body.charAt(i) == '%') {
                literal.append('%');
                i++;
                continue;
            }
            // modifiers: a status condition (!400,501) and the original/final marks < >
            while (i < body.length() && "<>!,0123456789".indexOf(body.charAt(i)) >= 0) {
                i++;
            }
            String parameter = null;
            if (i < body.length() && body.charAt(i) == '{') {
                int close = body.indexOf('}', i);
                if (close < 0) {
                    throw new IllegalArgumentException("the Apache format has '{' without a closing '}' at character " + (i + 1));
                }
                parameter = body.substring(i + 1, close);
                i = close + 1;
            }
            if (i >= body.length() || !Character.isLetter(body.charAt(i))) {
                throw new IllegalArgumentException("the Apache format has '" + body.substring(start, Math.min(body.length(), i + 1))
                        + "' at character " + (start + 1) + ", which is not a directive; write %% for a percent sign");
            }
            char directive = body.charAt(i);
            i++;
            builder.literal(literal.toString());
            literal.setLength(0);
            builder.field(kind(directive, parameter), body.substring(start, i));
        }
        builder.literal(literal.toString());
        require(builder, FieldKind::isTime, "a time: %t (or %{sec}t, %{msec}t, %{usec}t"
                + (body.contains("}t") ? "; a %{...}t other than %{%d/%b/%Y:%H:%M:%S %z}t and %{%Y-%m-%dT%H:%M:%S%z}t is not read)" : ")"));
        require(builder, k -> k == FieldKind.STATUS, "the status: %>s or %s");
        require(builder, k -> k == FieldKind.REQUEST || k == FieldKind.PATH || k == FieldKind.REQUEST_URI, "the request: %r or %U");
        require(builder, k -> k == FieldKind.CLIENT || k == FieldKind.FORWARDED_FOR, "the client address: %h or %a");
        return builder.build("Apache format '" + body + "'");
    }

    /** The kind of field the directive {@code %{parameter}directive} is. */
    static FieldKind kind(char directive, String parameter) {
        return switch (directive) {
            case 'h', 'a' -> FieldKind.CLIENT;
            case 't' -> time(parameter);
            case 'r' -> FieldKind.REQUEST;
            case 'm' -> FieldKind.METHOD;
            case 'U' -> FieldKind.PATH;
            case 'q' -> FieldKind.QUERY_STRING;
            case 's' -> FieldKind.STATUS;
            case 'b', 'B' -> FieldKind.BODY_BYTES;
            case 'O' -> FieldKind.BYTES_SENT;
            case 'D' -> FieldKind.MICROSECONDS;
            case 'T' -> duration(parameter);
            case 'v', 'V' -> FieldKind.HOST;
            case 'i' -> header(parameter);
            case 'o' -> parameter != null && parameter.equalsIgnoreCase("location") ? FieldKind.LOCATION : FieldKind.SKIP;
            default -> FieldKind.SKIP;
        };
    }

    private static FieldKind header(String name) {
        if (name == null) {
            return FieldKind.SKIP;
        }
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "referer", "referrer" -> FieldKind.REFERER;
            case "user-agent" -> FieldKind.USER_AGENT;
            case "x-forwarded-for" -> FieldKind.FORWARDED_FOR;
            case "cf-connecting-ip", "true-client-ip" -> FieldKind.CONNECTING_IP;
            case "host" -> FieldKind.HOST;
            case "signature" -> FieldKind.SIGNATURE;
            case "signature-input" -> FieldKind.SIGNATURE_INPUT;
            case "signature-agent" -> FieldKind.SIGNATURE_AGENT;
            default -> FieldKind.SKIP;
        };
    }

    private static FieldKind time(String parameter) {
        if (parameter == null) {
            return FieldKind.TIME_BRACKETED;
        }
        String format = parameter;
        if (format.startsWith("begin:") || format.startsWith("end:")) {
            format = format.substring(format.indexOf(':') + 1);
        }
        return switch (format) {
            case "sec" -> FieldKind.EPOCH_SECONDS;
            case "msec" -> FieldKind.EPOCH_MILLIS;
            case "usec" -> FieldKind.EPOCH_MICROS;
            case "%d/%b/%Y:%H:%M:%S %z" -> FieldKind.TIME_LOCAL;
            case "%Y-%m-%dT%H:%M:%S%z", "%FT%T%z" -> FieldKind.TIME_ISO8601;
            // other strftime formats and the msec_frac-style parts are read past; a format needs another time then
            default -> FieldKind.SKIP;
        };
    }

    private static FieldKind duration(String unit) {
        if (unit == null || unit.equals("s")) {
            return FieldKind.WHOLE_SECONDS;
        }
        return switch (unit) {
            case "ms" -> FieldKind.MILLISECONDS;
            case "us" -> FieldKind.MICROSECONDS;
            default -> FieldKind.SKIP;
        };
    }

    private static void require(FieldLineParser.Builder builder, Predicate<FieldKind> kind, String what) {
        if (!builder.has(kind)) {
            throw new IllegalArgumentException("the Apache format has no field for " + what + "; the report needs it");
        }
    }

    /**
     * The format itself from what the user pasted: a bare format, one quoted string, or a whole
     * {@code LogFormat "..." nickname} directive; {@code \"}, {@code \\}, {@code \t} and {@code \n}
     * are unescaped as Apache does.
     */
    static String unwrap(String pasted) {
        String s = pasted.strip();
        boolean directive = s.regionMatches(true, 0, "LogFormat", 0, "LogFormat".length())
                && s.length() > "LogFormat".length() && Character.isWhitespace(s.charAt("LogFormat".length()));
        if (directive) {
            s = s.substring("LogFormat".length()).strip();
        }
        if (s.startsWith("\"")) {
            int close = closingQuote(s);
            if (close > 0 && (directive || close == s.length() - 1)) {
                s = s.substring(1, close);
            }
        }
        return unescape(s);
    }

    private static int closingQuote(String s) {
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                return i;
            }
        }
        return -1;
    }

    private static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char next = s.charAt(++i);
                out.append(switch (next) {
                    case 't' -> '\t';
                    case 'n' -> '\n';
                    default -> next;
                });
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
