package dev.crawlerrors.store.duckdb;

import static dev.crawlerrors.crawler.SampleHits.VERIFIED;
import static dev.crawlerrors.crawler.SampleHits.googlebot;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.UrlCount;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A store an earlier version made opens as it is, its claims numbered and its verdicts kept. */
class DuckDbSchemaTest {

    @TempDir
    Path dir;

    @Test
    void aVersionOneStoreIsMigratedAndReadsAsBefore() throws Exception {
        Path file = dir.resolve("v1.duckdb");
        DuckDbNativeLibrary.prepare();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            // the schema of version 1, as crawl-errors wrote it until the claims were numbered
            st.execute("""
                    CREATE TABLE hits (id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, utc_offset_minutes SMALLINT NOT NULL,
                      ip VARCHAR NOT NULL, method VARCHAR NOT NULL, url VARCHAR NOT NULL, status SMALLINT NOT NULL, bytes BIGINT,
                      duration_ms DOUBLE, crawler VARCHAR NOT NULL, bot_type VARCHAR NOT NULL, user_agent VARCHAR, referer VARCHAR,
                      host VARCHAR);
                    CREATE TABLE verdicts (ip VARCHAR NOT NULL, crawler VARCHAR NOT NULL, verification VARCHAR NOT NULL,
                      reason VARCHAR NOT NULL, checked_at TIMESTAMP NOT NULL, PRIMARY KEY (ip, crawler));
                    CREATE TABLE imports (fingerprint VARCHAR PRIMARY KEY, name VARCHAR NOT NULL, bytes_imported BIGINT NOT NULL,
                      lines_imported BIGINT NOT NULL, imported_at TIMESTAMP NOT NULL);
                    INSERT INTO hits VALUES
                      (1, '2025-05-14 10:00:00', 120, '66.249.66.1', 'GET', '/a', 404, NULL, 0.2, 'Googlebot Desktop', 'crawler_search', 'G', NULL, NULL),
                      (2, '2025-05-14 10:01:00', 120, '203.0.113.9', 'GET', '/fake', 404, NULL, NULL, 'Googlebot Desktop', 'crawler_search', 'G', NULL, NULL),
                      (3, '2025-05-14 10:02:00', 120, '66.249.66.7', 'GET', '/b', 308, NULL, NULL, 'Googlebot Desktop', 'crawler_search', 'G', NULL, NULL);
                    INSERT INTO verdicts VALUES
                      ('66.249.66.1', 'Googlebot Desktop', 'verified', 'in common-crawlers.json', now()),
                      ('203.0.113.9', 'Googlebot Desktop', 'spoofed', 'in no Google list', now());
                    """);
        }

        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url, StoredHit::verification, StoredHit::reason)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("/b", "unverified", "not checked yet"),
                            org.assertj.core.groups.Tuple.tuple("/a", "verified", "in common-crawlers.json"));
            HitFilter spoofed = new HitFilter(List.of(), Set.of(), Set.of(Verification.spoofed), null, null, null, null);
            assertThat(store.reader().page(spoofed, 0, 10)).extracting(StoredHit::url).containsExactly("/fake");
            // the store goes on: new hits take the next numbers, a known claim keeps its number
            store.writer().append(List.of(googlebot("2025-05-14T11:03:00Z", "66.249.66.1", "/c", 404, VERIFIED)));
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 1)).extracting(StoredHit::id, StoredHit::url).containsExactly(
                    org.assertj.core.groups.Tuple.tuple(4L, "/c"));
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(DISTINCT claim_id), count(*) FILTER (WHERE claim_id IS NULL),"
                     + " (SELECT value FROM store_meta WHERE key = 'schema_version') FROM hits")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(3);
            assertThat(rs.getLong(2)).isZero();
            assertThat(rs.getString(3)).isEqualTo(Integer.toString(DuckDbSchema.VERSION));
        }
    }
    @Test
    void aVersionThreeStoreGetsTheRedirectTargetsColumnAndKeepsItsHits() throws Exception {
        Path file = dir.resolve("v3.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(googlebot("2025-05-14T10:00:00Z", "66.249.66.1", "/old/1", 301, VERIFIED)));
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            // as version 3 left it: no column of redirect targets
            st.execute("ALTER TABLE hits DROP COLUMN location");
            st.execute("UPDATE store_meta SET value = '3' WHERE key = 'schema_version'");
        }

        CrawlerHit moved = googlebot("2025-05-14T10:01:00Z", "66.249.66.1", "/old/2", 301, VERIFIED);
        Hit withTarget = moved.hit();
        moved = new CrawlerHit(new Hit(withTarget.epochMillis(), withTarget.offsetMinutes(), withTarget.ip(), withTarget.method(),
                withTarget.url(), withTarget.status(), withTarget.bytes(), withTarget.referer(), withTarget.userAgent(),
                withTarget.durationMs(), "www.example.com", null, "/"), moved.crawler(), moved.verdict());
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(moved));
            List<UrlCount> urls = new ArrayList<>();
            store.reader().forEachUrl(HitFilter.ERRORS, HitWindow.at(store.reader().snapshot()), urls::add);
            assertThat(urls).extracting(UrlCount::url, UrlCount::location, UrlCount::host).containsExactlyInAnyOrder(
                    org.assertj.core.groups.Tuple.tuple("/old/1", null, null),
                    org.assertj.core.groups.Tuple.tuple("/old/2", "/", "www.example.com"));
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT value FROM store_meta WHERE key = 'schema_version'")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo(Integer.toString(DuckDbSchema.VERSION));
        }
    }

    @Test
    void aVersionFiveStoreGetsTheSignaturesTablesAndKeepsItsUrlsStart() throws Exception {
        Path file = dir.resolve("v5.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(googlebot("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED)));
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            // as version 5 left it: no table of signature verification
            st.execute("DROP TABLE signature_directories");
            st.execute("DROP TABLE signature_pending");
            st.execute("UPDATE store_meta SET value = '5' WHERE key = 'schema_version'");
        }

        DuckDbHitStore.open(file).close();

        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            assertThat(DuckDbSchema.hasTable(st, "signature_directories")).isTrue();
            assertThat(DuckDbSchema.hasTable(st, "signature_pending")).isTrue();
            assertThat(DuckDbSchema.recordedVersion(st)).isEqualTo(DuckDbSchema.VERSION);
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM store_meta WHERE key = 'url_keyed_from'")) {
                rs.next();
                assertThat(rs.getLong(1)).as("a store of version 5 keeps its URLs' history as it was").isZero();
            }
        }
    }

    @Test
    void aVersionSevenStoreKeepsItsWaitingSignaturesAndKeepsSignedRequestsAsLogged() throws Exception {
        Path file = dir.resolve("v7.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.signatures().keepPending(List.of(dev.crawlerrors.store.SignatureStoreContract.signature("s1", 1_000)));
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            // as version 7 left it: a waiting signature is one checked but for its directory
            st.execute("ALTER TABLE signature_pending DROP COLUMN request");
            st.execute("UPDATE store_meta SET value = '7' WHERE key = 'schema_version'");
        }

        for (int open = 0; open < 2; open++) {
            try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
                assertThat(store.signatures().pending(10)).containsExactly(dev.crawlerrors.store.SignatureStoreContract.signature("s1", 1_000));
            }
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            dev.crawlerrors.store.StoredSignature logged = new dev.crawlerrors.store.StoredSignature("r2", "66.1.2.3", "ChatGPT agent\u001fpending r2",
                    "", "", null, "", "", 2_000, "3:GET");
            store.signatures().keepPending(List.of(logged));
            assertThat(store.signatures().pending(10)).extracting(dev.crawlerrors.store.StoredSignature::request).containsExactly(null, "3:GET");
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            assertThat(DuckDbSchema.recordedVersion(st)).isEqualTo(DuckDbSchema.VERSION);
        }
    }

    @Test
    void aVersionNineStoreGetsTheHitsSignatureColumnAndKeepsItsWaitingSignaturesAndUrlTimes() throws Exception {
        Path file = dir.resolve("v9.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(googlebot("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED),
                    googlebot("2025-05-14T10:01:00Z", "66.249.66.1", "/b", 404, VERIFIED)));
            store.writer().flush();
            store.reader().page(HitFilter.ERRORS, 0, 10); // the URLs' states folded
            store.signatures().keepPending(List.of(dev.crawlerrors.store.SignatureStoreContract.signature("s1", 1_000)));
        }
        long times;
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            // as version 9 left it: no hit's signature waits in its row
            st.execute("ALTER TABLE hits DROP COLUMN sig");
            st.execute("UPDATE store_meta SET value = '9' WHERE key = 'schema_version'");
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM url_times")) {
                rs.next();
                times = rs.getLong(1);
            }
        }

        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThat(store.signatures().pending(10)).containsExactly(dev.crawlerrors.store.SignatureStoreContract.signature("s1", 1_000));
            assertThat(store.signatures().pendingCount()).isEqualTo(1);
            store.writer().append(List.of(googlebot("2025-05-14T10:02:00Z", "66.249.66.1", "/c", 404, VERIFIED), waitingInRow()));
            store.writer().flush();
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(dev.crawlerrors.store.StoredHit::url)
                    .containsExactly("/signed", "/c", "/b", "/a");
            assertThat(store.signatures().pendingCount()).isEqualTo(2);
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            assertThat(DuckDbSchema.recordedVersion(st)).isEqualTo(DuckDbSchema.VERSION);
            assertThat(DuckDbSchema.hasColumn(st, "hits", "sig")).isTrue();
            assertThat(sigCompression(st)).as("the column the upgrade added").containsExactly("Uncompressed");
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM url_times WHERE i < (SELECT max(id) - 1 FROM hits)")) { // the two appended after
                rs.next();
                assertThat(rs.getLong(1)).as("the hits in time order, as they were").isEqualTo(times);
            }
        }
    }

    @Test
    void aSignatureWaitingInItsHitsRowIsStoredUncompressed() throws Exception {
        // it lives until serve checks it; compressing it at the import's checkpoint was CPU spent on text soon NULL
        Path file = dir.resolve("fresh.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            List<CrawlerHit> hits = new ArrayList<>();
            for (int i = 0; i < 3_000; i++) {
                hits.add(waitingInRow());
            }
            store.writer().append(hits);
            store.writer().flush();
            assertThat(store.signatures().pendingCount()).isEqualTo(3_000);
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            assertThat(sigCompression(st)).containsExactly("Uncompressed");
        }
    }

    /** A ChatGPT agent's hit whose signature waits in its row, as an import of many signed lines leaves it. */
    private static CrawlerHit waitingInRow() {
        dev.crawlerrors.ingest.SignatureFields fields = new dev.crawlerrors.ingest.SignatureFields("sig1=:" + "A".repeat(86) + "==:",
                "sig1=(\"@method\" \"@authority\" \"@path\" \"signature-agent\";key=\"sig1\");created=1747216920;expires=1747216980"
                        + ";keyid=\"9AlGo-yIIptE2uusuRRQTki3mVnE32qRpma0_chIECs\";alg=\"ed25519\";tag=\"web-bot-auth\"",
                "sig1=\"https://chatgpt.com\"");
        Hit hit = new Hit(1_747_216_950_000L, 0, "20.171.207.1", "GET", "/signed", 404, -1, null, "Mozilla/5.0 Chrome/131.0",
                Double.NaN, "www.example.com", null, fields);
        dev.crawlerrors.crawler.Crawler agent = dev.crawlerrors.crawler.CrawlerCatalog.builtIn().crawler("ChatGPT agent").orElseThrow();
        CrawlerHit waiting = new CrawlerHit(hit, agent, new dev.crawlerrors.crawler.Verdict(Verification.unverified, "pending"),
                CrawlerHit.claimKey(hit.ip(), CrawlerHit.signedClaim(agent.name(), CrawlerHit.WAITING_IN_ROWS)));
        assertThat(waiting.waitsInRow()).isTrue();
        return waiting;
    }

    /** How the stored segments of {@code hits.sig} are compressed (after a checkpoint: the store's close). */
    private static List<String> sigCompression(Statement st) throws Exception {
        List<String> compressions = new ArrayList<>();
        try (ResultSet rs = st.executeQuery("SELECT DISTINCT compression FROM pragma_storage_info('hits')"
                + " WHERE column_name = 'sig' AND segment_type = 'VARCHAR'")) {
            while (rs.next()) {
                compressions.add(rs.getString(1));
            }
        }
        return compressions;
    }
}
