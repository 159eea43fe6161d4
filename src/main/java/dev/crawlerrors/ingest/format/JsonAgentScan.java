package dev.crawlerrors.ingest.format;

import dev.crawlerrors.ingest.format.JsonLineParser.Key;
import dev.crawlerrors.ingest.format.JsonLineParser.Target;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Finds a JSON line's user agent without parsing the line: walks its strings (a quote, its closing
 * quote, skipping backslash escapes) to the first key that holds the agent, and decodes its value
 * into a reused buffer. Most lines are people's, and this byte walk costs far less than a parse.
 * One a parser: the buffer is its own.
 */
final class JsonAgentScan {

    /** The names (last path component) of keys that hold the user agent, for the byte search. */
    private final byte[][] agentNames;
    private byte[] agent = new byte[256];

    JsonAgentScan(Map<String, Key> keys) {
        List<byte[]> names = new ArrayList<>();
        keys.forEach((path, key) -> {
            if (key.target() == Target.AGENT) {
                names.add(path.substring(path.lastIndexOf('.') + 1).getBytes(StandardCharsets.UTF_8));
            }
        });
        this.agentNames = names.toArray(new byte[0][]);
    }

    /** The buffer the last {@link #find} decoded the agent into. */
    byte[] agent() {
        return agent;
    }

    /**
     * Finds the first key that holds the user agent by walking the line's strings, decodes its
     * string value into {@link #agent} and returns its length; -1 when no such key has a string value.
     */
    int find(byte[] b, int from, int to) {
        int p = from + 1;
        while (p < to) {
            int open = ByteSearch.indexOf(b, p, to, (byte) '"');
            if (open < 0) {
                return -1;
            }
            int close = LogText.closingQuote(b, open + 1, to);
            if (close < 0) {
                return -1;
            }
            int colon = skipSpaces(b, close + 1, to);
            if (colon >= to || b[colon] != ':') {
                p = close + 1; // a value, not a key
                continue;
            }
            if (isAgentName(b, open + 1, close)) {
                int v = skipSpaces(b, colon + 1, to);
                if (v < to && b[v] == '[') {
                    v = skipSpaces(b, v + 1, to);
                }
                if (v < to && b[v] == '"') {
                    int end = LogText.closingQuote(b, v + 1, to);
                    if (end >= 0) {
                        return decode(b, v + 1, end);
                    }
                }
                return -1;
            }
            p = colon + 1;
        }
        return -1;
    }

    private static final byte[] SIGNATURE_WORD = "ignature".getBytes(StandardCharsets.US_ASCII);

    /**
     * Whether the line may carry a Web Bot Auth field: it holds {@code ignature} (every key that
     * can name one does: {@code Signature-Agent}, {@code http_signature_input}). A line of a person's
     * agent is dropped without a parse unless it does.
     */
    static boolean mayBeSigned(byte[] b, int from, int to) {
        int last = to - SIGNATURE_WORD.length;
        for (int p = ByteSearch.indexOf(b, from + 1, to, (byte) 'g'); p >= 0 && p - 1 <= last; p = ByteSearch.indexOf(b, p + 1, to, (byte) 'g')) {
            if (Arrays.equals(b, p - 1, p - 1 + SIGNATURE_WORD.length, SIGNATURE_WORD, 0, SIGNATURE_WORD.length)) {
                return true;
            }
        }
        return false;
    }

    private boolean isAgentName(byte[] b, int from, int to) {
        for (byte[] name : agentNames) {
            if (name.length == to - from && Arrays.equals(name, 0, name.length, b, from, to)) {
                return true;
            }
        }
        return false;
    }

    /** Undoes JSON string escapes of {@code b[from, to)} into {@link #agent}, as UTF-8; returns the length. */
    private int decode(byte[] b, int from, int to) {
        if (agent.length < to - from) {
            agent = new byte[Math.max(to - from, agent.length * 2)];
        }
        byte[] out = agent;
        int n = 0;
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c != '\\' || i + 1 >= to) {
                out[n++] = c;
                continue;
            }
            byte e = b[++i];
            switch (e) {
                case 'n' -> out[n++] = '\n';
                case 't' -> out[n++] = '\t';
                case 'r' -> out[n++] = '\r';
                case 'b' -> out[n++] = '\b';
                case 'f' -> out[n++] = '\f';
                case 'u' -> {
                    int code = i + 4 < to ? hex4(b, i + 1) : -1;
                    if (code < 0) {
                        out[n++] = e;
                        break;
                    }
                    i += 4;
                    if (Character.isHighSurrogate((char) code) && i + 6 < to && b[i + 1] == '\\' && b[i + 2] == 'u') {
                        int low = hex4(b, i + 3);
                        if (low >= 0 && Character.isLowSurrogate((char) low)) {
                            code = Character.toCodePoint((char) code, (char) low);
                            i += 6;
                        }
                    }
                    n = utf8(code, out, n);
                }
                default -> out[n++] = e; // \" \\ \/
            }
        }
        return n;
    }

    private static int hex4(byte[] b, int p) {
        int value = 0;
        for (int k = 0; k < 4; k++) {
            int d = LogText.hex(b[p + k]);
            if (d < 0) {
                return -1;
            }
            value = value * 16 + d;
        }
        return value;
    }

    /** Writes a code point as UTF-8 (at most as many bytes as its escape took) and returns the new length. */
    private static int utf8(int code, byte[] out, int n) {
        if (code < 0x80) {
            out[n++] = (byte) code;
        } else if (code < 0x800) {
            out[n++] = (byte) (0xC0 | (code >> 6));
            out[n++] = (byte) (0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            out[n++] = (byte) (0xE0 | (code >> 12));
            out[n++] = (byte) (0x80 | ((code >> 6) & 0x3F));
            out[n++] = (byte) (0x80 | (code & 0x3F));
        } else {
            out[n++] = (byte) (0xF0 | (code >> 18));
            out[n++] = (byte) (0x80 | ((code >> 12) & 0x3F));
            out[n++] = (byte) (0x80 | ((code >> 6) & 0x3F));
            out[n++] = (byte) (0x80 | (code & 0x3F));
        }
        return n;
    }

    private static int skipSpaces(byte[] b, int p, int to) {
        while (p < to && (b[p] == ' ' || b[p] == '\t')) {
            p++;
        }
        return p;
    }
}
