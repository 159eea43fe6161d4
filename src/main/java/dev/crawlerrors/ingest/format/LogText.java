package dev.crawlerrors.ingest.format;

import dev.crawlerrors.text.ShownText;
import java.nio.charset.StandardCharsets;

/**
 * Text fields of access-log lines as the servers write them: quoted fields with backslash
 * escapes (nginx {@code \xHH}, Apache {@code \"} and {@code \\}), {@code -} for "none", request
 * lines ({@code GET /path HTTP/1.1}), and excerpts of bad values for messages. Strings are built
 * only here, and only for lines the agent filter kept.
 */
public final class LogText {

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

    /**
     * A byte is a quote (0x22) or a newline (0x0A), or a {@code *} (0x2A) or 0x02, when it is 0x2A
     * with 0x28 set: one test per word finds both, where two were needed. The other two are
     * checked off by the byte itself (a {@code *} is rare in a quoted field, 0x02 rarer).
     */
    private static final long QUOTE_OR_NEWLINE_SET = 0x2828282828282828L;
    private static final long QUOTE_OR_NEWLINE_IS = 0x2A2A2A2A2A2A2A2AL;
    private static final long HIGHS = 0x8080808080808080L;

    /**
     * The unescaped closing quote at or after {@code p}, for a parser that reads a line straight
     * out of a chunk of log: its index, or -1 when a newline or {@code limit} comes first (the line
     * is truncated: a quoted field never runs on into the next line).
     */
    static int closingQuoteInLine(byte[] b, int p, int limit) {
        return (int) scanQuoted(b, p, limit, false);
    }

    /**
     * {@link #closingQuoteInLine} for the agent: the quote's index is the low half of the result
     * ({@code (int) result}); the high half is {@link AgentFilter#hash} of {@code b[p, quote)}.
     */
    static long closingQuoteInLineHashed(byte[] b, int p, int limit) {
        return scanQuoted(b, p, limit, true);
    }

    /**
     * The loop of {@link #closingQuoteInLine} and {@link #closingQuoteInLineHashed}; {@code hashing}
     * is a constant in each, so the compiler drops the hashing where it is not wanted.
     *
     * <p>Why one loop does three jobs: this is where the parser's time goes. It reads each word
     * once, looking for a quote or a newline at once, and folds the word into the hash as it goes
     * (the agent filter then need not read the agent again). Backslashes are not searched for:
     * escaped quotes are rare, so a quote found is checked by counting the backslashes just before
     * it (an odd run escapes it), which is what reading escapes left to right amounts to.
     */
    private static long scanQuoted(byte[] b, int p, int limit, boolean hashing) {
        long h = ByteSearch.HASH_SEED;
        int i = p;
        for (; i + Long.BYTES <= limit; i += Long.BYTES) {
            long word = ByteSearch.word(b, i);
            long found = quoteOrNewline(word);
            if (found != 0) {
                long end = endInWord(b, p, i, word, found, h, hashing);
                if (end != NO_CLOSING_QUOTE) {
                    return end;
                }
            }
            if (hashing) {
                h = ByteSearch.mixWord(h, word);
            }
        }
        long last = 0;
        for (int at = i; at < limit; at++) {
            byte c = b[at];
            if (c == '\n') {
                return -1;
            }
            if (c == '"' && !escaped(b, p, at)) {
                if (!hashing) {
                    return at;
                }
                if (at > i) {
                    h = ByteSearch.mixWord(h, last);
                }
                return quoteAndHash(at, ByteSearch.finish(h, at - p));
            }
            last |= (c & 0xFFL) << (8 * (at - i));
        }
        return -1;
    }

    /** What {@link #endInWord} returns when the word holds no closing quote (only escaped ones, a {@code *} or 0x02): the scan goes on. */
    private static final long NO_CLOSING_QUOTE = -2;

    /**
     * The end of the field in the word at {@code b[i]}, where {@code found} marks the bytes that may
     * be a quote or a newline: as {@link #scanQuoted} returns it, or {@link #NO_CLOSING_QUOTE}. Out
     * of the scan's loop so that the loop stays a plain counted one for the compiler.
     */
    private static long endInWord(byte[] b, int p, int i, long word, long found, long h, boolean hashing) {
        while (found != 0) {
            int j = Long.numberOfTrailingZeros(found) >>> 3;
            int at = i + j;
            byte c = b[at];
            if (c == '\n') {
                return -1;
            }
            if (c == '"' && !escaped(b, p, at)) {
                if (!hashing) {
                    return at;
                }
                if (j > 0) {
                    h = ByteSearch.mixWord(h, word & (-1L >>> (Long.SIZE - 8 * j)));
                }
                return quoteAndHash(at, ByteSearch.finish(h, at - p));
            }
            // an escaped quote, a '*' or 0x02: search on in this word, its bytes up to this one made
            // unmatchable (a set high bit is neither a quote nor a newline; only the lowest match is exact)
            long seen = HIGHS & (-1L >>> (Long.SIZE - 8 * (j + 1)));
            found = quoteOrNewline(word | seen);
        }
        return NO_CLOSING_QUOTE;
    }

    /** The bytes of {@code word} that may be a quote or a newline (see {@link #QUOTE_OR_NEWLINE_SET}), as {@link ByteSearch#zeroBytes} marks them. */
    private static long quoteOrNewline(long word) {
        return ByteSearch.zeroBytes((word | QUOTE_OR_NEWLINE_SET) ^ QUOTE_OR_NEWLINE_IS);
    }

    private static long quoteAndHash(int at, int hash) {
        return (long) hash << 32 | (at & 0xFFFFFFFFL);
    }

    /** Whether the quote at {@code at} is escaped: an odd number of backslashes just before it, counting from {@code p}. */
    private static boolean escaped(byte[] b, int p, int at) {
        int k = at - 1;
        while (k >= p && b[k] == '\\') {
            k--;
        }
        return ((at - 1 - k) & 1) != 0;
    }

    public static int lastIndexOf(byte[] b, int from, int to, byte c) {
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

    /**
     * The method of a request line such as {@code GET /path HTTP/1.1}; empty when it has none. The
     * methods crawlers send are one constant string each, not a new string a hit.
     */
    static String requestMethod(byte[] b, int from, int to) {
        int methodEnd = ByteSearch.indexOf(b, from, to, (byte) ' ');
        if (methodEnd < 0) {
            return "";
        }
        for (String method : CRAWLER_METHODS) {
            if (is(b, from, methodEnd, method)) {
                return method;
            }
        }
        return text(b, from, methodEnd);
    }

    private static final String[] CRAWLER_METHODS = {"GET", "HEAD", "POST"};

    /** Whether {@code b[from, to)} is the ASCII text {@code word}. */
    private static boolean is(byte[] b, int from, int to, String word) {
        if (to - from != word.length()) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (b[from + i] != word.charAt(i)) {
                return false;
            }
        }
        return true;
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
        int n = unescape(b, from, to, out, 0);
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }

    /**
     * {@link #text}'s unescaping of {@code b[from, to)}, written into {@code out} from {@code at} (which
     * must have room for {@code to - from} bytes): the end it wrote to, or -1 when a byte of the
     * result is not ASCII (its text is then UTF-8 to decode, which {@link #text} does).
     */
    static int unescapeAscii(byte[] b, int from, int to, byte[] out, int at) {
        int n = unescape(b, from, to, out, at);
        for (int i = at; i < n; i++) {
            if (out[i] < 0) {
                return -1;
            }
        }
        return n;
    }

    /** Writes {@code b[from, to)} into {@code out} from {@code at}, nginx's {@code \xHH}, {@code \"} and {@code \\} undone; returns the end. */
    private static int unescape(byte[] b, int from, int to, byte[] out, int at) {
        int n = at;
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
        return n;
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

    /**
     * At most 60 bytes of the value, for messages, made safe to show ({@link ShownText}: controls
     * and bytes that are not UTF-8 as {@code \xHH}). A value cut short ends with {@code ...}, cut
     * before a character the 60 bytes would split, not in it.
     */
    public static String excerpt(byte[] b, int from, int to) {
        int end = Math.min(to, from + EXCERPT_BYTES);
        for (int back = 0; end < to && end > from && back < 3 && (b[end] & 0xC0) == 0x80; back++) {
            end--; // b[end] continues a character: end before it starts (at most 3 back, the most UTF-8 continues one)
        }
        String s = ShownText.of(b, from, Math.max(from, end));
        return end < to ? s + "..." : s;
    }

    /**
     * {@link #excerpt(byte[], int, int)} of a value already decoded (a JSON log's field): at most as
     * many characters as an excerpt has bytes, so a hostile value of any length makes a short message.
     */
    static String excerpt(String value) {
        if (value.length() <= EXCERPT_BYTES) {
            return ShownText.of(value);
        }
        int end = Character.isHighSurrogate(value.charAt(EXCERPT_BYTES - 1)) ? EXCERPT_BYTES - 1 : EXCERPT_BYTES;
        return ShownText.of(value.substring(0, end)) + "...";
    }
}
