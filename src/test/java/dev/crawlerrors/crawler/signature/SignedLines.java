package dev.crawlerrors.crawler.signature;

import dev.crawlerrors.ingest.SignatureFields;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Log lines of signed requests as nginx writes them, in its default escaping (a {@code "} in a
 * header is {@code \x22}) and as an {@code escape=json} template does, with the Web Bot Auth
 * fields the docs tell users to log.
 */
public final class SignedLines {

    /** The format docs/verification.md gives for nginx. */
    public static final String NGINX_FORMAT = "$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent "
            + "\"$http_referer\" \"$http_user_agent\" \"$host\" \"$http_signature_agent\" \"$http_signature_input\" \"$http_signature\"";

    /** The escape=json template docs/verification.md gives for nginx. */
    public static final String NGINX_JSON_FORMAT = "log_format signed escape=json '{\"time\":\"$time_iso8601\",\"remote_addr\":\"$remote_addr\","
            + "\"request\":\"$request\",\"status\":$status,\"host\":\"$host\",\"http_user_agent\":\"$http_user_agent\","
            + "\"http_signature_agent\":\"$http_signature_agent\",\"http_signature_input\":\"$http_signature_input\","
            + "\"http_signature\":\"$http_signature\"}';";

    /** ChatGPT agent's user agent: a plain Chrome. */
    public static final String CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 "
            + "Safari/537.36";

    private static final DateTimeFormatter CLF = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT).withZone(ZoneOffset.UTC);

    private SignedLines() {
    }

    /** An nginx line of {@link #NGINX_FORMAT}; {@code signed} null for an unsigned request. */
    public static String nginx(String ip, Instant at, String method, String target, int status, String agent, String host,
            SignatureFields signed) {
        return ip + " - - [" + CLF.format(at) + "] \"" + method + " " + target + " HTTP/1.1\" " + status + " 512 \"-\" \""
                + escaped(agent) + "\" \"" + host + "\" \"" + escaped(signed == null ? null : signed.signatureAgent()) + "\" \""
                + escaped(signed == null ? null : signed.signatureInput()) + "\" \"" + escaped(signed == null ? null : signed.signature())
                + "\"";
    }

    /** A line of {@link #NGINX_JSON_FORMAT}. */
    public static String json(String ip, Instant at, String method, String target, int status, String agent, String host,
            SignatureFields signed) {
        return "{\"time\":\"" + at + "\",\"remote_addr\":\"" + ip + "\",\"request\":\"" + method + " " + target + " HTTP/1.1\",\"status\":"
                + status + ",\"host\":\"" + host + "\",\"http_user_agent\":\"" + jsonEscaped(agent) + "\",\"http_signature_agent\":\""
                + jsonEscaped(signed == null ? "" : signed.signatureAgent()) + "\",\"http_signature_input\":\""
                + jsonEscaped(signed == null ? "" : signed.signatureInput()) + "\",\"http_signature\":\""
                + jsonEscaped(signed == null ? "" : signed.signature()) + "\"}";
    }

    /** nginx's default escaping: {@code "}, {@code \} and bytes outside printable ASCII as {@code \xHH}; none as {@code -}. */
    static String escaped(String value) {
        if (value == null) {
            return "-";
        }
        StringBuilder out = new StringBuilder(value.length());
        for (char c : value.toCharArray()) {
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x7f) {
                out.append(String.format("\\x%02X", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String jsonEscaped(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
