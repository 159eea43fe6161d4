package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import java.nio.charset.StandardCharsets;

/**
 * Parses the NCSA family that nginx and Apache write by default: {@code combined}, with an
 * optional trailing request time,
 *
 * <pre>
 * 66.249.66.1 - - [14/May/2025:09:31:02 +0200] "GET /antwerp/meir HTTP/1.1" 308 0 "-" "Mozilla/5.0 (compatible; Googlebot/2.1)" 0.012
 * </pre>
 *
 * and its variants: {@code common} (the line ends after the response size: no referer, no agent)
 * and either one with a virtual-host prefix ({@code %v:%p} or {@code $host}, as Apache's
 * {@code vhost_combined}: {@code www.example.org:443 66.249.66.1 - - [...] ...}).
 *
 * <p>A trailing number with a decimal point is nginx {@code $request_time} in seconds; an integer is
 * Apache {@code %D} in microseconds; a last field such as {@code 5ms} is Traefik's common-log
 * duration; all become milliseconds. Any other trailing fields (such as a quoted
 * {@code $http_x_forwarded_for}) are ignored rather than failing the line.
 *
 * <p>A {@code common} line has no agent, so it cannot be told to be a crawler: the filter is asked
 * about an empty agent (the crawler identifier drops it; {@link AgentFilter#ALL} keeps it as a hit
 * with a null agent). The line is still parsed and counted.
 *
 * <p>Design: the line is walked once, left to right, recording field boundaries as offsets; no
 * string is built and no regular expression runs until the {@link AgentFilter} has kept the agent.
 * Quoted fields honour the backslash escapes both servers write ({@code \"}, {@code \\},
 * {@code \xHH}); values are unescaped only when they contain a backslash. This hand-written walk
 * serves the four fixed formats; format strings ({@code nginx:...}, {@code apache:...}) go through
 * {@link FieldLineParser}, which the benchmark compares with this one.
 */
public final class CombinedLineParser implements LineFindingParser {

    private final boolean vhost;
    private final boolean common;

    /**
     * The time field of the last line whose time was read (this parser's thread only), as the words
     * at its offsets 0, 8, 16 and 18 (together its 26 bytes), and what it came to.
     */
    private long lastTime0;
    private long lastTime8;
    private long lastTime16;
    private long lastTime18;
    private long lastEpochMillis;
    private int lastOffsetMinutes;
    private boolean lastTimeKnown;

    /** Where the line last read by {@link #parseLine} ended (its newline, or the limit). */
    private int lineEnd;

    /** The strings of the agents and addresses of the hits made so far, made on the first hit. */
    private RecurringText agents;
    private RecurringText addresses;

    /** How the trailing request times of the lines parsed so far were written, for {@link #describe()}. */
    private long secondsTimes;
    private long microsecondTimes;
    private long millisecondTimes;

    /** The {@code combined} format. */
    public CombinedLineParser() {
        this(false, false);
    }

    private CombinedLineParser(boolean vhost, boolean common) {
        this.vhost = vhost;
        this.common = common;
    }

    public static CombinedLineParser combined() {
        return new CombinedLineParser(false, false);
    }

    public static CombinedLineParser combinedVhost() {
        return new CombinedLineParser(true, false);
    }

    public static CombinedLineParser common() {
        return new CombinedLineParser(false, true);
    }

    public static CombinedLineParser commonVhost() {
        return new CombinedLineParser(true, true);
    }

    /** Whether lines carry a user agent (combined) or not (common). */
    public boolean hasAgent() {
        return !common;
    }

    @Override
    public LineParser copy() {
        return new CombinedLineParser(vhost, common);
    }

    @Override
    public Hit parse(byte[] b, int from, int to, AgentFilter filter) throws BadLineException {
        return parseLine(b, from, to, filter);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Every search up to the agent's closing quote stops at a newline, or reads only bytes that
     * are checked afterwards and cannot be one (the address, the time, the status, the size); the
     * one search for the newline then starts after the agent, where a few bytes are left.
     */
    @Override
    public Hit parseLine(byte[] b, int from, int limit, AgentFilter filter) throws BadLineException {
        // until the line's end is found, fields are searched for up to the limit and stop at a newline
        int to = limit;

        // virtual host: host or host:port, then a space
        int hostFrom = -1;
        int hostTo = -1;
        if (vhost) {
            int hostEnd = indexOf(b, from, to, (byte) ' ');
            if (hostEnd <= from) {
                throw noVirtualHost(b, from, to);
            }
            hostFrom = from;
            hostTo = withoutPort(b, from, hostEnd);
            checkHost(b, from, hostEnd);
            from = hostEnd + 1;
        }

        // client address: the first space-delimited token
        int ipEnd = addressEnd(b, from, to);

        // identity and user: anything up to the bracketed time
        int open = ByteSearch.indexOfEither(b, ipEnd, to, (byte) '[', (byte) '\n');
        if (open < 0 || b[open] != '[') {
            throw noTime(b, from, to);
        }
        // with a virtual host, insist on the two fields (ident and user) there, else a line without one
        // would read as host = client address, client = ident
        if (vhost && (open < ipEnd + 4 || b[open - 1] != ' ' || indexOf(b, ipEnd + 1, open - 1, (byte) ' ') < 0)) {
            throw noIdentityAndUser(b, ipEnd + 1, open);
        }
        int close = open + 1 + LogTime.CLF_LENGTH;
        if (close >= to || b[close] != ']') {
            int end = indexOf(b, open, to, (byte) ']');
            throw badTime(b, open + 1, end < 0 ? Math.min(to, open + 1 + LogTime.CLF_LENGTH) : end);
        }
        long epochMillis = time(b, open + 1, close);
        int offsetMinutes = lastOffsetMinutes;

        // "request"
        int p = close + 1;
        if (p + 1 >= to || b[p] != ' ' || b[p + 1] != '"') {
            throw noRequest(b, close + 1, to);
        }
        int requestStart = p + 2;
        int requestEnd = LogText.closingQuoteInLine(b, requestStart, to);
        if (requestEnd < 0) {
            throw truncated("the request line");
        }

        // status
        p = requestEnd + 1;
        if (p + 4 > to || b[p] != ' ' || !isDigit(b[p + 1]) || !isDigit(b[p + 2]) || !isDigit(b[p + 3])
                || (p + 4 < to && b[p + 4] != ' ')) {
            throw badStatus(b, p, to);
        }
        int status = (b[p + 1] - '0') * 100 + (b[p + 2] - '0') * 10 + (b[p + 3] - '0');

        // bytes: digits or '-', then a space or the line's end
        p += 5;
        int bytesEnd = ByteSearch.indexOfEither(b, p, to, (byte) ' ', (byte) '\n');
        if (bytesEnd < 0 || b[bytesEnd] == '\n') {
            // the line ends after the response size, as common lines may
            to = endLine(b, bytesEnd, limit);
            if (!common) {
                throw endsAfterSize();
            }
            return commonTail(b, from, ipEnd, hostFrom, hostTo, requestStart, requestEnd, epochMillis, offsetMinutes,
                    status, p, to, to, filter);
        }
        if (common) {
            to = endLine(b, ByteSearch.indexOf(b, bytesEnd, limit, (byte) '\n'), limit);
            return commonTail(b, from, ipEnd, hostFrom, hostTo, requestStart, requestEnd, epochMillis, offsetMinutes,
                    status, p, bytesEnd, to, filter);
        }
        long bytes = parseBytes(b, p, bytesEnd);

        // "referer" "user-agent"
        p = bytesEnd + 1;
        if (p >= to || b[p] != '"') {
            throw noReferer(b, p, to);
        }
        int refererStart = p + 1;
        int refererEnd = LogText.closingQuoteInLine(b, refererStart, to);
        if (refererEnd < 0 || refererEnd + 2 >= to || b[refererEnd + 1] != ' ' || b[refererEnd + 2] != '"') {
            throw noAgent();
        }
        int agentStart = refererEnd + 3;
        long agentQuote = LogText.closingQuoteInLineHashed(b, agentStart, to);
        int agentEnd = (int) agentQuote;
        if (agentEnd < 0) {
            throw truncated("the user agent");
        }

        // the rest of the line: a few bytes of request time at most
        to = endLine(b, ByteSearch.indexOf(b, agentEnd + 1, limit, (byte) '\n'), limit);
        checkAfterField(b, agentEnd + 1, to, "the user agent");
        if (!filter.mayBeCrawler(b, agentStart, agentEnd, (int) (agentQuote >>> 32))) {
            return null;
        }
        return combinedHit(b, from, ipEnd, hostFrom, hostTo, requestStart, requestEnd, epochMillis, offsetMinutes, status, bytes,
                refererStart, refererEnd, agentStart, agentEnd, (int) (agentQuote >>> 32), to);
    }

    @Override
    public int lineEnd() {
        return lineEnd;
    }

    /**
     * Records where the line ended, the newline at {@code newline} or {@code limit} when there is
     * none, and returns the end of its text: before the newline, and before a carriage return
     * just before it ({@code \r\n} endings), as {@code LogReader} cuts lines.
     */
    private int endLine(byte[] b, int newline, int limit) {
        if (newline < 0) {
            lineEnd = limit;
            return limit;
        }
        lineEnd = newline;
        return b[newline - 1] == '\r' ? newline - 1 : newline;
    }

    /**
     * The hit of a combined line the filter kept: only now are strings built. Out of the parsing
     * method so that what the compiler makes of that one, run for every line, stays small.
     */
    private Hit combinedHit(byte[] b, int ipFrom, int ipEnd, int hostFrom, int hostTo, int requestStart, int requestEnd,
            long epochMillis, int offsetMinutes, int status, long bytes, int refererStart, int refererEnd, int agentStart,
            int agentEnd, int agentHash, int to) throws BadLineException {
        // the request time is read for kept lines only (a number that does not parse is no time, not a bad line)
        double durationMs = trailingDuration(b, agentEnd + 1, to, "the user agent");
        if (agents == null) {
            agents = new RecurringText(256);
            addresses = new RecurringText(2048);
        }
        checkAddress(b, ipFrom, ipEnd, to);
        if (b[ipFrom] == '[') {
            ipFrom++; // [IPv6]: the address without its brackets
            ipEnd--;
        }
        // address bytes are ASCII without escapes (addressEnd), as text reads them
        String ip = addresses.text(b, ipFrom, ipEnd, ByteSearch.hash(b, ipFrom, ipEnd));
        String method = LogText.requestMethod(b, requestStart, requestEnd);
        String url = LogText.requestUrl(b, requestStart, requestEnd);
        String referer = LogText.dashIsNull(b, refererStart, refererEnd);
        String agent = agentEnd <= agentStart || LogText.isDash(b, agentStart, agentEnd) ? null
                : agents.text(b, agentStart, agentEnd, agentHash);
        String host = hostFrom < 0 ? null : new String(b, hostFrom, hostTo - hostFrom, StandardCharsets.UTF_8);
        return new Hit(epochMillis, offsetMinutes, ip, method, url, status, bytes, referer, agent, durationMs, host);
    }

    /**
     * The time of the 26 bytes at {@code b[p]} (its offset is then {@link #lastOffsetMinutes}):
     * a busy log writes many lines a second, so it is most often the last time read again.
     *
     * <p>The bytes are read once, as the words at offsets 0, 8, 16 and 18, both to compare them
     * with the last time and to remember a new one: reading them a second time to remember them made
     * the compiled parser larger for nothing.
     */
    private long time(byte[] b, int p, int close) throws BadLineException {
        long time0 = ByteSearch.word(b, p);
        long time8 = ByteSearch.word(b, p + 8);
        long time16 = ByteSearch.word(b, p + 16);
        long time18 = ByteSearch.word(b, p + 18);
        // One branch, not four: the first word (the date) differs only when a day turns, and a branch
        // of its own for that, never taken before, made a log's first midnight recompile the parser.
        if (lastTimeKnown && ((time0 ^ lastTime0) | (time8 ^ lastTime8) | (time16 ^ lastTime16) | (time18 ^ lastTime18)) == 0) {
            return lastEpochMillis;
        }
        long epochMillis = LogTime.clf(b, p, close);
        if (epochMillis == LogTime.INVALID) {
            throw badTime(b, p, close);
        }
        lastTime0 = time0;
        lastTime8 = time8;
        lastTime16 = time16;
        lastTime18 = time18;
        lastEpochMillis = epochMillis;
        lastOffsetMinutes = LogTime.clfOffsetMinutes(b, p);
        lastTimeKnown = true;
        return epochMillis;
    }

    /** The rest of a common line, from its response size on: no referer, no agent. */
    private Hit commonTail(byte[] b, int ipFrom, int ipEnd, int hostFrom, int hostTo, int requestStart, int requestEnd,
            long epochMillis, int offsetMinutes, int status, int bytesFrom, int bytesEnd, int to, AgentFilter filter)
            throws BadLineException {
        long bytes = parseBytes(b, bytesFrom, bytesEnd);
        if (bytesEnd + 1 < to && b[bytesEnd + 1] == '"') {
            throw new BadLineException("not common", "a quoted field follows the response size: '" + LogText.excerpt(b, bytesEnd + 1, to)
                    + "'; this looks like combined format, not common");
        }
        double durationMs = trailingDuration(b, bytesEnd, to, "the response size");
        // no agent: the filter decides on an empty one, so a crawler-only filter drops the line
        if (!filter.mayBeCrawler(b, bytesEnd, bytesEnd)) {
            return null;
        }
        checkAddress(b, ipFrom, ipEnd, to);
        boolean bracketed = b[ipFrom] == '[';
        String ip = new String(b, bracketed ? ipFrom + 1 : ipFrom, ipEnd - ipFrom - (bracketed ? 2 : 0), StandardCharsets.US_ASCII);
        String host = hostFrom < 0 ? null : new String(b, hostFrom, hostTo - hostFrom, StandardCharsets.UTF_8);
        return new Hit(epochMillis, offsetMinutes, ip, LogText.requestMethod(b, requestStart, requestEnd),
                LogText.requestUrl(b, requestStart, requestEnd), status, bytes, null, null, durationMs, host);
    }

    // The bad-line exceptions are built in methods of their own, so their messages' string building
    // stays out of the code that runs for every line.

    private static BadLineException noVirtualHost(byte[] b, int from, int to) {
        return new BadLineException("no virtual host", "expected a virtual host (host or host:port), then a space; got '"
                + LogText.excerpt(b, from, to) + "'");
    }

    private static BadLineException noClientAddress(byte[] b, int from, int to) {
        return new BadLineException("no client address", "expected a client address, then a space; got '" + LogText.excerpt(b, from, to) + "'");
    }

    private BadLineException noTime(byte[] b, int from, int to) {
        return new BadLineException("no time", "no [time] field; is this a " + name() + " log? got '" + LogText.excerpt(b, from, to) + "'");
    }

    private static BadLineException noIdentityAndUser(byte[] b, int from, int to) {
        return new BadLineException("no identity and user", "expected identity and user (such as '- -') between the client address and the time; got '"
                + LogText.excerpt(b, from, to) + "'; is there a virtual host before the client address?");
    }

    private static BadLineException noRequest(byte[] b, int from, int to) {
        return new BadLineException("no request", "expected a quoted request line after the time; got '" + LogText.excerpt(b, from, to) + "'");
    }

    private static BadLineException truncated(String field) {
        return new BadLineException("truncated", field + " has no closing quote; the line looks truncated");
    }

    private static BadLineException badStatus(byte[] b, int from, int to) {
        return new BadLineException("bad status", "expected a three-digit status after the request; got '" + LogText.excerpt(b, from, to) + "'");
    }

    private static BadLineException endsAfterSize() {
        return new BadLineException("not combined", "the line ends after the response size; expected \"referer\" \"user-agent\" (combined, not common format)");
    }

    private static BadLineException noReferer(byte[] b, int from, int to) {
        return new BadLineException("not combined", "expected a quoted referer after the response size; got '" + LogText.excerpt(b, from, to) + "'");
    }

    private static BadLineException noAgent() {
        return new BadLineException("not combined", "expected \"referer\" \"user-agent\" after the response size; the line looks truncated");
    }

    /**
     * The request time among the fields after {@code b[p]} (which must be a space or the end):
     * Traefik's last field {@code 5ms}, or else the first field when it is a number; NaN when
     * there is none.
     */
    private double trailingDuration(byte[] b, int p, int to, String after) throws BadLineException {
        if (p >= to) {
            return Double.NaN;
        }
        checkAfterField(b, p, to, after);
        int start = p + 1;
        if (to - start > 2 && b[to - 1] == 's' && b[to - 2] == 'm') {
            int lastFrom = LogText.lastIndexOf(b, start, to, (byte) ' ') + 1;
            double millis = LogTime.decimal(b, Math.max(lastFrom, start), to - 2);
            if (!Double.isNaN(millis)) {
                millisecondTimes++;
                return millis;
            }
        }
        int end = indexOf(b, start, to, (byte) ' ');
        return parseDuration(b, start, end < 0 ? to : end);
    }

    /** What follows a quoted field, {@code b[p]}, must be a space or the end of the line. */
    private void checkAfterField(byte[] b, int p, int to, String after) throws BadLineException {
        if (p < to && b[p] != ' ') {
            throw new BadLineException("not " + name(), "unexpected text after " + after + ": '" + LogText.excerpt(b, p, to) + "'");
        }
    }

    /**
     * A trailing request time in milliseconds: seconds when it has a decimal point (nginx
     * {@code $request_time}), microseconds when it is an integer (Apache {@code %D}); NaN when the
     * token is not a number.
     */
    double parseDuration(byte[] b, int from, int to) {
        if (ByteSearch.indexOf(b, from, to, (byte) '.') >= 0) {
            double millis = LogTime.decimal(b, from, to, 1000.0);
            if (!Double.isNaN(millis)) {
                secondsTimes++;
            }
            return millis;
        }
        double micros = LogTime.decimal(b, from, to);
        if (!Double.isNaN(micros)) {
            microsecondTimes++;
        }
        return micros / 1000.0;
    }

    /**
     * What this parser has read so far, for the auto-detection notice: the format's name and how
     * its request times were written, e.g. {@code combined with request time in seconds (nginx $request_time)}.
     */
    @Override
    public String describe() {
        long most = Math.max(secondsTimes, Math.max(microsecondTimes, millisecondTimes));
        if (most == 0) {
            return name();
        }
        String unit = most == secondsTimes ? "in seconds (nginx $request_time)"
                : most == microsecondTimes ? "in microseconds (Apache %D)" : "in milliseconds (Traefik)";
        return name() + " with request time " + unit;
    }

    /** The format's name as users type it. */
    String name() {
        return (common ? "common" : "combined") + (vhost ? "-vhost" : "");
    }

    private static int withoutPort(byte[] b, int from, int to) {
        int colon = LogText.lastIndexOf(b, from, to, (byte) ':');
        if (colon <= from || colon + 1 >= to) {
            return to;
        }
        for (int i = colon + 1; i < to; i++) {
            if (!isDigit(b[i])) {
                return to;
            }
        }
        return colon;
    }

    private static void checkHost(byte[] b, int from, int to) throws BadLineException {
        for (int i = from; i < to; i++) {
            byte c = b[i];
            boolean ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                    || c == '.' || c == ':' || c == '-' || c == '_' || c == '[' || c == ']';
            if (!ok) {
                throw new BadLineException("no virtual host", "'" + LogText.excerpt(b, from, to) + "' is not a virtual host (host or host:port)");
            }
        }
    }

    /** The bytes an address field may hold (IPv4, IPv6 with a zone, in brackets or not), by unsigned value. */
    private static final boolean[] ADDRESS_BYTES = new boolean[256];

    static {
        for (int c = 0; c < 256; c++) {
            ADDRESS_BYTES[c] = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                    || c == '.' || c == ':' || c == '-' || c == '_' || c == '%' || c == '[' || c == ']';
        }
    }

    /**
     * The index of the space that ends the client address at {@code b[from]}. One walk, a table
     * load a byte (a chain of ranges was a tenth of the parser's time), both finds the space and
     * screens the address: a space is no address byte, so the walk stops at the first one. That it
     * is an address, not a host name, is checked where a hit is made ({@link #checkAddress}).
     */
    private static int addressEnd(byte[] b, int from, int to) throws BadLineException {
        int i = from;
        while (i < to && ADDRESS_BYTES[b[i] & 0xFF]) {
            i++;
        }
        if (i == from || i == to || b[i] != ' ') {
            throw badAddress(b, from, to);
        }
        return i;
    }

    /**
     * Throws when the client field {@code b[from, end)} of the line {@code b[from, to)} is not an
     * address ({@link AddressText#isAddress}): a host name there, such as a virtual host
     * {@code www.example.org:443}, makes the line bad, so a {@code vhost_combined} log is never read
     * as {@code combined} with the vhost for the client. Checked only where a hit is made, since a
     * line the agent filter drops is dropped whatever its address (and the check is a sixth of a
     * line's parse); detection and the per-file check keep every line, so they check every one.
     */
    private void checkAddress(byte[] b, int from, int end, int to) throws BadLineException {
        if (!AddressText.isAddress(b, from, end)) {
            throw badAddress(b, from, to);
        }
    }

    /**
     * Why the line has no client address: when an address follows, the field was most likely a
     * virtual host; else the line may be of another format altogether, and is shown.
     */
    private static BadLineException badAddress(byte[] b, int from, int to) {
        int ipEnd = ByteSearch.indexOfEither(b, from, to, (byte) ' ', (byte) '\n');
        if (ipEnd <= from || b[ipEnd] != ' ') {
            return noClientAddress(b, from, to);
        }
        int next = ByteSearch.indexOfEither(b, ipEnd + 1, to, (byte) ' ', (byte) '\n');
        boolean addressFollows = next > ipEnd + 1 && AddressText.isAddress(b, ipEnd + 1, next);
        return new BadLineException("no client address", "'" + LogText.excerpt(b, from, ipEnd)
                + "' is not a client address (an IPv4 or IPv6 address); " + (addressFollows
                        ? "a virtual host before the address is the combined-vhost format"
                        : "is this the log's format? got '" + LogText.excerpt(b, from, to) + "'"));
    }

    private BadLineException badTime(byte[] b, int from, int to) {
        return new BadLineException("bad time",
                "'" + LogText.excerpt(b, from, to) + "' is not a " + (common ? "common" : "combined") + "-log time; expected " + LogTime.CLF_PATTERN);
    }

    private static long parseBytes(byte[] b, int from, int to) throws BadLineException {
        if (to - from == 1 && b[from] == '-') {
            return -1;
        }
        if (to == from || to - from > 18) {
            throw new BadLineException("bad size", "'" + LogText.excerpt(b, from, to) + "' is not a response size; expected digits or '-'");
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                throw new BadLineException("bad size", "'" + LogText.excerpt(b, from, to) + "' is not a response size; expected digits or '-'");
            }
            value = value * 10 + d;
        }
        return value;
    }

    private static int indexOf(byte[] b, int from, int to, byte c) {
        return ByteSearch.indexOf(b, from, to, c);
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }
}
