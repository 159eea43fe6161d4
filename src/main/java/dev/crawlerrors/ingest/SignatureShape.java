package dev.crawlerrors.ingest;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * What a signer repeats in every signed request's fields: its Signature-Agent, and its Signature-Input
 * but for the values of {@code created}, {@code expires} and {@code nonce}. A signed line's fields are
 * its shape, its signature and those values; the store keeps the shape once and each line's
 * <em>short text</em>: {@code ~}, the shape's {@linkplain #number number} and a colon, then the signature
 * and each value cut out, each as a length, a colon and itself ({@link SignatureFields#putField}). The
 * shape is written the same way: the agent, then the Signature-Input's pieces between the values.
 * {@link #expand} puts a short text back as it was ({@link SignatureFields#text}), byte for byte: where
 * the values are cut decides only how short a text gets, never what it holds. Every byte ASCII (a
 * length counts chars).
 *
 * <p>A shape's number is the first 63 bits of its SHA-256: no writer hands out numbers, and every
 * parser and import meets the same one for a signer's lines. (A store does not take a number on
 * trust: two shapes may share one, and a hostile log could make them on purpose.)
 */
public final class SignatureShape {

    /** What a short text starts with; a whole text starts with a digit or {@code -}. */
    public static final char MARK = '~';
    private static final byte[][] CUT = {bytes(";created="), bytes(";expires="), bytes(";nonce=")};
    /** How many values a Signature-Input gives up at most: as many as {@link #cut} finds. */
    private static final int MAX_CUTS = CUT.length;

    private final byte[] bytes;
    private final long number;
    private final byte[] digits;

    /** The shape whose bytes are {@code bytes} (kept as they are, not copied). */
    public SignatureShape(byte[] bytes) {
        this.bytes = bytes;
        this.number = numberOf(bytes);
        this.digits = Long.toString(number).getBytes(StandardCharsets.US_ASCII);
    }

    /** The shape as kept: its agent, then the Signature-Input's pieces, each a length, a colon and itself. */
    public byte[] bytes() {
        return bytes;
    }

    /** Its number: the first 63 bits of its SHA-256. */
    public long number() {
        return number;
    }

    /**
     * Makes signed fields' short text, one line after another, the shape the last line's when the same (a
     * signer's lines share one, which its store compares by identity). One a parser or a writer: not shared.
     */
    public static final class Maker {

        /** The room a shape may take: a signer's takes some 300 bytes; fields whose shape would take more stay whole. */
        public static final int MAX_ROOM = 4096;
        private final int[] cuts = new int[2 * MAX_CUTS];
        private final int[] fields = new int[6];
        private byte[] scratch = new byte[512];
        private SignatureShape last;

        /**
         * The fields whose signature, input and agent are {@code t[signatureFrom, signatureTo)},
         * {@code t[inputFrom, inputTo)} and {@code t[agentFrom, agentTo)} (each present, every byte ASCII) made as
         * their short text, {@code agent} the agent as text (null to read it when asked); null when the input
         * gives up no value to cut, or the shape would take more than {@link #MAX_ROOM}.
         */
        public SignatureFields shorten(byte[] t, int signatureFrom, int signatureTo, int inputFrom, int inputTo, int agentFrom,
                int agentTo, String agent) {
            int room = room(agentTo - agentFrom, inputTo - inputFrom);
            if (room > MAX_ROOM) {
                return null;
            }
            int n = cut(t, inputFrom, inputTo, cuts);
            if (n == 0) {
                return null;
            }
            if (scratch.length < room) {
                scratch = new byte[MAX_ROOM];
            }
            int length = write(scratch, t, agentFrom, agentTo, inputFrom, inputTo, cuts, n);
            SignatureShape shape = last;
            if (shape == null || !Arrays.equals(scratch, 0, length, shape.bytes, 0, shape.bytes.length)) {
                shape = new SignatureShape(Arrays.copyOf(scratch, length));
                last = shape;
            }
            return SignatureFields.ofShortText(shape.shortText(t, signatureFrom, signatureTo, cuts, n), shape, agent);
        }

        /**
         * The fields of a whole text ({@link SignatureFields#text}, every byte ASCII) made as their short text; null
         * when a field is absent or empty, the text is not one, or {@link #shorten(byte[], int, int, int, int, int,
         * int, String)} says null.
         */
        public SignatureFields shorten(byte[] whole) {
            int at = 0;
            for (int f = 0; f < 3; f++) {
                at = field(whole, at, fields, 2 * f);
                if (at < 0 || fields[2 * f] == fields[2 * f + 1]) {
                    return null;
                }
            }
            if (at != whole.length) {
                return null;
            }
            return shorten(whole, fields[0], fields[1], fields[2], fields[3], fields[4], fields[5], null);
        }
    }

    /**
     * Finds the values to cut out of a Signature-Input, {@code t[from, to)}, into {@code cuts} ({@code from, to}
     * each, in order, {@code 2 * MAX_CUTS} long): each name's first, from after its {@code =} to the next
     * {@code ;}. Returns how many.
     */
    static int cut(byte[] t, int from, int to, int[] cuts) {
        int n = 0;
        int found = 0; // the names met, a bit each
        for (int i = from; i < to - 1; i++) {
            if (t[i] != ';') {
                continue;
            }
            int name = switch (t[i + 1]) {
                case 'c' -> 0;
                case 'e' -> 1;
                case 'n' -> 2;
                default -> -1;
            };
            if (name < 0 || (found & (1 << name)) != 0 || !startsWith(t, i, to, CUT[name])) {
                continue;
            }
            found |= 1 << name;
            int valueFrom = i + CUT[name].length;
            int valueTo = valueFrom;
            while (valueTo < to && t[valueTo] != ';') {
                valueTo++;
            }
            cuts[2 * n] = valueFrom;
            cuts[2 * n + 1] = valueTo;
            n++;
            i = valueTo - 1;
        }
        return n;
    }

    /** The room {@link #write} needs for an agent of {@code agent} bytes and an input of {@code input} bytes. */
    static int room(int agent, int input) {
        return agent + input + 8 * (MAX_CUTS + 2);
    }

    /**
     * Writes into {@code out} the shape of an agent {@code t[agentFrom, agentTo)} and an input
     * {@code t[inputFrom, inputTo)} whose {@code n} values {@code cuts} holds; returns its length.
     */
    static int write(byte[] out, byte[] t, int agentFrom, int agentTo, int inputFrom, int inputTo, int[] cuts, int n) {
        int at = put(out, 0, t, agentFrom, agentTo);
        int from = inputFrom;
        for (int i = 0; i < n; i++) {
            at = put(out, at, t, from, cuts[2 * i]);
            from = cuts[2 * i + 1];
        }
        return put(out, at, t, from, inputTo);
    }

    /**
     * The short text of a signature {@code t[signatureFrom, signatureTo)} and the {@code n} values {@code cuts}
     * holds, under this shape.
     */
    byte[] shortText(byte[] t, int signatureFrom, int signatureTo, int[] cuts, int n) {
        int signature = signatureTo - signatureFrom;
        int length = 1 + digits.length + 1 + SignatureFields.fieldSize(signature, signature);
        for (int i = 0; i < n; i++) {
            int value = cuts[2 * i + 1] - cuts[2 * i];
            length += SignatureFields.fieldSize(value, value);
        }
        byte[] text = new byte[length];
        text[0] = (byte) MARK;
        System.arraycopy(digits, 0, text, 1, digits.length);
        int at = 1 + digits.length;
        text[at++] = ':';
        at = put(text, at, t, signatureFrom, signatureTo);
        for (int i = 0; i < n; i++) {
            at = put(text, at, t, cuts[2 * i], cuts[2 * i + 1]);
        }
        return text;
    }

    /**
     * The whole text ({@link SignatureFields#text}) of a short one, {@code shortText}, whose shape is {@code shape}.
     *
     * @throws IllegalArgumentException when the two do not make one (a shape missing: null)
     */
    public static String expand(String shortText, String shape) {
        if (shape == null) {
            throw new IllegalArgumentException("the shape of a waiting signature is missing");
        }
        return new String(expand(shortText.getBytes(StandardCharsets.ISO_8859_1), shape.getBytes(StandardCharsets.ISO_8859_1)),
                StandardCharsets.ISO_8859_1);
    }

    /**
     * {@link #expand} on bytes: the whole text of a short one under {@code shape}, both as kept.
     *
     * @throws IllegalArgumentException when the two do not make one
     */
    public static byte[] expand(byte[] shortText, byte[] shape) {
        int at = 0;
        while (at < shortText.length && shortText[at] != ':') {
            at++;
        }
        if (shortText.length == 0 || shortText[0] != MARK || at == shortText.length) {
            throw new IllegalArgumentException("not a short signature text");
        }
        // the short text's fields, then the shape's: where each value starts and ends
        int[] values = new int[2 * (MAX_CUTS + 1)];
        int n = 0;
        for (at = at + 1; at < shortText.length; n++) {
            if (n == MAX_CUTS + 1) {
                throw new IllegalArgumentException("a short signature text holds more values than a shape has room for");
            }
            at = fieldOf(shortText, at, values, 2 * n);
        }
        if (n == 0) {
            throw new IllegalArgumentException("a signature text is cut short");
        }
        int[] pieces = new int[2 * (MAX_CUTS + 2)];
        int k = 0;
        for (at = 0; at < shape.length; k++) {
            if (k == MAX_CUTS + 2) {
                throw new IllegalArgumentException("a shape holds more pieces than a Signature-Input gives up");
            }
            at = fieldOf(shape, at, pieces, 2 * k);
        }
        if (k != n + 1) {
            throw new IllegalArgumentException("a short signature text holds " + (n - 1) + " values where its shape has room for " + (k - 2));
        }
        int input = 0;
        for (int i = 1; i < k; i++) {
            input += pieces[2 * i + 1] - pieces[2 * i];
        }
        for (int i = 1; i < n; i++) {
            input += values[2 * i + 1] - values[2 * i];
        }
        int signature = values[1] - values[0];
        int agent = pieces[1] - pieces[0];
        byte[] whole = new byte[SignatureFields.fieldSize(signature, signature) + SignatureFields.fieldSize(input, input)
                + SignatureFields.fieldSize(agent, agent)];
        int out = SignatureFields.putField(whole, 0, signature, shortText, values[0], signature);
        out = SignatureFields.putField(whole, out, input, NONE, 0, 0); // the input's length; its pieces follow
        for (int i = 1; i < k; i++) {
            int piece = pieces[2 * i + 1] - pieces[2 * i];
            System.arraycopy(shape, pieces[2 * i], whole, out, piece);
            out += piece;
            if (i < n) {
                int value = values[2 * i + 1] - values[2 * i];
                System.arraycopy(shortText, values[2 * i], whole, out, value);
                out += value;
            }
        }
        SignatureFields.putField(whole, out, agent, shape, pieces[0], agent);
        return whole;
    }

    private static final byte[] NONE = new byte[0];

    /**
     * Reads the field of {@code t} at {@code at} (a length, a colon, itself) into {@code into[slot]} (where
     * its value starts) and {@code into[slot + 1]} (where it ends); returns its end, or -1 when none is there.
     */
    private static int field(byte[] t, int at, int[] into, int slot) {
        int length = 0;
        int i = at;
        while (i < t.length && t[i] >= '0' && t[i] <= '9' && i - at < 9) {
            length = length * 10 + (t[i++] - '0');
        }
        if (i == at || i >= t.length || t[i] != ':' || i + 1 + length > t.length) {
            return -1;
        }
        into[slot] = i + 1;
        into[slot + 1] = i + 1 + length;
        return i + 1 + length;
    }

    /** {@link #field}, for a text that must hold one there. */
    private static int fieldOf(byte[] t, int at, int[] into, int slot) {
        int end = field(t, at, into, slot);
        if (end < 0) {
            throw new IllegalArgumentException("a signature text is cut short");
        }
        return end;
    }

    /** Writes {@code from[start, end)} into {@code to} at {@code at} as a field: its length, a colon, itself. Returns the end. */
    private static int put(byte[] to, int at, byte[] from, int start, int end) {
        int length = end - start;
        return SignatureFields.putField(to, at, length, from, start, length);
    }

    private static boolean startsWith(byte[] t, int at, int to, byte[] name) {
        if (at + name.length > to) {
            return false;
        }
        for (int k = 0; k < name.length; k++) {
            if (t[at + k] != name[k]) {
                return false;
            }
        }
        return true;
    }

    /** A shape's number: the first 63 bits of its SHA-256. */
    public static long numberOf(byte[] shape) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(shape);
            return ByteBuffer.wrap(digest).getLong() & Long.MAX_VALUE;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
