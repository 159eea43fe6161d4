package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.ingest.SignatureFields;
import dev.crawlerrors.ingest.format.ByteSearch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.duckdb.DuckDBConnection;

/**
 * The text a signed hit waits with in its row ({@code hits.sig}), written short. A signer sends the same
 * Signature-Agent and nearly the same Signature-Input with every request: only its {@code created},
 * {@code expires} and {@code nonce} change, and the signature. What stays is the line's <em>shape</em>,
 * kept once in {@code sig_shapes} under a number of its own; the row keeps the number, the signature and
 * the values that change: some 160 bytes where the whole text takes 430 (ChatGPT agent's). The whole was
 * most of what a signed import wrote: a row group of such rows outgrew an import's 64MB of DuckDB memory,
 * which spilled it to a temporary file and read it back, and DuckDB's string heap, the commit and the
 * file took the rest (BENCHMARKS.md, "The signed import's own cost").
 *
 * <p>A short text is {@code ~}, the shape's number and a colon, then the signature and each value cut
 * out, each as a length, a colon and itself; a shape is the agent, then the Signature-Input's pieces
 * between the values, written the same way. {@link #expand} puts them back as they were, byte for byte:
 * where the values are cut decides only how short a row gets, never what it holds. The whole text
 * starts with a digit or {@code -} ({@link SignatureFields#text}), so both kinds of row are read.
 *
 * <p>A shape's number is the first 63 bits of its SHA-256: no writer hands out numbers, and two
 * imports of one signer's lines meet the same one. A number whose row holds another shape (two shapes
 * of one number, which a hostile log could make on purpose) is not used: its lines are written whole.
 * One writer adds {@link #MAX_SHAPES} shapes at most (a log whose every line has a shape of its own
 * gains nothing from them), then writes whole texts. Shapes are added in the transaction of the rows
 * that use them, and forgotten when it rolls back ({@link #forget}).
 */
final class DuckDbSignatureShapes {

    /** The table of shapes (schema version 11). */
    static final String TABLE = "CREATE TABLE IF NOT EXISTS sig_shapes (id BIGINT PRIMARY KEY, shape VARCHAR NOT NULL);\n";
    /** The shapes one writer adds at most. */
    static final int MAX_SHAPES = 64;
    /** What a short text starts with. */
    static final char MARK = '~';
    private static final byte[][] CUT = {bytes(";created="), bytes(";expires="), bytes(";nonce=")};
    private static final byte[] NONE = new byte[0];

    private final DuckDBConnection connection;
    /** The shapes this writer met whose number the store holds (committed, or in the open transaction): by their bytes. */
    private final Map<ByteBuffer, Long> numbers = new HashMap<>();
    /** Shapes whose number the store holds for another shape, or met past {@link #MAX_SHAPES}. */
    private final Set<ByteBuffer> refused = new HashSet<>();
    private byte[] lastShape = NONE;
    private long lastNumber = -1;
    /** {@link #lastNumber} as its digits. */
    private byte[] lastDigits = NONE;
    private byte[] scratch = new byte[512];
    /** The values cut out of the Signature-Input being read: from, to; at most three. */
    private final int[] cuts = new int[CUT.length * 2];
    /** How many values {@link #cuts} holds. */
    private int cutCount;
    private PreparedStatement add;
    private PreparedStatement read;

    DuckDbSignatureShapes(DuckDBConnection connection) {
        this.connection = connection;
    }

    /**
     * The texts of {@code hits} that wait in their rows, short where their shape allows, by the hits'
     * places; null when none waits. Adds the shapes met first to the store, in the open transaction.
     */
    byte[][] texts(List<CrawlerHit> hits) throws SQLException {
        byte[][] texts = null;
        for (int i = 0; i < hits.size(); i++) {
            CrawlerHit hit = hits.get(i);
            SignatureFields fields = hit.hit().signed();
            if (fields == null || !hit.waitsInRow()) {
                continue;
            }
            if (texts == null) {
                texts = new byte[hits.size()][];
            }
            byte[] whole = fields.textUtf8();
            texts[i] = fields.asciiText() || ascii(whole) ? text(whole) : whole;
        }
        return texts;
    }

    /** Whether every byte of {@code text} is ASCII (fields a parser did not make from their text: JSON's, W3C's). */
    static boolean ascii(byte[] text) {
        for (byte b : text) {
            if (b < 0) {
                return false;
            }
        }
        return true;
    }

    /** The transaction that added shapes rolled back: what this writer knows of the store is asked again. */
    void forget() {
        numbers.clear();
        refused.clear();
        lastShape = NONE;
        lastNumber = -1;
        lastDigits = NONE;
    }

    /** {@code whole}, every byte of it ASCII, short, or itself when it has no shape or its shape cannot be kept. */
    byte[] text(byte[] whole) throws SQLException {
        int shapeLength = shape(whole);
        if (shapeLength < 0) {
            return whole;
        }
        long number = number(shapeLength);
        return number < 0 ? whole : shortText(whole, number);
    }

    /**
     * Writes the shape of {@code whole} into {@link #scratch} and the values cut out into {@link #cuts}:
     * the shape's length, or -1 when the text has none (a field absent, the text not as
     * {@link SignatureFields#text} writes it). Every byte ASCII: a field's length counts chars, not bytes.
     */
    private int shape(byte[] whole) {
        int signatureEnd = fieldEnd(whole, 0);
        int inputEnd = signatureEnd < 0 ? -1 : fieldEnd(whole, signatureEnd);
        int agentEnd = inputEnd < 0 ? -1 : fieldEnd(whole, inputEnd);
        if (agentEnd != whole.length) {
            return -1;
        }
        int inputFrom = valueFrom(whole, signatureEnd);
        int agentFrom = valueFrom(whole, inputEnd);
        int n = cut(whole, inputFrom, inputEnd);
        cutCount = n;
        if (n == 0) {
            return -1;
        }
        int need = (agentEnd - inputEnd) + (inputEnd - inputFrom) + 8 * (n + 1);
        if (scratch.length < need) {
            scratch = new byte[Math.max(need, scratch.length * 2)];
        }
        int at = put(scratch, 0, whole, agentFrom, agentEnd);
        int from = inputFrom;
        for (int i = 0; i < n; i++) {
            at = put(scratch, at, whole, from, cuts[2 * i]);
            from = cuts[2 * i + 1];
        }
        return put(scratch, at, whole, from, inputEnd);
    }

    /**
     * Finds the values to cut out of the Signature-Input in {@code t[from, to)} into {@link #cuts}, in
     * order: each of the names' first, from after its {@code =} to the next {@code ;}. Returns how many.
     */
    private int cut(byte[] t, int from, int to) {
        int n = 0;
        int found = 0; // the names met, a bit each
        for (int i = ByteSearch.indexOf(t, from, to, (byte) ';'); i >= 0; i = ByteSearch.indexOf(t, i + 1, to, (byte) ';')) {
            if (i + 1 >= to) {
                break;
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
            int next = ByteSearch.indexOf(t, valueFrom, to, (byte) ';');
            int valueTo = next < 0 ? to : next;
            cuts[2 * n] = valueFrom;
            cuts[2 * n + 1] = valueTo;
            n++;
            if (next < 0) {
                break;
            }
            i = next - 1;
        }
        return n;
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

    /** The number of the shape in {@code scratch[0, length)}, or -1 when it is not kept. */
    private long number(int length) throws SQLException {
        if (Arrays.equals(scratch, 0, length, lastShape, 0, lastShape.length)) {
            return lastNumber;
        }
        ByteBuffer key = ByteBuffer.wrap(Arrays.copyOf(scratch, length));
        Long known = numbers.get(key);
        if (known == null) {
            if (refused.contains(key) || numbers.size() >= MAX_SHAPES) {
                return -1;
            }
            long number = numberOf(key.array());
            if (!keep(number, new String(key.array(), StandardCharsets.ISO_8859_1))) {
                refused.add(key);
                return -1;
            }
            numbers.put(key, number);
            known = number;
        }
        lastShape = key.array();
        lastNumber = known;
        lastDigits = Long.toString(known).getBytes(StandardCharsets.US_ASCII);
        return known;
    }

    /** Adds the shape under its number, in the open transaction: whether the store holds that shape under it now. */
    private boolean keep(long number, String shape) throws SQLException {
        if (add == null) {
            add = connection.prepareStatement("INSERT OR IGNORE INTO sig_shapes VALUES (?, ?)");
            read = connection.prepareStatement("SELECT shape FROM sig_shapes WHERE id = ?");
        }
        add.setLong(1, number);
        add.setString(2, shape);
        add.execute();
        read.setLong(1, number);
        try (ResultSet rs = read.executeQuery()) {
            return rs.next() && shape.equals(rs.getString(1));
        }
    }

    /** The statements this writer prepared, closed. */
    void close() throws SQLException {
        if (add != null) {
            add.close();
            read.close();
            add = null;
            read = null;
        }
    }

    /** The short text of {@code whole}, whose values {@link #cuts} holds, under shape {@code number}. */
    private byte[] shortText(byte[] whole, long number) {
        int signatureEnd = fieldEnd(whole, 0);
        // the text: the mark, the number, the signature field as it is, each value
        byte[] digits = number == lastNumber ? lastDigits : Long.toString(number).getBytes(StandardCharsets.US_ASCII);
        int length = 1 + digits.length + 1 + signatureEnd;
        int values = cutCount;
        for (int i = 0; i < values; i++) {
            int value = cuts[2 * i + 1] - cuts[2 * i];
            length += SignatureFields.fieldSize(value, value);
        }
        byte[] text = new byte[length];
        text[0] = (byte) MARK;
        System.arraycopy(digits, 0, text, 1, digits.length);
        int at = 1 + digits.length;
        text[at++] = ':';
        System.arraycopy(whole, 0, text, at, signatureEnd);
        at += signatureEnd;
        for (int i = 0; i < values; i++) {
            at = put(text, at, whole, cuts[2 * i], cuts[2 * i + 1]);
        }
        return text;
    }

    /**
     * The whole text ({@link SignatureFields#text}) of a short one, {@code shortText}, whose shape is {@code shape}.
     *
     * @throws IllegalArgumentException when the two do not make one (a shape missing: null)
     */
    static String expand(String shortText, String shape) {
        if (shape == null) {
            throw new IllegalArgumentException("the shape of a waiting signature is missing");
        }
        int colon = shortText.indexOf(':');
        if (shortText.isEmpty() || shortText.charAt(0) != MARK || colon < 0) {
            throw new IllegalArgumentException("not a short signature text");
        }
        int[] at = {colon + 1};
        String signature = field(shortText, at);
        java.util.List<String> values = new java.util.ArrayList<>(CUT.length);
        while (at[0] < shortText.length()) {
            values.add(field(shortText, at));
        }
        int[] in = {0};
        String agent = field(shape, in);
        StringBuilder input = new StringBuilder(shape.length() + shortText.length());
        input.append(field(shape, in));
        for (String value : values) {
            if (in[0] >= shape.length()) {
                throw new IllegalArgumentException("a short signature text holds more values than its shape has room for");
            }
            input.append(value).append(field(shape, in));
        }
        if (in[0] != shape.length()) {
            throw new IllegalArgumentException("a short signature text holds fewer values than its shape has room for");
        }
        return signature.length() + ":" + signature + input.length() + ":" + input + agent.length() + ":" + agent;
    }

    /** The field at {@code at[0]} of {@code text} (a length, a colon, itself), {@code at[0]} moved past it. */
    private static String field(String text, int[] at) {
        int colon = text.indexOf(':', at[0]);
        if (colon <= at[0]) {
            throw new IllegalArgumentException("a signature text is cut short");
        }
        int length = Integer.parseInt(text, at[0], colon, 10);
        if (length < 0 || colon + 1 + length > text.length()) {
            throw new IllegalArgumentException("a signature text is cut short");
        }
        at[0] = colon + 1 + length;
        return text.substring(colon + 1, at[0]);
    }

    /** The end of the field of {@code t} at {@code at} (a length, a colon, itself), or -1 when absent or not one. */
    private static int fieldEnd(byte[] t, int at) {
        int length = 0;
        int i = at;
        while (i < t.length && t[i] >= '0' && t[i] <= '9' && i - at < 9) {
            length = length * 10 + (t[i++] - '0');
        }
        if (i == at || i >= t.length || t[i] != ':' || length == 0) {
            return -1;
        }
        int end = i + 1 + length;
        return end <= t.length ? end : -1;
    }

    /** Where the value of the field at {@code at} starts (its length's colon passed). */
    private static int valueFrom(byte[] t, int at) {
        int i = at;
        while (t[i] != ':') {
            i++;
        }
        return i + 1;
    }

    /** Writes {@code from[start, end)} into {@code to} at {@code at} as a field: its length, a colon, itself. Returns the end. */
    private static int put(byte[] to, int at, byte[] from, int start, int end) {
        int length = end - start;
        at = SignatureFields.putField(to, at, length, from, start, length);
        return at;
    }

    /** The shape's number: the first 63 bits of its SHA-256. */
    static long numberOf(byte[] shape) {
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
