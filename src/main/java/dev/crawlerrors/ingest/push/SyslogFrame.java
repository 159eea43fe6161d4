package dev.crawlerrors.ingest.push;

import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.format.ByteSearch;
import dev.crawlerrors.ingest.format.LogText;

/**
 * Finds the message of one syslog frame: the access-log line behind the header that nginx's
 * {@code access_log syslog:server=...} (and any other sender) puts in front of it.
 *
 * <p>Accepted headers:
 * <ul>
 *   <li>RFC 3164, as nginx writes it: {@code <190>Nov  2 01:02:03 host nginx: MSG}, with the host
 *       left out ({@code nohostname}), an RFC 3339 time instead of the BSD one (rsyslog), or no tag;
 *   <li>RFC 5424: {@code <165>1 2026-11-22T01:02:03Z host app procid msgid SD MSG}, where each
 *       header field may be {@code -}, SD is {@code -} or {@code [id k="v" ...]} elements (whose
 *       values may hold escaped quotes and brackets), and MSG may start with a UTF-8 byte-order mark, or
 *       with the space rsyslog keeps from an RFC 3164 message it forwards.
 * </ul>
 * A trailing CR, LF or NUL (some senders end each datagram with one) is not part of the message.
 * Anything else is a malformed frame: a {@link BadLineException} that says what was expected.
 *
 * <p>Design: byte scanning, no regular expressions and no strings, as for log lines: a burst of
 * datagrams costs little more than the lines in them. The header is not validated beyond what
 * is needed to find the message, since only the message is kept.
 */
public final class SyslogFrame {

    /** The reason malformed frames are counted under. */
    public static final String REASON = "not syslog";
    /** The highest priority there is: facility 23 (local7) times 8 plus severity 7 (debug). */
    private static final int MAX_PRIORITY = 191;
    /** The BSD time {@code Mmm dd hh:mm:ss}, with the day padded by a space. */
    private static final int BSD_TIME_LENGTH = 15;
    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    private SyslogFrame() {
    }

    /**
     * The end of the frame {@code b[from, to)} without its trailing line terminators.
     */
    public static int end(byte[] b, int from, int to) {
        while (to > from && (b[to - 1] == '\n' || b[to - 1] == '\r' || b[to - 1] == 0)) {
            to--;
        }
        return to;
    }

    /**
     * Where the message of the frame {@code b[from, to)} starts (its end is {@link #end}).
     *
     * @throws BadLineException when the frame has no syslog header or no message
     */
    public static int messageStart(byte[] b, int from, int to) throws BadLineException {
        to = end(b, from, to);
        if (from >= to || b[from] != '<') {
            throw malformed("it does not start with <PRI>", b, from, to);
        }
        int p = from + 1;
        int priority = 0;
        while (p < to && p - from <= 4 && isDigit(b[p])) {
            priority = priority * 10 + (b[p] - '0');
            p++;
        }
        if (p == from + 1 || p >= to || b[p] != '>' || p - from > 4 || priority > MAX_PRIORITY) {
            throw malformed("its priority is not <0> to <" + MAX_PRIORITY + ">", b, from, to);
        }
        p++;
        int start = isRfc5424(b, p, to) ? rfc5424Message(b, p, to) : rfc3164Message(b, p, to);
        if (start >= to) {
            throw malformed("it has no message", b, from, to);
        }
        return start;
    }

    /** RFC 5424 puts a version (1, or up to three digits) and a space right after the priority. */
    private static boolean isRfc5424(byte[] b, int p, int to) {
        int digits = 0;
        while (p < to && isDigit(b[p]) && digits < 3) {
            p++;
            digits++;
        }
        return digits > 0 && p < to && b[p] == ' ';
    }

    private static int rfc5424Message(byte[] b, int p, int to) throws BadLineException {
        p = ByteSearch.indexOf(b, p, to, (byte) ' ') + 1; // the version
        for (String field : new String[] {"time", "host name", "app name", "process id", "message id"}) {
            int space = ByteSearch.indexOf(b, p, to, (byte) ' ');
            if (space < 0) {
                throw malformed("its RFC 5424 header ends before the " + field, b, p, to);
            }
            p = space + 1;
        }
        p = structuredDataEnd(b, p, to);
        if (p < to && b[p] == ' ') {
            p++;
        } else if (p < to) {
            throw malformed("no space after its RFC 5424 structured data", b, p, to);
        }
        // rsyslog keeps the space that followed an RFC 3164 tag as the message's first byte (its pmrfc3164
        // remove.msgFirstSpace is off by default), so nginx's lines it forwards in RFC 5424 (RSYSLOG_SyslogProtocol23Format)
        // come with two spaces after the structured data; no access-log line starts with a space
        if (p < to && b[p] == ' ') {
            p++;
        }
        if (to - p >= BOM.length && b[p] == BOM[0] && b[p + 1] == BOM[1] && b[p + 2] == BOM[2]) {
            p += BOM.length;
        }
        return p;
    }

    /** The end of RFC 5424 structured data at {@code p}: {@code -}, or {@code [...]} elements one after another. */
    private static int structuredDataEnd(byte[] b, int p, int to) throws BadLineException {
        if (p < to && b[p] == '-') {
            return p + 1;
        }
        if (p >= to || b[p] != '[') {
            throw malformed("its RFC 5424 structured data is neither - nor [...]", b, p, to);
        }
        while (p < to && b[p] == '[') {
            boolean quoted = false;
            p++;
            while (p < to && (quoted || b[p] != ']')) {
                if (quoted && b[p] == '\\') {
                    p++; // an escaped ", ] or \ inside a value
                } else if (b[p] == '"') {
                    quoted = !quoted;
                }
                p++;
            }
            if (p >= to) {
                throw malformed("its RFC 5424 structured data has no closing ]", b, p, to);
            }
            p++;
        }
        return p;
    }

    private static int rfc3164Message(byte[] b, int p, int to) {
        int afterTime = timeEnd(b, p, to);
        int first = afterTime < 0 ? p : afterTime;
        int firstEnd = tokenEnd(b, first, to);
        if (isTag(b, first, firstEnd)) {
            return firstEnd + 1; // no host name (nginx's nohostname), then the tag
        }
        if (afterTime < 0) {
            return p; // no header past the priority: all of it is the message
        }
        int second = firstEnd + 1;
        int secondEnd = tokenEnd(b, second, to);
        return isTag(b, second, secondEnd) ? secondEnd + 1 : second; // the host, then the tag (or no tag)
    }

    /** The index after the time and its space, or -1 when {@code p} holds no time. */
    private static int timeEnd(byte[] b, int p, int to) {
        if (to - p > BSD_TIME_LENGTH && isLetter(b[p]) && b[p + 3] == ' ' && b[p + 6] == ' ' && b[p + 9] == ':'
                && b[p + 12] == ':' && b[p + BSD_TIME_LENGTH] == ' ') {
            return p + BSD_TIME_LENGTH + 1;
        }
        if (to - p > 10 && isDigit(b[p]) && b[p + 4] == '-' && b[p + 7] == '-') {
            int space = ByteSearch.indexOf(b, p, to, (byte) ' ');
            return space < 0 ? -1 : space + 1; // RFC 3339, as rsyslog sends with its RFC 3164 templates
        }
        return -1;
    }

    private static int tokenEnd(byte[] b, int p, int to) {
        int space = p < to ? ByteSearch.indexOf(b, p, to, (byte) ' ') : -1;
        return space < 0 ? to : space;
    }

    /** A tag ends the header with a colon: {@code nginx:} or {@code nginx[123]:}. */
    private static boolean isTag(byte[] b, int from, int to) {
        return to - from >= 2 && b[to - 1] == ':';
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isLetter(byte c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    }

    private static BadLineException malformed(String why, byte[] b, int from, int to) {
        return new BadLineException(REASON, "not a syslog frame: " + why + " ('" + LogText.excerpt(b, Math.min(from, to), to)
                + "'); expected <PRI>Mmm dd hh:mm:ss host tag: MESSAGE (RFC 3164) or <PRI>1 TIME HOST APP PROCID MSGID SD MESSAGE (RFC 5424)");
    }
}
