package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SignatureFields;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Parses the W3C extended log format as IIS and Amazon CloudFront write it: directive lines
 * ({@code #Software:}, {@code #Version:}, {@code #Date:}, {@code #Fields:}) and data lines whose
 * fields, separated by spaces (IIS) or tabs (CloudFront), are the ones the last {@code #Fields:}
 * named:
 *
 * <pre>
 * #Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken
 * 2025-05-14 07:31:02 10.0.0.4 GET /gent/veldstraat - 443 - 66.249.66.1 Mozilla/5.0+(compatible;+Googlebot/2.1;++http://www.google.com/bot.html) - 404 0 2 15
 * </pre>
 *
 * Read: {@code date} and {@code time} (UTC; {@code time} alone takes its date from {@code #Date:}),
 * {@code c-ip}, {@code cs-method}, {@code cs-uri-stem} with {@code cs-uri-query} (or
 * {@code cs-uri}), {@code sc-status}, {@code sc-bytes}, {@code cs(User-Agent)} and
 * {@code cs(Referer)}, {@code time-taken} (IIS: milliseconds; CloudFront, or a value with a
 * decimal point: seconds), {@code x-host-header} or else {@code cs-host}/{@code cs(Host)}, and
 * {@code x-forwarded-for}, CloudFront's {@code x-edge-result-type} and {@code cs-protocol} (its own
 * redirects from http to https, as their target), and Web Bot Auth's {@code Signature}, {@code Signature-Input} and
 * {@code Signature-Agent} (IIS custom fields of those names, or {@code cs(Signature)} ...). Every other field ({@code s-ip}, the server's own address, among them)
 * is read past. IIS writes a space in a value as {@code +}; CloudFront URL-encodes: the agent is
 * decoded before the filter sees it. Directive lines yield no hit and are not bad lines.
 *
 * <p>A {@code #Fields:} directive changes how every later line reads, so this parser is
 * {@linkplain #sequential() sequential}: {@code LogReader} parses a W3C source in order on one
 * thread, and a directive in one chunk governs the next.
 */
public final class W3cLineParser implements LineParser {

    private enum Field {
        DATE, TIME, CLIENT, METHOD, STEM, QUERY, URI, STATUS, BYTES, AGENT, REFERER, TIME_TAKEN, HOST, HOST_HEADER, FORWARDED, CONNECTING,
        SIGNATURE, SIGNATURE_INPUT, SIGNATURE_AGENT, RESULT_TYPE, PROTOCOL, SKIP
    }

    private static final byte[] FIELDS = "#fields:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATE = "#date:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SOFTWARE = "#software:".getBytes(StandardCharsets.US_ASCII);

    /** The fields of the last usable {@code #Fields:}; null before one. */
    private Field[] fields;
    /** The index of each field kind in {@link #fields}, or -1. */
    private final int[] index = new int[Field.values().length];
    private int[] starts = new int[0];
    private int[] ends = new int[0];
    /** Why the last {@code #Fields:} cannot be used, or null. */
    private String unusable;
    private boolean cloudFront;
    private boolean iis;
    /** The date of the last {@code #Date:} directive, for logs whose fields have a time but no date. */
    private final byte[] directiveDate = new byte[10];
    private boolean hasDirectiveDate;
    private byte[] agent = new byte[256];

    @Override
    public LineParser copy() {
        return new W3cLineParser();
    }

    @Override
    public boolean sequential() {
        return true;
    }

    @Override
    public Hit parse(byte[] b, int from, int to, AgentFilter filter) throws BadLineException {
        if (from < to && b[from] == '#') {
            directive(b, from, to);
            return null;
        }
        if (fields == null) {
            throw new BadLineException("no #Fields", unusable != null
                    ? "the fields of this line are unknown: " + unusable
                    : "a line before any #Fields directive, so its fields are unknown; is this a W3C log? got '" + LogText.excerpt(b, from, to) + "'");
        }
        split(b, from, to);

        long epochMillis;
        int time = index[Field.TIME.ordinal()];
        int date = index[Field.DATE.ordinal()];
        if (date >= 0) {
            epochMillis = LogTime.w3c(b, starts[date], ends[date], starts[time], ends[time]);
        } else {
            epochMillis = hasDirectiveDate ? LogTime.w3c(directiveDate, 0, directiveDate.length, b, starts[time], ends[time]) : LogTime.INVALID;
        }
        if (epochMillis == LogTime.INVALID) {
            int first = date >= 0 ? starts[date] : starts[time];
            throw new BadLineException("bad time", "'" + LogText.excerpt(b, first, ends[time]) + "' is not a W3C "
                    + (date >= 0 ? "date and time (date time); expected yyyy-MM-dd HH:mm:ss" : "time (time); expected HH:mm:ss") + " in UTC");
        }
        int s = index[Field.STATUS.ordinal()];
        if (ends[s] - starts[s] != 3 || !digits(b, starts[s], ends[s])) {
            throw new BadLineException("bad status", "'" + LogText.excerpt(b, starts[s], ends[s]) + "' is not a sc-status; expected a three-digit status");
        }
        int status = (b[starts[s]] - '0') * 100 + (b[starts[s] + 1] - '0') * 10 + (b[starts[s] + 2] - '0');
        int c = index[Field.CLIENT.ordinal()];
        if (!ClientAddress.looksLikeAddress(b, starts[c], ends[c])) {
            throw new BadLineException("no client address", "'" + LogText.excerpt(b, starts[c], ends[c]) + "' is not a c-ip; expected an IPv4 or IPv6 address");
        }
        long bytes = -1;
        int bytesAt = index[Field.BYTES.ordinal()];
        if (bytesAt >= 0 && !LogText.isDash(b, starts[bytesAt], ends[bytesAt])) {
            if (ends[bytesAt] == starts[bytesAt] || ends[bytesAt] - starts[bytesAt] > 18 || !digits(b, starts[bytesAt], ends[bytesAt])) {
                throw new BadLineException("bad size", "'" + LogText.excerpt(b, starts[bytesAt], ends[bytesAt]) + "' is not a sc-bytes; expected a size in bytes");
            }
            bytes = 0;
            for (int i = starts[bytesAt]; i < ends[bytesAt]; i++) {
                bytes = bytes * 10 + (b[i] - '0');
            }
        }
        double durationMs = timeTaken(b);

        int agentAt = index[Field.AGENT.ordinal()];
        int agentLength = 0;
        if (agentAt >= 0 && !LogText.isDash(b, starts[agentAt], ends[agentAt])) {
            if (agent.length < ends[agentAt] - starts[agentAt]) {
                agent = new byte[ends[agentAt] - starts[agentAt]];
            }
            agentLength = LogText.w3cDecode(b, starts[agentAt], ends[agentAt], !cloudFront, agent);
        }
        // a signed line is an agent's whatever its user agent says (ChatGPT agent sends Chrome's)
        if (!filter.mayBeCrawler(agent, 0, agentLength) && !present(b, Field.SIGNATURE_INPUT) && !present(b, Field.SIGNATURE_AGENT)) {
            return null;
        }

        // only now check that the client is an address, not a host name (CombinedLineParser#checkAddress says why), and build strings
        if (!AddressText.isIpv4(b, starts[c], ends[c]) && !AddressText.isIpv6(b, starts[c], ends[c])) {
            throw new BadLineException("no client address", "'" + LogText.excerpt(b, starts[c], ends[c]) + "' is not a c-ip; expected an IPv4 or IPv6 address");
        }
        String ip = new String(b, starts[c], ends[c] - starts[c], StandardCharsets.US_ASCII);
        String forwardedFor = fieldText(b, Field.FORWARDED);
        forwardedFor = forwardedFor != null ? forwardedFor.replace("%2C", ",").replace("%20", " ").replace('+', ' ')
                : fieldText(b, Field.CONNECTING);
        int m = index[Field.METHOD.ordinal()];
        String method = m < 0 ? "" : LogText.text(b, starts[m], ends[m]);
        String url;
        int uri = index[Field.URI.ordinal()];
        if (uri >= 0) {
            url = LogText.text(b, starts[uri], ends[uri]);
        } else {
            int stem = index[Field.STEM.ordinal()];
            int query = index[Field.QUERY.ordinal()];
            url = LogText.text(b, starts[stem], ends[stem]);
            if (query >= 0 && ends[query] > starts[query] && !LogText.isDash(b, starts[query], ends[query])) {
                url += "?" + LogText.text(b, starts[query], ends[query]);
            }
        }
        String agentText = agentLength == 0 ? null : new String(agent, 0, agentLength, StandardCharsets.UTF_8);
        int referer = index[Field.REFERER.ordinal()];
        int host = index[Field.HOST_HEADER.ordinal()] >= 0 ? index[Field.HOST_HEADER.ordinal()] : index[Field.HOST.ordinal()];
        String hostText = host < 0 ? null : LogText.dashIsNull(b, starts[host], ends[host]);
        return new Hit(epochMillis, 0, ip, method, url, status, bytes,
                referer < 0 ? null : LogText.dashIsNull(b, starts[referer], ends[referer]), agentText, durationMs,
                hostText, forwardedFor, cloudFront ? toHttps(b, status, hostText, url) : null,
                SignatureFields.of(signatureText(b, Field.SIGNATURE), signatureText(b, Field.SIGNATURE_INPUT),
                        signatureText(b, Field.SIGNATURE_AGENT)));
    }

    /**
     * Where CloudFront's own redirect sent the request, which its log says without a Location: an
     * {@code x-edge-result-type} of {@code Redirect} is the distribution's viewer protocol policy
     * sending an {@code http} request ({@code cs-protocol}) to {@code https} on the same host and
     * address. Null for any other line: an origin's redirects are {@code Hit} or {@code Miss}, and
     * their targets are not in the log.
     */
    private String toHttps(byte[] b, int status, String host, String url) {
        if (host == null || status < 300 || status > 399 || !"Redirect".equals(fieldText(b, Field.RESULT_TYPE))
                || !"http".equals(fieldText(b, Field.PROTOCOL))) {
            return null;
        }
        return "https://" + host + url;
    }

    /** Whether this line has a value for {@code field}. */
    private boolean present(byte[] b, Field field) {
        int at = index[field.ordinal()];
        return at >= 0 && ends[at] > starts[at] && !LogText.isDash(b, starts[at], ends[at]);
    }

    /**
     * A Web Bot Auth field as the header was: CloudFront URL-encodes it; IIS writes a space as
     * {@code +}, and a structured field has spaces only outside its strings and byte sequences,
     * where a {@code +} of its own never stands (a signature's base64 and a nonce keep theirs).
     */
    private String signatureText(byte[] b, Field field) {
        if (!present(b, field)) {
            return null;
        }
        int at = index[field.ordinal()];
        byte[] out = new byte[ends[at] - starts[at]];
        if (cloudFront) {
            int n = LogText.w3cDecode(b, starts[at], ends[at], false, out);
            return new String(out, 0, n, StandardCharsets.UTF_8);
        }
        boolean inString = false;
        boolean inBytes = false;
        for (int i = starts[at]; i < ends[at]; i++) {
            byte c = b[i];
            if (c == '"' && !inBytes && (i == starts[at] || b[i - 1] != '\\')) {
                inString = !inString;
            } else if (c == ':' && !inString) {
                inBytes = !inBytes;
            }
            out[i - starts[at]] = c == '+' && !inString && !inBytes ? (byte) ' ' : c;
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    /** The text of a field of this line, or null when the format has no such field or the line writes '-'. */
    private String fieldText(byte[] b, Field field) {
        int at = index[field.ordinal()];
        return at < 0 || ends[at] <= starts[at] || LogText.isDash(b, starts[at], ends[at]) ? null : LogText.text(b, starts[at], ends[at]);
    }

    /** Splits a data line into exactly as many fields as {@code #Fields:} named. */
    private void split(byte[] b, int from, int to) throws BadLineException {
        int p = from;
        int n = fields.length;
        for (int i = 0; i < n; i++) {
            if (p > to) {
                throw new BadLineException("wrong field count", "the line has " + i + " fields; the #Fields directive names " + n);
            }
            int end = ByteSearch.indexOfEither(b, p, to, (byte) ' ', (byte) '\t');
            if (end < 0) {
                end = to;
            }
            starts[i] = p;
            ends[i] = end;
            p = end + 1;
        }
        if (p < to) {
            int extra = 1;
            for (int i = p; i < to; i++) {
                if (b[i] == ' ' || b[i] == '\t') {
                    extra++;
                }
            }
            throw new BadLineException("wrong field count", "the line has " + (n + extra) + " fields; the #Fields directive names " + n);
        }
    }

    /** {@code time-taken} in milliseconds: IIS writes milliseconds; CloudFront, and any value with a point, seconds. */
    private double timeTaken(byte[] b) throws BadLineException {
        int t = index[Field.TIME_TAKEN.ordinal()];
        if (t < 0 || LogText.isDash(b, starts[t], ends[t])) {
            return Double.NaN;
        }
        boolean seconds = cloudFront || ByteSearch.indexOf(b, starts[t], ends[t], (byte) '.') >= 0;
        double millis = seconds ? LogTime.decimal(b, starts[t], ends[t], 1000.0) : LogTime.decimal(b, starts[t], ends[t]);
        if (Double.isNaN(millis)) {
            throw new BadLineException("bad duration", "'" + LogText.excerpt(b, starts[t], ends[t]) + "' is not a time-taken; expected "
                    + (seconds ? "seconds such as 0.012" : "milliseconds"));
        }
        return millis;
    }

    private void directive(byte[] b, int from, int to) throws BadLineException {
        if (startsWith(b, from, to, SOFTWARE)) {
            iis |= new String(b, from, to - from, StandardCharsets.UTF_8).contains("Internet Information Services");
        } else if (startsWith(b, from, to, DATE)) {
            int p = from + DATE.length;
            while (p < to && b[p] == ' ') {
                p++;
            }
            hasDirectiveDate = to - p >= directiveDate.length;
            if (hasDirectiveDate) {
                System.arraycopy(b, p, directiveDate, 0, directiveDate.length);
            }
        } else if (startsWith(b, from, to, FIELDS)) {
            fields(new String(b, from + FIELDS.length, to - from - FIELDS.length, StandardCharsets.UTF_8));
        }
    }

    /** Takes a {@code #Fields:} directive; one the report cannot use is a bad line, and so are the data lines after it. */
    private void fields(String directive) throws BadLineException {
        List<Field> list = new ArrayList<>();
        boolean edge = false;
        int i = 0;
        while (i < directive.length()) {
            int end = i;
            while (end < directive.length() && directive.charAt(end) != ' ' && directive.charAt(end) != '\t') {
                end++;
            }
            if (end > i) {
                String name = directive.substring(i, end).toLowerCase(Locale.ROOT);
                edge |= name.startsWith("x-edge-");
                list.add(field(name));
            }
            i = end + 1;
        }
        Field[] named = list.toArray(new Field[0]);
        Arrays.fill(index, -1);
        for (int k = named.length - 1; k >= 0; k--) {
            index[named[k].ordinal()] = k;
        }
        List<String> missing = new ArrayList<>();
        if (index[Field.TIME.ordinal()] < 0 || (index[Field.DATE.ordinal()] < 0 && !hasDirectiveDate)) {
            missing.add(index[Field.TIME.ordinal()] < 0 ? "time" : "date");
        }
        if (index[Field.STATUS.ordinal()] < 0) {
            missing.add("sc-status");
        }
        if (index[Field.STEM.ordinal()] < 0 && index[Field.URI.ordinal()] < 0) {
            missing.add("cs-uri-stem");
        }
        if (index[Field.CLIENT.ordinal()] < 0) {
            missing.add("c-ip");
        }
        if (!missing.isEmpty()) {
            fields = null;
            unusable = "the #Fields directive has no " + String.join(", ", missing) + ", which the report needs";
            throw new BadLineException("unusable #Fields", unusable);
        }
        fields = named;
        unusable = null;
        cloudFront = edge;
        starts = new int[named.length];
        ends = new int[named.length];
    }

    private static Field field(String name) {
        return switch (name) {
            case "date" -> Field.DATE;
            case "time" -> Field.TIME;
            case "c-ip" -> Field.CLIENT;
            case "cs-method" -> Field.METHOD;
            case "cs-uri-stem" -> Field.STEM;
            case "cs-uri-query" -> Field.QUERY;
            case "cs-uri" -> Field.URI;
            case "sc-status" -> Field.STATUS;
            case "sc-bytes" -> Field.BYTES;
            case "cs(user-agent)" -> Field.AGENT;
            case "cs(referer)", "cs(referrer)" -> Field.REFERER;
            case "time-taken" -> Field.TIME_TAKEN;
            case "cs-host", "cs(host)" -> Field.HOST;
            case "x-host-header" -> Field.HOST_HEADER;
            case "x-edge-result-type" -> Field.RESULT_TYPE;
            case "cs-protocol" -> Field.PROTOCOL;
            case "x-forwarded-for", "cs(x-forwarded-for)" -> Field.FORWARDED;
            case "cs(cf-connecting-ip)", "cs(true-client-ip)" -> Field.CONNECTING;
            // IIS logs a request header as a custom field under the name it is given; CloudFront has none of these
            case "cs(signature)", "signature" -> Field.SIGNATURE;
            case "cs(signature-input)", "signature-input" -> Field.SIGNATURE_INPUT;
            case "cs(signature-agent)", "signature-agent" -> Field.SIGNATURE_AGENT;
            default -> Field.SKIP;
        };
    }

    /** What this parser has read so far, for the auto-detection notice. */
    @Override
    public String describe() {
        return cloudFront ? "W3C extended (Amazon CloudFront)" : iis ? "W3C extended (IIS)" : "W3C extended";
    }

    private static boolean startsWith(byte[] b, int from, int to, byte[] lowerPrefix) {
        if (to - from < lowerPrefix.length) {
            return false;
        }
        for (int i = 0; i < lowerPrefix.length; i++) {
            byte c = b[from + i];
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            if (c != lowerPrefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean digits(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] < '0' || b[i] > '9') {
                return false;
            }
        }
        return true;
    }
}
