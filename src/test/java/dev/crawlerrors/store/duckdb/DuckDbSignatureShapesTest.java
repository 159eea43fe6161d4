package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SignatureFields;
import dev.crawlerrors.ingest.SignatureShape;
import dev.crawlerrors.store.DamagedStoreException;
import dev.crawlerrors.store.StoredSignature;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The text a signed hit waits with in its row, written short ({@link DuckDbSignatureShapes}): read back
 * whole, byte for byte, whatever the fields hold; a shape's number that the store holds for another
 * shape, and shapes past the bound, leave the text whole.
 */
class DuckDbSignatureShapesTest {

    private static final String INPUT = "sig1=(\"@method\" \"@authority\" \"@path\" \"signature-agent\";key=\"sig1\");created=%d;expires=%d"
            + ";keyid=\"9AlGo-yIIptE2uusuRRQTki3mVnE32qRpma0_chIECs\";alg=\"ed25519\";nonce=\"%s\";tag=\"web-bot-auth\"";

    @TempDir
    Path dir;

    @Test
    void aSignersLinesWaitShortInTheirRowsAndAreReadBackWhole() throws Exception {
        Path file = dir.resolve("s.duckdb");
        List<CrawlerHit> hits = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            String agent = i % 3 == 0 ? "sig1=\"https://agent.bot.goog\"" : "sig1=\"https://chatgpt.com\"";
            hits.add(waitingInRow(i, new SignatureFields("sig1=:" + signature(i) + ":",
                    INPUT.formatted(1_747_216_920L + i, 1_747_216_980L + i, nonce(i)), agent)));
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(hits);
            store.writer().flush();
            assertThat(store.signatures().pendingCount()).isEqualTo(3_000);
            assertRequests(store.signatures().pending(5_000), hits);
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            assertThat(longs(st, "SELECT count(*) FROM sig_shapes")).as("one shape a signer").isEqualTo(2);
            assertThat(longs(st, "SELECT count(*) FROM hits WHERE sig NOT LIKE '~%'")).isZero();
            long whole = 0;
            for (CrawlerHit hit : hits) {
                whole += hit.hit().signed().textUtf8().length;
            }
            assertThat(longs(st, "SELECT sum(length(sig)) FROM hits")).as("short: 3/5 of %d", whole).isLessThan(whole * 3 / 5);
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertRequests(store.signatures().pending(5_000), hits);
            // a second writer meets the shapes it did not add: the same numbers, no new row
            store.writer().append(hits.subList(0, 10));
            store.writer().flush();
            assertThat(store.signatures().pendingCount()).isEqualTo(3_010);
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            assertThat(longs(st, "SELECT count(*) FROM sig_shapes")).isEqualTo(2);
        }
    }

    @Test
    void textsAreCutAndPutBackByteForByte() throws Exception {
        try (DuckDBConnection c = memory()) {
            DuckDbSignatureShapes shapes = new DuckDbSignatureShapes(c);
            List<SignatureFields> all = new ArrayList<>();
            all.add(new SignatureFields("sig1=:AAEC:", INPUT.formatted(1L, 2L, "n"), "sig1=\"https://chatgpt.com\""));
            // the draft's order, a value at the end, one name twice, values empty, none of them, a name in a string
            all.add(new SignatureFields("sig1=:AAEC:", "sig1=(\"@authority\");created=1735689600;keyid=\"k\";alg=\"ed25519\""
                    + ";expires=1735693200;nonce=\"abc\";tag=\"web-bot-auth\"", "\"https://a.example\""));
            all.add(new SignatureFields("s", "sig1=();nonce=\"x\";created=3;expires=", "a"));
            all.add(new SignatureFields("s", "sig1=();created=1;created=2;nonce=;nonce=\"z\"", "a"));
            all.add(new SignatureFields("s", "sig1=(\"@query-param\";name=\"nonce\");tag=\"web-bot-auth\"", "a"));
            all.add(new SignatureFields("s", ";created=", "a"));
            all.add(new SignatureFields("s", "x;nonce=1:2:3;expires=-1:", "a"));
            // not cut: a field absent, a byte past ASCII
            all.add(new SignatureFields(null, INPUT.formatted(1L, 2L, "n"), "a"));
            all.add(new SignatureFields("s", INPUT.formatted(1L, 2L, "n"), null));
            all.add(new SignatureFields("s", INPUT.formatted(1L, 2L, "h\u00e9"), "a"));
            SplittableRandom random = new SplittableRandom(11);
            String[] pieces = {";created=", ";expires=", ";nonce=", ";", ":", "=", "\"", "0", "17", "-1:", "a", "sig1=", "(", ")", ""};
            for (int n = 0; n < 3_000; n++) {
                all.add(new SignatureFields(random(random, pieces), random(random, pieces), random(random, pieces)));
            }
            int cut = 0;
            for (int i = 0; i < all.size(); i++) {
                SignatureFields fields = all.get(i);
                if (i % 50 == 0) {
                    shapes = new DuckDbSignatureShapes(c); // a writer adds some dozens of shapes at most
                }
                byte[] whole = fields.textUtf8();
                byte[] written = DuckDbSignatureShapes.ascii(whole) ? shapes.text(whole) : whole; // as the writer's texts()
                String text = new String(written, StandardCharsets.UTF_8);
                if (text.charAt(0) == SignatureShape.MARK) {
                    cut++;
                    assertThat(SignatureShape.expand(text, shape(c, text))).as(fields.toString()).isEqualTo(fields.text());
                } else {
                    assertThat(written).as(fields.toString()).isEqualTo(whole);
                }
            }
            assertThat(cut).isGreaterThan(1_000);
            assertThat(shapes.text(all.get(7).textUtf8())).isEqualTo(all.get(7).textUtf8());
            assertThat(DuckDbSignatureShapes.ascii(all.get(9).textUtf8())).isFalse();
            assertThat(new String(shapes.text(all.get(0).textUtf8()), StandardCharsets.UTF_8)).startsWith("~");
        }
    }

    @Test
    void aNumberTheStoreHoldsForAnotherShapeIsNotUsed() throws Exception {
        try (DuckDBConnection c = memory()) {
            SignatureFields fields = new SignatureFields("sig1=:AAEC:", INPUT.formatted(1L, 2L, "n"), "sig1=\"https://chatgpt.com\"");
            long number = numberOfShape(c, fields);
            try (Statement st = c.createStatement()) {
                st.execute("DELETE FROM sig_shapes");
                st.execute("INSERT INTO sig_shapes VALUES (" + number + ", '9:x;nonce=y')"); // a hostile line's shape, same number
            }
            DuckDbSignatureShapes shapes = new DuckDbSignatureShapes(c);
            assertThat(shapes.text(fields.textUtf8())).isEqualTo(fields.textUtf8());
            assertThat(shapes.text(fields.textUtf8())).isEqualTo(fields.textUtf8());
            // another signer's shape is kept as ever
            SignatureFields other = new SignatureFields("sig1=:AAEC:", INPUT.formatted(1L, 2L, "n"), "sig1=\"https://agent.bot.goog\"");
            assertThat(new String(shapes.text(other.textUtf8()), StandardCharsets.UTF_8)).startsWith("~");
        }
    }

    @Test
    void oneWriterAddsABoundedNumberOfShapes() throws Exception {
        try (DuckDBConnection c = memory()) {
            DuckDbSignatureShapes shapes = new DuckDbSignatureShapes(c);
            for (int i = 0; i < DuckDbSignatureShapes.MAX_SHAPES + 10; i++) {
                SignatureFields fields = new SignatureFields("sig1=:AAEC:", INPUT.formatted(1L, 2L, "n"), "\"https://a" + i + ".example\"");
                String text = new String(shapes.text(fields.textUtf8()), StandardCharsets.UTF_8);
                assertThat(text.charAt(0) == SignatureShape.MARK).as("shape %d", i).isEqualTo(i < DuckDbSignatureShapes.MAX_SHAPES);
            }
            try (Statement st = c.createStatement()) {
                assertThat(longs(st, "SELECT count(*) FROM sig_shapes")).isEqualTo(DuckDbSignatureShapes.MAX_SHAPES);
            }
        }
    }

    @Test
    void shapesOfATransactionThatRolledBackAreAddedAgain() throws Exception {
        try (DuckDBConnection c = memory()) {
            DuckDbSignatureShapes shapes = new DuckDbSignatureShapes(c);
            SignatureFields fields = new SignatureFields("sig1=:AAEC:", INPUT.formatted(1L, 2L, "n"), "sig1=\"https://chatgpt.com\"");
            c.setAutoCommit(false);
            shapes.text(fields.textUtf8());
            c.rollback();
            shapes.forget();
            String text = new String(shapes.text(fields.textUtf8()), StandardCharsets.UTF_8);
            c.commit();
            c.setAutoCommit(true);
            assertThat(SignatureShape.expand(text, shape(c, text))).isEqualTo(fields.text());
        }
    }

    @Test
    void aShortTextWhoseShapeIsGoneIsADamagedStoresAndNoCrash() throws Exception {
        Path file = dir.resolve("s.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(waitingInRow(1, new SignatureFields("sig1=:AAEC:", INPUT.formatted(1L, 2L, "n"), "\"https://chatgpt.com\""))));
            store.writer().flush();
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            st.execute("DELETE FROM sig_shapes");
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThatThrownBy(() -> store.signatures().pending(10)).isInstanceOf(DamagedStoreException.class)
                    .hasMessageContaining("its shape does not make whole");
        }
        assertThatThrownBy(() -> SignatureShape.expand("~1:1:s1:x", "1:a1:p1:q1:r")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SignatureShape.expand("~1:1:s1:x1:y", "1:a1:p1:q")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SignatureShape.expand("~1:9:s", "1:a1:p")).isInstanceOf(IllegalArgumentException.class);
    }

    private static void assertRequests(List<StoredSignature> pending, List<CrawlerHit> hits) {
        List<String> expected = new ArrayList<>();
        for (CrawlerHit hit : hits) {
            Hit h = hit.hit();
            expected.add(h.signed().request(h.method(), h.host(), h.url(), h.durationMs()));
        }
        assertThat(pending).extracting(StoredSignature::request).containsExactlyInAnyOrderElementsOf(expected);
    }

    /** A ChatGPT agent's hit with {@code fields}, its signature waiting in its row, as an import of many signed lines leaves it. */
    private static CrawlerHit waitingInRow(int i, SignatureFields fields) {
        Hit hit = new Hit(1_747_216_950_000L + i, 0, "20.171.207." + (i % 200), "GET", "/signed/" + i, 404, -1, null, "Mozilla/5.0 Chrome/131.0",
                Double.NaN, "www.example.com", null, fields);
        Crawler agent = CrawlerCatalog.builtIn().crawler("ChatGPT agent").orElseThrow();
        CrawlerHit waiting = new CrawlerHit(hit, agent, new Verdict(Verification.unverified, "pending"),
                CrawlerHit.claimKey(hit.ip(), CrawlerHit.signedClaim(agent.name(), CrawlerHit.WAITING_IN_ROWS)));
        assertThat(waiting.waitsInRow()).isTrue();
        return waiting;
    }

    private static String signature(int i) {
        return java.util.Base64.getEncoder().encodeToString(java.nio.ByteBuffer.allocate(64).putInt(i).putInt(60, ~i).array());
    }

    private static String nonce(int i) {
        return java.util.Base64.getEncoder().encodeToString(java.nio.ByteBuffer.allocate(32).putInt(31 * i).array());
    }

    private static DuckDBConnection memory() throws SQLException {
        DuckDBConnection c = DriverManager.getConnection("jdbc:duckdb:").unwrap(DuckDBConnection.class);
        try (Statement st = c.createStatement()) {
            st.execute(DuckDbSignatureShapes.TABLE);
        }
        return c;
    }

    /** The number {@code fields}' shape gets, read from the row a writer adds for it. */
    private static long numberOfShape(DuckDBConnection c, SignatureFields fields) throws SQLException {
        String text = new String(new DuckDbSignatureShapes(c).text(fields.textUtf8()), StandardCharsets.UTF_8);
        long number = Long.parseLong(text.substring(1, text.indexOf(':')));
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT shape FROM sig_shapes WHERE id = " + number)) {
            rs.next();
            assertThat(SignatureShape.numberOf(rs.getString(1).getBytes(StandardCharsets.US_ASCII))).isEqualTo(number);
        }
        return number;
    }

    private static String shape(Connection c, String shortText) throws SQLException {
        long number = Long.parseLong(shortText.substring(1, shortText.indexOf(':')));
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT shape FROM sig_shapes WHERE id = " + number)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static long longs(Statement st, String query) throws SQLException {
        try (ResultSet rs = st.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String random(SplittableRandom random, String[] pieces) {
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(8); i > 0; i--) {
            text.append(pieces[random.nextInt(pieces.length)]);
        }
        return text.toString();
    }
}
