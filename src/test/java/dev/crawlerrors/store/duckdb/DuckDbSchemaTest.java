package dev.crawlerrors.store.duckdb;

import static dev.crawlerrors.crawler.SampleHits.VERIFIED;
import static dev.crawlerrors.crawler.SampleHits.googlebot;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
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
}
