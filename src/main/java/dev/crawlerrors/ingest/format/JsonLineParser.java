package dev.crawlerrors.ingest.format;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SignatureFields;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses JSON access logs, one object a line: nginx {@code escape=json} templates (user-defined
 * keys such as {@code remote_addr}, {@code time_iso8601}, {@code request}, {@code status},
 * {@code http_user_agent}, {@code request_time}), Caddy's access log (nested
 * {@code request.client_ip}, or {@code request.remote_ip} before Caddy 2.7, or
 * {@code request.remote_addr} with its port before 2.5; {@code request.method},
 * {@code request.uri}, {@code request.host}, {@code request.headers["User-Agent"][0]}, {@code ts}
 * in epoch seconds, {@code duration} in seconds, {@code size}, {@code status}) and Traefik's
 * ({@code ClientHost}, {@code RequestMethod}, {@code RequestPath}, {@code RequestHost},
 * {@code DownstreamStatus}, {@code StartUTC}, {@code Duration} in nanoseconds,
 * {@code request_User-Agent}); a redirect's target from {@code sent_http_location} (or {@code location}),
 * Caddy's {@code resp_headers.Location} and Traefik's {@code downstream_Location}; and the Web Bot Auth
 * headers under those three's names for them ({@code http_signature_agent},
 * {@code request.headers.Signature-Agent}, {@code request_Signature-Agent}). Keys are looked up by their dotted path in {@link #KEYS}; where
 * several keys say the same thing the more exact one wins (Caddy's {@code client_ip} over
 * {@code remote_ip} over {@code remote_addr}, Traefik's {@code DownstreamStatus} over
 * {@code OriginStatus}). Times are read by their form: ISO 8601, the common-log time, or an epoch
 * number in seconds, milliseconds, microseconds or nanoseconds.
 *
 * <p>Design: most lines are people, and a full JSON parse costs far more than a byte search. So
 * the line is first walked string by string (a quote, its closing quote, skipping backslash
 * escapes) until a key that holds the user agent; its value is decoded into a reused buffer and
 * the {@link AgentFilter} asked. Only lines it keeps, and lines with no agent key at all, are
 * parsed with Jackson's streaming parser. A dropped line is thus counted as parsed once it is a
 * brace-delimited line with an agent, without being validated further: the price of the speed.
 */
public final class JsonLineParser implements LineParser {

    /** What a key holds. */
    enum Target {
        CLIENT, FORWARDED, TIME, METHOD, REQUEST, URI, PATH, QUERY, STATUS, BYTES, REFERER, AGENT, DURATION, HOST, LOCATION, SIGNATURE,
        SIGNATURE_INPUT, SIGNATURE_AGENT
    }

    /** How a number is written: the unit of a duration, or an address with a port. */
    enum Unit {
        NONE, SECONDS, MILLISECONDS, NANOSECONDS, WITH_PORT
    }

    /** A key's meaning; of two keys for one target, the higher rank wins. */
    record Key(Target target, int rank, Unit unit) {
    }

    private static final JsonFactory JSON = new JsonFactory();
    /** Objects nested deeper than this are skipped: access logs nest two or three levels. */
    private static final int MAX_DEPTH = 8;

    /** The keys of nginx JSON templates as people name them, Caddy's and Traefik's. */
    static final Map<String, Key> KEYS = keys();

    private final Map<String, Key> keys;
    /** Finds the user agent in a line without parsing it. */
    private final JsonAgentScan agentScan;
    private final String description;
    private final Values values = new Values();
    private long caddyLines;
    private long traefikLines;
    private long otherLines;

    private JsonLineParser(Map<String, Key> keys, String description) {
        this.keys = keys;
        this.description = description;
        this.agentScan = new JsonAgentScan(keys);
    }

    /** The parser for JSON access logs with the usual key names (nginx, Caddy, Traefik). */
    public JsonLineParser() {
        this(KEYS, null);
    }

    /**
     * The parser for the JSON an nginx {@code escape=json} template writes, each key read as the
     * variable the template puts in it ({@code "ua":"$http_user_agent"}).
     *
     * @throws IllegalArgumentException when the template lacks a time, status, request or client
     */
    static JsonLineParser forTemplate(String template, String description) {
        return new JsonLineParser(NginxJsonTemplate.keys(template), description);
    }

    @Override
    public LineParser copy() {
        return new JsonLineParser(keys, description);
    }

    @Override
    public Hit parse(byte[] b, int from, int to, AgentFilter filter) throws BadLineException {
        while (from < to && (b[from] == ' ' || b[from] == '\t')) {
            from++;
        }
        while (to > from && (b[to - 1] == ' ' || b[to - 1] == '\t')) {
            to--;
        }
        if (from >= to || b[from] != '{') {
            throw new BadLineException("not JSON", "expected a JSON object, starting with '{'; got '" + LogText.excerpt(b, from, to) + "'");
        }
        if (b[to - 1] != '}') {
            throw new BadLineException("truncated", "the JSON object does not end with '}'; the line looks truncated");
        }
        int agentLength = agentScan.find(b, from, to);
        boolean crawler = agentLength >= 0 && filter.mayBeCrawler(agentScan.agent(), 0, agentLength);
        if (agentLength >= 0 && !crawler && !JsonAgentScan.mayBeSigned(b, from, to)) {
            return null;
        }
        values.reset();
        try (JsonParser json = JSON.createParser(b, from, to - from)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                throw new BadLineException("not JSON", "expected a JSON object; got '" + LogText.excerpt(b, from, to) + "'");
            }
            readObject(json, null, 1);
            if (json.nextToken() != null) {
                throw new BadLineException("not JSON", "text after the JSON object: '" + LogText.excerpt(b, from, to) + "'");
            }
        } catch (IOException e) {
            String message = e instanceof JacksonException j ? j.getOriginalMessage() : e.getMessage();
            throw new BadLineException("not JSON", "not a JSON object: " + firstLine(message));
        }
        if (crawler || values.signed()) {
            return values.hit(); // a signed line is an agent's whatever its user agent says
        }
        if (agentLength >= 0) {
            return null; // parsed only for a word that may have named a signature, and none did
        }
        // no agent key found by the byte walk (none in the line, or under a name it does not know)
        String found = values.text[Target.AGENT.ordinal()];
        byte[] bytes = found == null ? new byte[0] : found.getBytes(StandardCharsets.UTF_8);
        if (!filter.mayBeCrawler(bytes, 0, bytes.length)) {
            return null;
        }
        return values.hit();
    }

    private void readObject(JsonParser json, String prefix, int depth) throws IOException {
        JsonToken token;
        while ((token = json.nextToken()) == JsonToken.FIELD_NAME) {
            String name = json.currentName();
            String path = prefix == null ? name : prefix + '.' + name;
            token = json.nextToken();
            if (token == JsonToken.START_OBJECT) {
                if (depth < MAX_DEPTH) {
                    readObject(json, path, depth + 1);
                } else {
                    json.skipChildren();
                }
            } else if (token == JsonToken.START_ARRAY) {
                // header values are arrays (Caddy): the first value counts
                Key key = keys.get(path);
                boolean first = true;
                while ((token = json.nextToken()) != JsonToken.END_ARRAY && token != null) {
                    if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
                        json.skipChildren();
                    } else if (first && key != null) {
                        values.set(key, path, json, token);
                    }
                    first = false;
                }
            } else {
                Key key = keys.get(path);
                if (key != null) {
                    values.set(key, path, json, token);
                }
            }
        }
        if (token != JsonToken.END_OBJECT) {
            throw new IOException("the JSON object is not closed");
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    /**
     * What this parser has read so far, for the auto-detection notice: whose JSON it looked like.
     */
    @Override
    public String describe() {
        if (description != null) {
            return description;
        }
        if (traefikLines > caddyLines && traefikLines > otherLines) {
            return "JSON lines (Traefik)";
        }
        if (caddyLines > otherLines) {
            return "JSON lines (Caddy)";
        }
        return "JSON lines";
    }

    /** The values of one line, by target, with the key each came from. */
    private final class Values {
        private final String[] text = new String[Target.values().length];
        private final double[] number = new double[Target.values().length];
        private final int[] rank = new int[Target.values().length];
        private final String[] path = new String[Target.values().length];
        private final Unit[] unit = new Unit[Target.values().length];

        void reset() {
            Arrays.fill(text, null);
            Arrays.fill(rank, 0);
        }

        /** Whether the line has a Signature-Input or Signature-Agent. */
        boolean signed() {
            return dashIsNull(text[Target.SIGNATURE_INPUT.ordinal()]) != null || dashIsNull(text[Target.SIGNATURE_AGENT.ordinal()]) != null;
        }

        void set(Key key, String from, JsonParser json, JsonToken token) throws IOException {
            int t = key.target.ordinal();
            if (key.rank <= rank[t] || token == JsonToken.VALUE_NULL) {
                return;
            }
            boolean isNumber = token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT;
            if (!isNumber && token != JsonToken.VALUE_STRING) {
                return;
            }
            text[t] = json.getText();
            number[t] = isNumber ? json.getDoubleValue() : Double.NaN;
            rank[t] = key.rank;
            path[t] = from;
            unit[t] = key.unit;
        }

        Hit hit() throws BadLineException {
            String timeText = require(Target.TIME, "time", "time_iso8601, time_local, msec, time, ts, StartUTC");
            long epochMillis;
            int offsetMinutes = 0;
            double epochNumber = number[Target.TIME.ordinal()];
            byte[] t = timeText.getBytes(StandardCharsets.UTF_8);
            if (Double.isNaN(epochNumber)) {
                epochNumber = LogTime.decimal(t, 0, t.length);
            }
            if (!Double.isNaN(epochNumber)) {
                epochMillis = LogTime.epochOfAnyUnit(epochNumber);
                if (epochMillis == LogTime.INVALID) {
                    throw new BadLineException("bad time", "'" + LogText.excerpt(timeText) + "' (" + path[Target.TIME.ordinal()]
                            + ") is not a time in the years 1 to 9999; expected epoch seconds (or milliseconds, microseconds, "
                            + "nanoseconds) such as 1747207862.123");
                }
            } else if (t.length == LogTime.CLF_LENGTH && (epochMillis = LogTime.clf(t, 0, t.length)) != LogTime.INVALID) {
                offsetMinutes = LogTime.clfOffsetMinutes(t, 0);
            } else if ((epochMillis = LogTime.iso8601(t, 0, t.length)) != LogTime.INVALID) {
                offsetMinutes = LogTime.iso8601OffsetMinutes(t, 0, t.length);
            }
            if (epochMillis == LogTime.INVALID) {
                throw new BadLineException("bad time", "'" + LogText.excerpt(timeText) + "' (" + path[Target.TIME.ordinal()]
                        + ") is not a time; expected ISO 8601 such as 2025-05-14T09:31:02+02:00, " + LogTime.CLF_PATTERN + " or epoch seconds");
            }

            String statusText = require(Target.STATUS, "status", "status, DownstreamStatus");
            int status = statusText.length() == 3 ? parseStatus(statusText) : -1;
            if (status < 0) {
                throw new BadLineException("bad status", "'" + LogText.excerpt(statusText) + "' (" + path[Target.STATUS.ordinal()]
                        + ") is not a status; expected a three-digit status");
            }

            String ip = text[Target.CLIENT.ordinal()];
            boolean withPort = unit[Target.CLIENT.ordinal()] == Unit.WITH_PORT;
            if (ip != null && withPort) {
                if (!AddressText.isAddress(ip, true)) {
                    throw notAnAddress(ip);
                }
                ip = ClientAddress.withoutPort(ip);
            }
            String forwarded = text[Target.FORWARDED.ordinal()];
            if (forwarded != null && ip == null) { // forwarded only counts from a trusted proxy: the verifier's call
                String last = ClientAddress.lastForwarded(forwarded);
                ip = last != null ? last : ip;
            }
            if (ip == null) {
                require(Target.CLIENT, "client address", "remote_addr, request.client_ip, ClientHost");
            }
            if (ip.startsWith("[") && ip.endsWith("]")) {
                ip = ip.substring(1, ip.length() - 1);
            }
            if (!AddressText.isAddress(ip, false)) {
                throw notAnAddress(ip);
            }

            String request = text[Target.REQUEST.ordinal()];
            String method = text[Target.METHOD.ordinal()];
            String url;
            if (request != null) {
                byte[] r = request.getBytes(StandardCharsets.UTF_8);
                url = LogText.requestUrl(r, 0, r.length);
                if (method == null) {
                    method = LogText.requestMethod(r, 0, r.length);
                }
            } else if (text[Target.URI.ordinal()] != null) {
                url = text[Target.URI.ordinal()];
            } else if (text[Target.PATH.ordinal()] != null) {
                String query = dashIsNull(text[Target.QUERY.ordinal()]);
                url = text[Target.PATH.ordinal()] + (query == null ? "" : "?" + query);
            } else {
                throw missing("request", "request, request_uri, request.uri, RequestPath");
            }

            long bytes = -1;
            if (text[Target.BYTES.ordinal()] != null) {
                double n = number(Target.BYTES);
                bytes = Double.isNaN(n) ? -1 : (long) n;
            }
            String host = dashIsNull(text[Target.HOST.ordinal()]);
            if (host != null && unit[Target.HOST.ordinal()] == Unit.WITH_PORT) {
                host = ClientAddress.withoutPort(host);
            }
            count();
            return new Hit(epochMillis, offsetMinutes, ip, method == null ? "" : method, url, status, bytes,
                    dashIsNull(text[Target.REFERER.ordinal()]), dashIsNull(text[Target.AGENT.ordinal()]), durationMs(), host,
                    dashIsNull(forwarded), dashIsNull(text[Target.LOCATION.ordinal()]),
                    SignatureFields.of(text[Target.SIGNATURE.ordinal()], text[Target.SIGNATURE_INPUT.ordinal()],
                    text[Target.SIGNATURE_AGENT.ordinal()]));
        }

        private void count() {
            String statusKey = path[Target.STATUS.ordinal()];
            String urlKey = path[Target.URI.ordinal()];
            if ("DownstreamStatus".equals(statusKey)) {
                traefikLines++;
            } else if ("request.uri".equals(urlKey) && text[Target.URI.ordinal()] != null) {
                caddyLines++;
            } else {
                otherLines++;
            }
        }

        private double durationMs() throws BadLineException {
            int d = Target.DURATION.ordinal();
            if (text[d] == null) {
                return Double.NaN;
            }
            double value = number(Target.DURATION);
            if (Double.isNaN(value)) {
                value = goDuration(text[d]);
                if (!Double.isNaN(value)) {
                    return value;
                }
                if (dashIsNull(text[d]) == null) {
                    return Double.NaN;
                }
                throw new BadLineException("bad duration", "'" + LogText.excerpt(text[d]) + "' (" + path[d] + ") is not a duration; expected a number");
            }
            return switch (unit[d]) {
                case NANOSECONDS -> value / 1e6;
                case MILLISECONDS -> value;
                default -> value * 1000.0;
            };
        }

        /** The number in a target's value, whether JSON wrote it as a number or as a string such as "0.012". */
        private double number(Target target) {
            int t = target.ordinal();
            if (!Double.isNaN(number[t])) {
                return number[t];
            }
            byte[] bytes = text[t].getBytes(StandardCharsets.UTF_8);
            // nginx's $upstream_response_time may list several upstreams: the first counts
            int end = 0;
            while (end < bytes.length && bytes[end] != ',' && bytes[end] != ' ') {
                end++;
            }
            return LogTime.decimal(bytes, 0, end);
        }

        private String require(Target target, String what, String keysTried) throws BadLineException {
            String value = text[target.ordinal()];
            if (value == null) {
                throw missing(what, keysTried);
            }
            return value;
        }

        private BadLineException notAnAddress(String ip) {
            return new BadLineException("no client address", "'" + LogText.excerpt(ip) + "' (" + path[Target.CLIENT.ordinal()]
                    + ") is not a client address; expected an IPv4 or IPv6 address");
        }

        private BadLineException missing(String what, String keysTried) {
            return new BadLineException("missing field", "the JSON object has no " + what + " (looked for " + keysTried + ")");
        }
    }

    private static int parseStatus(String s) {
        int value = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static String dashIsNull(String s) {
        return s == null || s.isEmpty() || s.equals("-") ? null : s;
    }

    /** Milliseconds of a Go duration such as {@code 1.5ms}, {@code 350µs} or {@code 2s} (Caddy's duration_format string); NaN otherwise. */
    static double goDuration(String s) {
        int unitAt = 0;
        while (unitAt < s.length() && (Character.isDigit(s.charAt(unitAt)) || s.charAt(unitAt) == '.')) {
            unitAt++;
        }
        if (unitAt == 0 || unitAt == s.length()) {
            return Double.NaN;
        }
        byte[] digits = s.substring(0, unitAt).getBytes(StandardCharsets.US_ASCII);
        double value = LogTime.decimal(digits, 0, digits.length);
        return switch (s.substring(unitAt)) {
            case "ns" -> value / 1e6;
            case "us", "µs" -> value / 1e3;
            case "ms" -> value;
            case "s" -> value * 1e3;
            case "m" -> value * 60e3;
            case "h" -> value * 3600e3;
            default -> Double.NaN;
        };
    }

    private static Map<String, Key> keys() {
        Map<String, Key> k = new HashMap<>();
        // client: Caddy's key depends on its version, and each newer one says more. Up to 2.4 it wrote
        // request.remote_addr, address and port in one ("[v6]:port" for IPv6); 2.5 split that into
        // remote_ip and remote_port; 2.7 added client_ip, the client behind trusted proxies, where
        // remote_ip is the peer (the proxy). So client_ip > remote_ip > remote_addr
        put(k, Target.CLIENT, 1, Unit.NONE, "remote_addr", "client_ip", "clientip", "ip", "remote_ip");
        put(k, Target.CLIENT, 1, Unit.WITH_PORT, "ClientAddr", "request.remote_addr");
        put(k, Target.CLIENT, 2, Unit.NONE, "request.remote_ip", "ClientHost");
        put(k, Target.CLIENT, 3, Unit.NONE, "request.client_ip");
        // X-Forwarded-For over the single address a CDN sets (Cloudflare's CF-Connecting-IP, Akamai's True-Client-IP)
        put(k, Target.FORWARDED, 2, Unit.NONE, "http_x_forwarded_for", "x_forwarded_for", "request.headers.X-Forwarded-For",
                "request_X-Forwarded-For");
        put(k, Target.FORWARDED, 1, Unit.NONE, "http_cf_connecting_ip", "cf_connecting_ip", "request.headers.Cf-Connecting-Ip",
                "request_Cf-Connecting-Ip", "http_true_client_ip", "true_client_ip", "request.headers.True-Client-Ip",
                "request_True-Client-Ip");
        // time: when the request started (Traefik) over when the line was written
        put(k, Target.TIME, 1, Unit.NONE, "time", "timestamp", "@timestamp", "ts");
        put(k, Target.TIME, 2, Unit.NONE, "time_iso8601", "time_local", "msec");
        put(k, Target.TIME, 3, Unit.NONE, "StartLocal", "StartUTC");
        put(k, Target.METHOD, 1, Unit.NONE, "method", "request_method", "request.method", "RequestMethod");
        put(k, Target.REQUEST, 1, Unit.NONE, "request");
        put(k, Target.URI, 1, Unit.NONE, "uri", "url");
        put(k, Target.URI, 2, Unit.NONE, "request_uri", "request.uri", "RequestPath");
        put(k, Target.PATH, 1, Unit.NONE, "path");
        put(k, Target.QUERY, 1, Unit.NONE, "args", "query_string", "query");
        put(k, Target.STATUS, 1, Unit.NONE, "OriginStatus");
        put(k, Target.STATUS, 2, Unit.NONE, "status", "status_code");
        put(k, Target.STATUS, 3, Unit.NONE, "DownstreamStatus");
        put(k, Target.BYTES, 1, Unit.NONE, "OriginContentSize");
        put(k, Target.BYTES, 2, Unit.NONE, "bytes_sent", "bytes");
        put(k, Target.BYTES, 3, Unit.NONE, "body_bytes_sent", "size", "DownstreamContentSize");
        put(k, Target.REFERER, 1, Unit.NONE, "http_referer", "http_referrer", "referer", "referrer", "request.headers.Referer",
                "request_Referer");
        put(k, Target.AGENT, 1, Unit.NONE, "http_user_agent", "user_agent", "useragent", "userAgent", "agent",
                "request.headers.User-Agent", "request_User-Agent");
        put(k, Target.DURATION, 1, Unit.SECONDS, "upstream_response_time");
        put(k, Target.DURATION, 1, Unit.NANOSECONDS, "OriginDuration");
        put(k, Target.DURATION, 2, Unit.SECONDS, "duration");
        put(k, Target.DURATION, 3, Unit.SECONDS, "request_time");
        put(k, Target.DURATION, 3, Unit.NANOSECONDS, "Duration");
        put(k, Target.DURATION, 3, Unit.MILLISECONDS, "duration_ms", "request_time_ms");
        put(k, Target.HOST, 1, Unit.WITH_PORT, "host", "server_name", "http_host", "RequestAddr");
        put(k, Target.HOST, 2, Unit.WITH_PORT, "request.host");
        put(k, Target.HOST, 2, Unit.NONE, "RequestHost");
        // a redirect's target: nginx's $sent_http_location as people name it, Caddy's response headers, Traefik's
        put(k, Target.LOCATION, 1, Unit.NONE, "location", "sent_http_location", "resp_headers.Location", "downstream_Location");
        // Web Bot Auth: nginx templates' names, Caddy's request headers (arrays), Traefik's request_ headers
        put(k, Target.SIGNATURE, 1, Unit.NONE, "http_signature", "signature", "request.headers.Signature", "request_Signature");
        put(k, Target.SIGNATURE_INPUT, 1, Unit.NONE, "http_signature_input", "signature_input", "request.headers.Signature-Input",
                "request_Signature-Input");
        put(k, Target.SIGNATURE_AGENT, 1, Unit.NONE, "http_signature_agent", "signature_agent", "request.headers.Signature-Agent",
                "request_Signature-Agent");
        return Map.copyOf(k);
    }

    private static void put(Map<String, Key> keys, Target target, int rank, Unit unit, String... paths) {
        for (String path : paths) {
            keys.put(path, new Key(target, rank, unit));
        }
    }
}
