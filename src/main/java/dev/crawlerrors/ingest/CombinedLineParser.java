package dev.crawlerrors.ingest;

import java.nio.charset.StandardCharsets;

/**
 * Parses the nginx/Apache {@code combined} format, with an optional trailing request time:
 *
 * <pre>
 * 66.249.66.1 - - [14/May/2025:09:31:02 +0200] "GET /antwerp/meir HTTP/1.1" 308 0 "-" "Mozilla/5.0 (compatible; Googlebot/2.1)" 0.012
 * </pre>
 *
 * A trailing number with a decimal point is nginx {@code $request_time} in seconds; an integer is
 * Apache {@code %D} in microseconds; both become milliseconds. Any other trailing fields (such as a
 * quoted {@code $http_x_forwarded_for}) are ignored rather than failing the line.
 *
 * <p>Design: the line is walked once, left to right, recording field boundaries as offsets; no
 * string is built and no regular expression runs until the {@link AgentFilter} has kept the agent.
 * Quoted fields honour the backslash escapes both servers write ({@code \"}, {@code \\},
 * {@code \xHH}); values are unescaped only when they contain a backslash.
 */
public final class CombinedLineParser implements LineParser {

    /** The bracketed time is always 26 bytes: {@code dd/MMM/yyyy:HH:mm:ss +hhmm}. */
    private static final int TIME_LENGTH = 26;

    private static final long MILLIS_PER_DAY = 86_400_000L;

    @Override
    public LineParser copy() {
        return new CombinedLineParser();
    }

    @Override
    public Hit parse(byte[] b, int from, int to, AgentFilter filter) throws BadLineException {
        // client address: the first space-delimited token
        int ipEnd = indexOf(b, from, to, (byte) ' ');
        if (ipEnd <= from) {
            throw new BadLineException("no client address", "expected a client address, then a space; got '" + excerpt(b, from, to) + "'");
        }
        checkAddress(b, from, ipEnd);

        // identity and user: anything up to the bracketed time
        int open = indexOf(b, ipEnd, to, (byte) '[');
        if (open < 0) {
            throw new BadLineException("no time", "no [time] field; is this a combined log? got '" + excerpt(b, from, to) + "'");
        }
        int close = open + 1 + TIME_LENGTH;
        if (close >= to || b[close] != ']') {
            int end = indexOf(b, open, to, (byte) ']');
            throw badTime(b, open + 1, end < 0 ? Math.min(to, open + 1 + TIME_LENGTH) : end);
        }
        long epochMillis = parseTime(b, open + 1);
        int offsetMinutes = offsetMinutes(b, open + 1);

        // "request"
        int p = close + 1;
        if (p + 1 >= to || b[p] != ' ' || b[p + 1] != '"') {
            throw new BadLineException("no request", "expected a quoted request line after the time; got '" + excerpt(b, close + 1, to) + "'");
        }
        int requestStart = p + 2;
        int requestEnd = closingQuote(b, requestStart, to);
        if (requestEnd < 0) {
            throw new BadLineException("truncated", "the request line has no closing quote; the line looks truncated");
        }

        // status
        p = requestEnd + 1;
        if (p + 4 > to || b[p] != ' ' || !isDigit(b[p + 1]) || !isDigit(b[p + 2]) || !isDigit(b[p + 3])
                || (p + 4 < to && b[p + 4] != ' ')) {
            throw new BadLineException("bad status", "expected a three-digit status after the request; got '" + excerpt(b, p, to) + "'");
        }
        int status = (b[p + 1] - '0') * 100 + (b[p + 2] - '0') * 10 + (b[p + 3] - '0');

        // bytes: digits or '-'
        p += 5;
        int bytesEnd = indexOf(b, p, to, (byte) ' ');
        if (bytesEnd < 0) {
            throw new BadLineException("not combined", "the line ends after the response size; expected \"referer\" \"user-agent\" (combined, not common format)");
        }
        long bytes = parseBytes(b, p, bytesEnd);

        // "referer" "user-agent"
        p = bytesEnd + 1;
        if (p >= to || b[p] != '"') {
            throw new BadLineException("not combined", "expected a quoted referer after the response size; got '" + excerpt(b, p, to) + "'");
        }
        int refererStart = p + 1;
        int refererEnd = closingQuote(b, refererStart, to);
        if (refererEnd < 0 || refererEnd + 2 >= to || b[refererEnd + 1] != ' ' || b[refererEnd + 2] != '"') {
            throw new BadLineException("not combined", "expected \"referer\" \"user-agent\" after the response size; the line looks truncated");
        }
        int agentStart = refererEnd + 3;
        int agentEnd = closingQuote(b, agentStart, to);
        if (agentEnd < 0) {
            throw new BadLineException("truncated", "the user agent has no closing quote; the line looks truncated");
        }

        // optional request time; anything else trailing is ignored
        double durationMs = Double.NaN;
        p = agentEnd + 1;
        if (p < to && b[p] == ' ') {
            int start = p + 1;
            int end = indexOf(b, start, to, (byte) ' ');
            durationMs = parseDuration(b, start, end < 0 ? to : end);
        } else if (p < to) {
            throw new BadLineException("not combined", "unexpected text after the user agent: '" + excerpt(b, p, to) + "'");
        }

        if (!filter.mayBeCrawler(b, agentStart, agentEnd)) {
            return null;
        }

        // only now build strings
        String ip = new String(b, from, ipEnd - from, StandardCharsets.US_ASCII);
        int methodEnd = indexOf(b, requestStart, requestEnd, (byte) ' ');
        String method;
        String url;
        if (methodEnd < 0) {
            method = "";
            url = text(b, requestStart, requestEnd);
        } else {
            method = text(b, requestStart, methodEnd);
            int urlEnd = lastIndexOf(b, methodEnd + 1, requestEnd, (byte) ' ');
            url = text(b, methodEnd + 1, urlEnd <= methodEnd + 1 ? requestEnd : urlEnd);
        }
        String referer = dashIsNull(b, refererStart, refererEnd);
        String agent = dashIsNull(b, agentStart, agentEnd);
        return new Hit(epochMillis, offsetMinutes, ip, method, url, status, bytes, referer, agent, durationMs, null);
    }

    private static void checkAddress(byte[] b, int from, int to) throws BadLineException {
        for (int i = from; i < to; i++) {
            byte c = b[i];
            boolean ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                    || c == '.' || c == ':' || c == '-' || c == '_' || c == '%';
            if (!ok) {
                throw new BadLineException("no client address", "'" + excerpt(b, from, to) + "' is not a client address");
            }
        }
    }

    /** Epoch millis of {@code dd/MMM/yyyy:HH:mm:ss +hhmm} starting at {@code p}. */
    private static long parseTime(byte[] b, int p) throws BadLineException {
        int day = twoDigits(b, p);
        int month = month(b[p + 3], b[p + 4], b[p + 5]);
        int century = twoDigits(b, p + 7);
        int yearOfCentury = twoDigits(b, p + 9);
        int year = century < 0 || yearOfCentury < 0 ? -1 : century * 100 + yearOfCentury;
        int hour = twoDigits(b, p + 12);
        int minute = twoDigits(b, p + 15);
        int second = twoDigits(b, p + 18);
        byte sign = b[p + 21];
        int offHours = twoDigits(b, p + 22);
        int offMinutes = twoDigits(b, p + 24);
        if (day < 1 || month < 1 || year < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                || second < 0 || second > 60 || offHours < 0 || offHours > 18 || offMinutes < 0 || offMinutes > 59
                || (sign != '+' && sign != '-') || b[p + 2] != '/' || b[p + 6] != '/' || b[p + 11] != ':'
                || b[p + 14] != ':' || b[p + 17] != ':' || b[p + 20] != ' ' || day > daysInMonth(year, month)) {
            throw badTime(b, p, p + TIME_LENGTH);
        }
        long days = daysFromCivil(year, month, day);
        long local = days * MILLIS_PER_DAY + (hour * 3600L + minute * 60L + Math.min(second, 59)) * 1000L;
        long offset = (offHours * 60L + offMinutes) * 60_000L;
        return sign == '+' ? local - offset : local + offset;
    }

    private static int offsetMinutes(byte[] b, int p) {
        int minutes = twoDigits(b, p + 22) * 60 + twoDigits(b, p + 24);
        return b[p + 21] == '-' ? -minutes : minutes;
    }

    private static BadLineException badTime(byte[] b, int from, int to) {
        return new BadLineException("bad time",
                "'" + excerpt(b, from, to) + "' is not a combined-log time; expected dd/MMM/yyyy:HH:mm:ss Z");
    }

    /** Two ASCII digits as a number, or -1. */
    private static int twoDigits(byte[] b, int p) {
        int hi = b[p] - '0';
        int lo = b[p + 1] - '0';
        return (hi < 0 || hi > 9 || lo < 0 || lo > 9) ? -1 : hi * 10 + lo;
    }

    private static int month(byte a, byte b, byte c) {
        // case as both servers write it: Jan Feb ... Dec
        return switch ((a << 16) | (b << 8) | c) {
            case ('J' << 16) | ('a' << 8) | 'n' -> 1;
            case ('F' << 16) | ('e' << 8) | 'b' -> 2;
            case ('M' << 16) | ('a' << 8) | 'r' -> 3;
            case ('A' << 16) | ('p' << 8) | 'r' -> 4;
            case ('M' << 16) | ('a' << 8) | 'y' -> 5;
            case ('J' << 16) | ('u' << 8) | 'n' -> 6;
            case ('J' << 16) | ('u' << 8) | 'l' -> 7;
            case ('A' << 16) | ('u' << 8) | 'g' -> 8;
            case ('S' << 16) | ('e' << 8) | 'p' -> 9;
            case ('O' << 16) | ('c' << 8) | 't' -> 10;
            case ('N' << 16) | ('o' << 8) | 'v' -> 11;
            case ('D' << 16) | ('e' << 8) | 'c' -> 12;
            default -> -1;
        };
    }

    private static int daysInMonth(int year, int month) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
    static long daysFromCivil(int year, int month, int day) {
        int y = month <= 2 ? year - 1 : year;
        int era = Math.floorDiv(y, 400);
        int yoe = y - era * 400;
        int doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146_097L + doe - 719_468L;
    }

    private static long parseBytes(byte[] b, int from, int to) throws BadLineException {
        if (to - from == 1 && b[from] == '-') {
            return -1;
        }
        if (to == from || to - from > 18) {
            throw new BadLineException("bad size", "'" + excerpt(b, from, to) + "' is not a response size; expected digits or '-'");
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                throw new BadLineException("bad size", "'" + excerpt(b, from, to) + "' is not a response size; expected digits or '-'");
            }
            value = value * 10 + d;
        }
        return value;
    }

    /**
     * A trailing request time in milliseconds: seconds when it has a decimal point (nginx
     * {@code $request_time}), microseconds when it is an integer (Apache {@code %D}); NaN when the
     * token is not a number.
     */
    static double parseDuration(byte[] b, int from, int to) {
        if (from >= to || to - from > 18) {
            return Double.NaN;
        }
        long whole = 0;
        long fraction = 0;
        long scale = 1;
        boolean point = false;
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c == '.' && !point) {
                point = true;
            } else if (c >= '0' && c <= '9') {
                if (point) {
                    fraction = fraction * 10 + (c - '0');
                    scale *= 10;
                } else {
                    whole = whole * 10 + (c - '0');
                }
            } else {
                return Double.NaN;
            }
        }
        if (point) {
            return whole * 1000.0 + fraction * 1000.0 / scale;
        }
        return whole / 1000.0;
    }

    /** Index of the unescaped closing quote at or after {@code p}, or -1. */
    private static int closingQuote(byte[] b, int p, int to) {
        while (p < to) {
            int at = ByteSearch.indexOfEither(b, p, to, (byte) '"', (byte) '\\');
            if (at < 0 || b[at] == '"') {
                return at;
            }
            p = at + 2; // a backslash escapes the byte after it
        }
        return -1;
    }

    private static int indexOf(byte[] b, int from, int to, byte c) {
        return ByteSearch.indexOf(b, from, to, c);
    }

    private static int lastIndexOf(byte[] b, int from, int to, byte c) {
        for (int i = to - 1; i >= from; i--) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    private static String dashIsNull(byte[] b, int from, int to) {
        return (to - from == 1 && b[from] == '-') ? null : text(b, from, to);
    }

    /** The field as text, with the servers' backslash escapes undone. */
    static String text(byte[] b, int from, int to) {
        if (indexOf(b, from, to, (byte) '\\') < 0) {
            return new String(b, from, to - from, StandardCharsets.UTF_8);
        }
        byte[] out = new byte[to - from];
        int n = 0;
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c == '\\' && i + 1 < to) {
                byte next = b[i + 1];
                if (next == 'x' && i + 3 < to && hex(b[i + 2]) >= 0 && hex(b[i + 3]) >= 0) {
                    out[n++] = (byte) (hex(b[i + 2]) * 16 + hex(b[i + 3]));
                    i += 3;
                    continue;
                }
                if (next == '"' || next == '\\') {
                    out[n++] = next;
                    i++;
                    continue;
                }
            }
            out[n++] = c;
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }

    private static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** At most 60 bytes of the value, for messages; invalid UTF-8 becomes U+FFFD. */
    static String excerpt(byte[] b, int from, int to) {
        int end = Math.min(to, from + 60);
        String s = new String(b, from, Math.max(0, end - from), StandardCharsets.UTF_8);
        return end < to ? s + "..." : s;
    }
}
