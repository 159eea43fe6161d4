package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.ingest.SignatureFields;
import dev.crawlerrors.ingest.SignatureShape;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
 * The text a signed hit waits with in its row ({@code hits.sig}), written short ({@link SignatureShape}):
 * the line's shape kept once in {@code sig_shapes} under its number, the row keeping the number, the
 * signature and the values that change: some 180 bytes where the whole text takes 430 (ChatGPT agent's).
 * The whole was most of what a signed import wrote: a row group of such rows outgrew an import's 64MB of
 * DuckDB memory, which spilled it to a temporary file and read it back, and DuckDB's string heap, the
 * commit and the file took the rest (BENCHMARKS.md, "The signed import's own cost"). A parser makes the
 * short text of a signed nginx or Apache line itself ({@link SignatureFields#shortUtf8}); other fields'
 * texts are cut here. A whole text starts with a digit or {@code -} ({@link SignatureFields#text}), a
 * short one with {@link SignatureShape#MARK}, so both kinds of row are read ({@link SignatureShape#expand}).
 *
 * <p>A number whose row holds another shape (two shapes of one number, which a hostile log could make on
 * purpose) is not used: its lines are written whole. One writer adds {@link #MAX_SHAPES} shapes at most
 * (a log whose every line has a shape of its own gains nothing from them), then writes whole texts.
 * Shapes are added in the transaction of the rows that use them, and forgotten when it rolls back
 * ({@link #forget}).
 */
final class DuckDbSignatureShapes {

    /** The table of shapes (schema version 11). */
    static final String TABLE = "CREATE TABLE IF NOT EXISTS sig_shapes (id BIGINT PRIMARY KEY, shape VARCHAR NOT NULL);\n";
    /** The shapes one writer adds at most. */
    static final int MAX_SHAPES = 64;

    private final DuckDBConnection connection;
    /** The shapes this writer met whose number the store holds (committed, or in the open transaction): by their bytes. */
    private final Map<ByteBuffer, Long> numbers = new HashMap<>();
    /** Shapes whose number the store holds for another shape, or met past {@link #MAX_SHAPES}. */
    private final Set<ByteBuffer> refused = new HashSet<>();
    /** The last shape met, and whether the store keeps it. */
    private SignatureShape last;
    private boolean lastKept;
    /** Cuts the texts of fields no parser made short (JSON's, W3C's). */
    private final SignatureShape.Maker maker = new SignatureShape.Maker();
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
            SignatureShape shape = fields.shape();
            if (shape != null) {
                // a parser's short text: written as it is when the store keeps its shape under its number
                texts[i] = kept(shape) ? fields.shortUtf8() : fields.textUtf8();
                continue;
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
        last = null;
    }

    /** {@code whole}, every byte of it ASCII, short, or itself when it has no shape or its shape cannot be kept. */
    byte[] text(byte[] whole) throws SQLException {
        SignatureFields made = maker.shorten(whole);
        return made != null && kept(made.shape()) ? made.shortUtf8() : whole;
    }

    /** Whether the store keeps {@code shape} under its number, adding it in the open transaction when first met. */
    private boolean kept(SignatureShape shape) throws SQLException {
        if (shape == last || (last != null && Arrays.equals(shape.bytes(), last.bytes()))) {
            return lastKept;
        }
        ByteBuffer key = ByteBuffer.wrap(shape.bytes());
        boolean kept;
        if (numbers.containsKey(key)) {
            kept = true;
        } else if (refused.contains(key) || numbers.size() >= MAX_SHAPES) {
            kept = false;
        } else if (keep(shape.number(), new String(shape.bytes(), StandardCharsets.ISO_8859_1))) {
            numbers.put(key, shape.number());
            kept = true;
        } else {
            refused.add(key);
            kept = false;
        }
        last = shape;
        lastKept = kept;
        return kept;
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
}
