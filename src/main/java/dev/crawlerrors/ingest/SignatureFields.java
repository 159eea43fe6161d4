package dev.crawlerrors.ingest;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The Web Bot Auth header fields of a request, as its log line records them (HTTP Message
 * Signatures, RFC 9421, and draft-ietf-webbotauth-httpsig-protocol's {@code Signature-Agent}):
 * each null when the line has none. A request that carries them is verified by its signature, not
 * by its address.
 *
 * <p>A log parser may make them from their {@link #textUtf8 text} alone ({@link #ofAsciiText}), or
 * from their short text ({@link #ofShortText}, {@link SignatureShape}): an import of many signed lines
 * keeps that text in the store for serve to check, and reads no field but the Signature-Agent on the
 * way; each field, and the whole text, is then made when first asked.
 */
public final class SignatureFields {

    /** A field not read from {@link #text} yet (null: not read; this: absent). */
    private static final String ABSENT = new String("absent");

    /**
     * The fields' text as UTF-8 when they were made from it (or from their {@link #shortText}: then null until
     * first asked, made again by a thread that asks meanwhile; volatile, so a thread that sees the array sees
     * its bytes), else null (and the fields are the given ones).
     */
    private volatile byte[] text;
    /** The fields' short text ({@link SignatureShape}) when a parser made them so, else null. */
    private final byte[] shortText;
    /** The shape of {@link #shortText}, or null. */
    private final SignatureShape shape;
    /** The signature, its input and its agent: as given, or (made from {@link #text}) null until read, {@link #ABSENT} for none. */
    private final String[] fields;

    public SignatureFields(String signature, String signatureInput, String signatureAgent) {
        this.text = null;
        this.shortText = null;
        this.shape = null;
        this.fields = new String[] {signature, signatureInput, signatureAgent};
    }

    private SignatureFields(byte[] text, byte[] shortText, SignatureShape shape, String signatureAgent) {
        this.text = text;
        this.shortText = shortText;
        this.shape = shape;
        this.fields = new String[3];
        this.fields[2] = signatureAgent;
    }

    /** The fields, or null when the line records none of them ({@code -} or empty is none). */
    public static SignatureFields of(String signature, String signatureInput, String signatureAgent) {
        String s = present(signature);
        String i = present(signatureInput);
        String a = present(signatureAgent);
        return s == null && i == null && a == null ? null : new SignatureFields(s, i, a);
    }

    /**
     * The fields whose {@link #textUtf8 text} is {@code text}, every field in it ASCII (so its length in
     * chars is its length in bytes) and none {@code -} or empty: a parser's, which writes the text
     * straight from the line; kept as it is, not copied. {@code signatureAgent} is the text's third field
     * (null to read it from the text when asked): a parser passes the one it made for the line before
     * when the same, since an import asks every signed line's agent.
     */
    public static SignatureFields ofAsciiText(byte[] text, String signatureAgent) {
        return new SignatureFields(Objects.requireNonNull(text), null, null, signatureAgent);
    }

    /**
     * The fields whose short text ({@link SignatureShape}) is {@code shortText} under {@code shape}, every byte
     * ASCII and all three present; {@code signatureAgent} is the third field (null to read it when asked).
     * A parser's: its import writes the short text as it is, and the whole text is made when first asked.
     */
    public static SignatureFields ofShortText(byte[] shortText, SignatureShape shape, String signatureAgent) {
        return new SignatureFields(null, Objects.requireNonNull(shortText), Objects.requireNonNull(shape), signatureAgent);
    }

    /** The short text ({@link SignatureShape}) a parser made these fields from, or null. */
    public byte[] shortUtf8() {
        return shortText;
    }

    /** The shape of {@link #shortUtf8}, or null. */
    public SignatureShape shape() {
        return shape;
    }

    /** The whole text as UTF-8 when these fields were made from a text (whole or short), else null. */
    private byte[] madeText() {
        byte[] made = text;
        if (made == null && shortText != null) {
            made = SignatureShape.expand(shortText, shape.bytes());
            text = made;
        }
        return made;
    }

    /** Whether every byte of {@link #textUtf8} is ASCII as far as these fields know: true when a parser made them from such a text. */
    public boolean asciiText() {
        return text != null || shortText != null;
    }

    public String signature() {
        return field(0);
    }

    public String signatureInput() {
        return field(1);
    }

    public String signatureAgent() {
        return field(2);
    }

    /** The {@code index}th field: as given, or read from {@link #text} when first asked (a racy cache: reading twice is harmless). */
    private String field(int index) {
        String value = fields[index];
        if (text == null && shortText == null) {
            return value;
        }
        if (value == null) {
            value = part(madeText(), index);
            fields[index] = value;
        }
        return value == ABSENT ? null : value;
    }

    /** The {@code index}th field of {@link #text} ({@link #ABSENT} for none): each a length, a colon, then itself. */
    private static String part(byte[] text, int index) {
        int at = 0;
        for (int i = 0; ; i++) {
            int length = 0;
            boolean none = text[at] == '-';
            if (none) {
                at += 3; // -1:
            } else {
                while (text[at] != ':') {
                    length = length * 10 + (text[at++] - '0');
                }
                at++;
            }
            if (i == index) {
                return none ? ABSENT : new String(text, at, length, StandardCharsets.ISO_8859_1);
            }
            at += length;
        }
    }

    /**
     * The request these fields were sent with, in one text to be kept while its signature waits to be
     * checked: the three fields ({@link #text}), then the method, host, target and duration
     * ({@link #rest}). {@code crawler.signature.LoggedSignature} reads it back.
     */
    public String request(String method, String host, String target, double durationMs) {
        return text() + rest(method, host, target, durationMs);
    }

    /** The three fields, each its length, a colon, then itself ({@code -1:} for none): the start of a {@link #request}. */
    public String text() {
        byte[] made = madeText();
        if (made != null) {
            return new String(made, StandardCharsets.ISO_8859_1);
        }
        StringBuilder text = new StringBuilder(512);
        append(text, signature());
        append(text, signatureInput());
        append(text, signatureAgent());
        return text.toString();
    }

    /**
     * {@link #text} as UTF-8, made without the text: each field's bytes once, then the whole (an import
     * writes this for every signed line it leaves waiting in its row); the parser's own when it made them.
     */
    public byte[] textUtf8() {
        byte[] made = madeText();
        if (made != null) {
            return made;
        }
        String signature = signature();
        String signatureInput = signatureInput();
        String signatureAgent = signatureAgent();
        byte[] s = utf8(signature);
        byte[] i = utf8(signatureInput);
        byte[] a = utf8(signatureAgent);
        int sc = chars(signature);
        int ic = chars(signatureInput);
        int ac = chars(signatureAgent);
        byte[] text = new byte[fieldSize(sc, length(s)) + fieldSize(ic, length(i)) + fieldSize(ac, length(a))];
        int at = putField(text, 0, sc, s, 0, length(s));
        at = putField(text, at, ic, i, 0, length(i));
        putField(text, at, ac, a, 0, length(a));
        return text;
    }

    private static byte[] utf8(String part) {
        return part == null ? null : part.getBytes(StandardCharsets.UTF_8);
    }

    private static int chars(String part) {
        return part == null ? -1 : part.length();
    }

    private static int length(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }

    /** The bytes a field takes in a text: its length in chars ({@code chars}), a colon, its {@code length} bytes; {@code -1:} when absent ({@code chars} below 0). */
    public static int fieldSize(int chars, int length) {
        return chars < 0 ? 3 : digits(chars) + 1 + length;
    }

    /**
     * Writes a field into a text from {@code at}: its length in chars, a colon, then {@code bytes[from, from + length)};
     * {@code -1:} when absent ({@code chars} below 0). Returns the end.
     */
    public static int putField(byte[] text, int at, int chars, byte[] bytes, int from, int length) {
        if (chars < 0) {
            text[at] = '-';
            text[at + 1] = '1';
            text[at + 2] = ':';
            return at + 3;
        }
        int end = at + digits(chars);
        for (int i = end - 1, n = chars; i >= at; i--, n /= 10) {
            text[i] = (byte) ('0' + n % 10);
        }
        text[end] = ':';
        System.arraycopy(bytes, from, text, end + 1, length);
        return end + 1 + length;
    }

    /** The digits of {@code n}, as a text's length prefix writes it. */
    private static int digits(int n) {
        int digits = 1;
        for (long limit = 10; n >= limit; limit *= 10) {
            digits++;
        }
        return digits;
    }

    /** The rest of a {@link #request} after the fields' {@link #text}: the request's parts the hit holds too. */
    public static String rest(String method, String host, String target, double durationMs) {
        StringBuilder text = new StringBuilder(128);
        append(text, method);
        append(text, host);
        append(text, target);
        append(text, Double.isNaN(durationMs) ? null : Double.toString(durationMs));
        return text.toString();
    }

    private static void append(StringBuilder text, String part) {
        if (part == null) {
            text.append("-1:");
        } else {
            text.append(part.length()).append(':').append(part);
        }
    }

    private static String present(String value) {
        return value == null || value.isEmpty() || value.equals("-") ? null : value;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SignatureFields that && Objects.equals(signature(), that.signature())
                && Objects.equals(signatureInput(), that.signatureInput()) && Objects.equals(signatureAgent(), that.signatureAgent());
    }

    @Override
    public int hashCode() {
        return Objects.hash(signature(), signatureInput(), signatureAgent());
    }

    @Override
    public String toString() {
        return "SignatureFields[signature=" + signature() + ", signatureInput=" + signatureInput() + ", signatureAgent="
                + signatureAgent() + "]";
    }
}
