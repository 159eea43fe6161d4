package dev.crawlerrors.ingest;

import java.nio.charset.StandardCharsets;

/**
 * Text fields of access-log lines as the servers write them: quoted fields with backslash
 * escapes (nginx {@code \xHH}, Apache {@code \"} and {@code \\}), {@code -} for "none", request
 * lines ({@code GET /path HTTP/1.1}), and excerpts of bad values for messages. Strings are built
 * only here, and only for lines the agent filter kept.
 */
final class LogText {

    /** How much of a bad value a message quotes. */
    private static final int EXCERPT_BYTES = 60;

    private LogText() {
    }

    /** Index of the unescaped closing quote at or after {@code p}, or -1. */
    static int closingQuote(byte[] b, int p, int to) {
        while (p < to) {
            int at = ByteSearch.indexOfEither(b, p, to, (byte) '"', (byte) '\\');
            if (at < 0 || b[at] == '"') {
                return at;
            }
            p = at + 2; // a backslash escapes the byte after it
        }
        return -1;
    }

    static int lastIndexOf(byte[] b, int from, int to, byte c) {
        for (int i = to - 1; i >= from; i--) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    static boolean isDash(byte[] b, int from, int to) {
        return to - from == 1 && b[from] == '-';
    }

    /** The field as text, or null when it is {@code -} or empty. */
    static String dashIsNull(byte[] b, int from, int to) {
        return (to <= from || isDash(b, from, to)) ? null : text(b, from, to);
    }

    /** The method of a request line such as {@code GET /path HTTP/1.1}; empty when it has none. */
    static String requestMethod(byte[] b, int from, int to) {
        int methodEnd = ByteSearch.indexOf(b, from, to, (byte) ' ');
        return methodEnd < 0 ? "" : text(b, from, methodEnd);
    }

    /** The target of a request line: between the method and the protocol, or all of it when it has no method. */
    static String requestUrl(byte[] b, int from, int to) {
        int methodEnd = ByteSearch.indexOf(b, from, to, (byte) ' ');
        if (methodEnd < 0) {
            return text(b, from, to);
        }
        int urlEnd = lastIndexOf(b, methodEnd + 1, to, (byte) ' ');
        return text(b, methodEnd + 1, urlEnd <= methodEnd + 1 ? to : urlEnd);
    }

    /** The field as text, with the servers' backslash escapes undone. */
    static String text(byte[] b, int from, int to) {
        if (ByteSearch.indexOf(b, from, to, (byte) '\\') < 0) {
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

    /**
     * Undoes W3C encodings of {@code b[from, to)} into {@code out} (which must have room for
     * {@code to - from} bytes) and returns the decoded length: {@code %HH} escapes (CloudFront), and
     * with {@code plusIsSpace}, IIS's {@code +} for a space. IIS does not escape a real {@code +},
     * so {@code ++} is read as a space and a plus: Googlebot's {@code ";++http://..."} is
     * {@code "; +http://..."}.
     */
    static int w3cDecode(byte[] b, int from, int to, boolean plusIsSpace, byte[] out) {
        int n = 0;
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c == '%' && i + 2 < to && hex(b[i + 1]) >= 0 && hex(b[i + 2]) >= 0) {
                out[n++] = (byte) (hex(b[i + 1]) * 16 + hex(b[i + 2]));
                i += 2;
            } else if (c == '+' && plusIsSpace) {
                boolean afterDecodedSpace = i > from && b[i - 1] == '+' && n > 0 && out[n - 1] == ' ';
                out[n++] = afterDecodedSpace ? (byte) '+' : (byte) ' ';
            } else {
                out[n++] = c;
            }
        }
        return n;
    }

    static int hex(byte c) {
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
        int end = Math.min(to, from + EXCERPT_BYTES);
        String s = new String(b, from, Math.max(0, end - from), StandardCharsets.UTF_8);
        return end < to ? s + "..." : s;
    }
}
