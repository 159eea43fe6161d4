package dev.crawlerrors.text;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Text from outside (log lines, syslog frames, drain batches, file names, command-line values)
 * made safe to show: on a terminal, in the serve log, in a message a JSON answer carries, in the
 * report's HTML page and CSV. Whoever sends requests to a site writes its log lines, so they may
 * hold escape sequences that retitle, clear or recolour the terminal that shows them, or Unicode
 * controls that make a message or a URL read other than it is. Every message that quotes such text
 * passes it through here where it is shown.
 *
 * <p>What is escaped, and how:
 * <ul>
 *   <li>C0 controls (below 0x20: ESC, BEL, NUL, CR, LF, tab) and DEL as {@code \xHH}, the form nginx
 *       itself writes them in its logs ({@code \x1B}), so an excerpt reads like the log does;</li>
 *   <li>C1 controls (U+0080 to U+009F; U+009B starts a control sequence on some terminals) as the
 *       {@code \xHH} of their UTF-8 bytes ({@code \xC2\x9B}): each {@code \xHH} shown is a byte the
 *       text holds, as in nginx's escapes, so it can be searched for in the file;</li>
 *   <li>bytes that are not UTF-8 as {@code \xHH} too, where decoding would have made them U+FFFD and
 *       lost which byte it was;</li>
 *   <li>the Unicode controls that reorder or hide text, as <code>&#92;u202E</code>: the bidi embeddings,
 *       overrides and isolates (U+202A to U+202E, U+2066 to U+2069) and marks (U+200E, U+200F,
 *       U+061C), the "Trojan Source" set of CVE-2021-42574, which make <code>/&#92;u202Etxt.exe</code> read
 *       {@code /exe.txt}; every other invisible format character (Unicode's category Cf: the zero
 *       width space U+200B, the word joiner U+2060, the byte order mark U+FEFF, the soft hyphen
 *       U+00AD, ...), which makes two different URLs look alike; the line and paragraph separators
 *       U+2028 and U+2029; and unpaired surrogates. They are valid text, so no byte escape would
 *       say which they are. A format character beyond U+FFFF (the tag characters U+E0000 to
 *       U+E007F, which carry hidden ASCII) is shown as <code>&#92;u{E0041}</code>. The zero width joiner
 *       and non-joiner (U+200D, U+200C) are left as they are: emoji and Indic and Persian text
 *       need them, and they reorder nothing.</li>
 * </ul>
 * Everything else is shown as it is, ordinary non-ASCII text (é, 日本) included.
 *
 * <p>A backslash already in the text stays one backslash, not doubled. Log text is full of the
 * servers' own escapes ({@code \"}, {@code \x22}); doubled, a quoted excerpt would no longer be
 * what the file holds, and could not be pasted into a search of it. The price is that a literal
 * {@code \x1B} in a log and an escaped ESC look the same, which is harmless: neither reaches the
 * terminal as a control. It also makes escaping idempotent (what this returns has nothing left to
 * escape), so text escaped where it was quoted can pass through again where it is shown.
 */
public final class ShownText {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    private static final int ZERO_WIDTH_NON_JOINER = 0x200C;
    private static final int ZERO_WIDTH_JOINER = 0x200D;

    private ShownText() {
    }

    /** {@code text} with every control and invisible character escaped; {@code text} itself when it holds none. */
    public static String of(String text) {
        if (text == null) {
            return null;
        }
        int first = firstToEscape(text);
        if (first < 0) {
            return text;
        }
        StringBuilder shown = new StringBuilder(text.length() + 16).append(text, 0, first);
        appendEscaped(shown, text, first, text.length());
        return shown.toString();
    }

    /**
     * The UTF-8 bytes {@code b[from, to)} as text, escaped as {@link #of(String)} does, with each
     * byte that is not part of valid UTF-8 shown as {@code \xHH}.
     */
    public static String of(byte[] b, int from, int to) {
        StringBuilder shown = new StringBuilder(to - from + 16);
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder(); // reports malformed input, replaces nothing
        ByteBuffer in = ByteBuffer.wrap(b, from, to - from);
        CharBuffer decoded = CharBuffer.allocate(Math.max(1, to - from)); // UTF-8 never decodes to more chars than bytes
        while (true) {
            CoderResult result = decoder.decode(in, decoded, true);
            decoded.flip();
            appendEscaped(shown, decoded, 0, decoded.length());
            decoded.clear();
            if (!result.isError()) {
                break;
            }
            for (int i = 0; i < result.length(); i++) {
                appendByte(shown, in.get());
            }
        }
        return shown.toString();
    }

    /** The index of the first char of {@code text} to escape, or -1. */
    private static int firstToEscape(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                if (c < 0x20 || c == 0x7F) {
                    return i;
                }
            } else if (Character.isHighSurrogate(c) && pairedAt(text, i)) {
                if (isShownEscaped(Character.toCodePoint(c, text.charAt(i + 1)))) {
                    return i;
                }
                i++; // a pair: a supplementary character
            } else if (isShownEscaped(c) || Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    private static void appendEscaped(StringBuilder shown, CharSequence text, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && pairedAt(text, i)) {
                int codePoint = Character.toCodePoint(c, text.charAt(++i));
                if (isShownEscaped(codePoint)) {
                    shown.append("\\u{").append(Integer.toHexString(codePoint).toUpperCase(Locale.ROOT)).append('}');
                } else {
                    shown.append(c).append(text.charAt(i));
                }
            } else if (c < 0x80) {
                if (isShownEscaped(c)) {
                    appendByte(shown, (byte) c);
                } else {
                    shown.append(c);
                }
            } else if (c <= 0x9F) {
                // a C1 control: the two bytes UTF-8 writes it as, 0xC2 then the control itself
                appendByte(shown, (byte) 0xC2);
                appendByte(shown, (byte) c);
            } else if (isShownEscaped(c) || Character.isSurrogate(c)) {
                shown.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xF]).append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
            } else {
                shown.append(c);
            }
        }
    }

    /**
     * Whether {@code codePoint}, no surrogate, is a control, a line or paragraph separator, or an
     * invisible format character (the bidi controls among them), but for the joiners text needs.
     */
    private static boolean isShownEscaped(int codePoint) {
        if (codePoint < 0xA0) {
            return codePoint < 0x20 || codePoint >= 0x7F;
        }
        if (codePoint == ZERO_WIDTH_NON_JOINER || codePoint == ZERO_WIDTH_JOINER) {
            return false;
        }
        int type = Character.getType(codePoint);
        return type == Character.FORMAT || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR;
    }

    /** Whether the surrogate at {@code i} is half of a pair. */
    private static boolean pairedAt(CharSequence text, int i) {
        char c = text.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
        }
        return Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
    }

    private static void appendByte(StringBuilder shown, byte b) {
        shown.append("\\x").append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
    }
}
