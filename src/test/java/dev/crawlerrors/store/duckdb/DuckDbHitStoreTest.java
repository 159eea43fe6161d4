package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.StoredVerdict;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DuckDbHitStoreTest {

    static final Crawler GOOGLEBOT = new Crawler("Googlebot Desktop", "Google", BotType.crawler_search,
            List.of("Googlebot"), null, List.of("common-crawlers.json"), null);
    static final Verdict VERIFIED = new Verdict(Verification.verified, "in common-crawlers.json 66.249.66.0/27");

    @TempDir
    Path dir;

    static CrawlerHit hit(String time, String ip, String url, int status, Verdict verdict) {
        Hit hit = new Hit(Instant.parse(time).toEpochMilli(), 120, ip, "GET", url, status, -1, null, "Googlebot", Double.NaN, null);
        return new CrawlerHit(hit, GOOGLEBOT, verdict);
    }

    /** Where a log's reading starts before anything of it is recorded. */
    static SourceProgress start(String key, String name) {
        return new SourceProgress(key, name, 0, 0);
    }

    @Test
    void keepsHitsAcrossReopeningAndContinuesTheirIds() {
        Path file = dir.resolve("store.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED)));
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/b", 404, VERIFIED)));

            List<StoredHit> rows = store.reader().page(HitFilter.ERRORS, 0, 10);

            assertThat(rows).extracting(StoredHit::url).containsExactly("/b", "/a");
            assertThat(rows).extracting(StoredHit::id).containsExactly(2L, 1L);
        }
    }

    @Test
    void aProvisionalVerdictArrivingAfterTheFinalOneDoesNotOverwriteIt() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            Verdict provisional = new Verdict(Verification.unverified, "claims Googlebot; reverse DNS check pending");
            store.verdicts().update("66.249.66.9", "Googlebot Desktop", VERIFIED);
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.9", "/a", 404, provisional)));

            assertThat(store.reader().page(HitFilter.ERRORS, 0, 1).get(0).verification()).isEqualTo("verified");
            assertThat(store.verdicts().of(Verification.verified)).extracting(StoredVerdict::ip).containsExactly("66.249.66.9");
            assertThat(store.verdicts().of(Verification.unverified)).isEmpty();
        }
    }

    @Test
    void storesUrlsAndAgentsExactlyAsGiven() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            String url = "/<script>alert('x')</script>?q=\"1\";DROP TABLE hits";
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", url, 404, VERIFIED)));

            assertThat(store.reader().page(HitFilter.ERRORS, 0, 1).get(0).url()).isEqualTo(url);
        }
    }

    @Test
    void storesEveryFieldOfAHitIncludingNullsAndTextBeyondAscii() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            Hit full = new Hit(Instant.parse("2025-05-14T10:00:00.123Z").toEpochMilli(), -330, "2001:4860:4801:10::1", "PROPFIND",
                    "/café/€?q=日本語", 503, 1234, "https://example.org/ä", "Googlebot/2.1 (ünïcödé 😀)", 12.5, "www.example.org");
            Hit bare = new Hit(Instant.parse("2025-05-14T10:00:01Z").toEpochMilli(), 0, "66.249.66.1", "", "/", 404, -1, null,
                    null, Double.NaN, null);
            store.writer().append(List.of(new CrawlerHit(full, GOOGLEBOT, VERIFIED), new CrawlerHit(bare, GOOGLEBOT, VERIFIED)));

            List<StoredHit> rows = store.reader().page(HitFilter.ERRORS, 0, 10);

            assertThat(rows).containsExactly(
                    new StoredHit(2, bare.epochMillis(), 0, "66.249.66.1", "", "/", 404, null, "Googlebot Desktop",
                            "crawler_search", "verified", VERIFIED.reason(), null, null),
                    new StoredHit(1, full.epochMillis(), -330, "2001:4860:4801:10::1", "PROPFIND", "/café/€?q=日本語", 503, 12.5,
                            "Googlebot Desktop", "crawler_search", "verified", VERIFIED.reason(), "Googlebot/2.1 (ünïcödé 😀)",
                            "www.example.org"));
        }
    }

    @Test
    void storesTheNumbersOfAHitAsGivenAndNullOnlyWhereTheLogHasNone() throws Exception {
        Path file = dir.resolve("store.duckdb");
        long time = Instant.parse("2025-05-14T10:00:00Z").toEpochMilli();
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(
                    new CrawlerHit(new Hit(time, -720, "66.249.66.1", "GET", "/", 599, 0, null, null, 0.0, null), GOOGLEBOT, VERIFIED),
                    new CrawlerHit(new Hit(time + 1, 840, "66.249.66.1", "GET", "/", 100, 9_876_543_210L, null, null, 0.25, null),
                            GOOGLEBOT, VERIFIED),
                    new CrawlerHit(new Hit(time + 2, 0, "66.249.66.1", "GET", "/", 404, -1, null, null, Double.NaN, null),
                            GOOGLEBOT, VERIFIED)));
        }
        DuckDbNativeLibrary.prepare();
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT id, epoch_ms(ts), utc_offset_minutes, status, bytes, duration_ms FROM hits ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getLong(1) + " " + (rs.getLong(2) - time) + " " + rs.getObject(3) + " " + rs.getObject(4) + " "
                        + rs.getObject(5) + " " + rs.getObject(6));
            }
        }
        assertThat(rows).containsExactly("1 0 -720 599 0 0.0", "2 1 840 100 9876543210 0.25", "3 2 0 404 null null");
    }

    @Test
    void twoStoresOpenAtOnceEachWriteTheirOwnHits() {
        try (DuckDbHitStore one = DuckDbHitStore.open(dir.resolve("one.duckdb"));
                DuckDbHitStore two = DuckDbHitStore.open(dir.resolve("two.duckdb"))) {
            one.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/one", 404, VERIFIED)));
            two.writer().append(List.of(hit("2025-05-14T10:00:00Z", "66.249.66.2", "/two", 404, VERIFIED),
                    hit("2025-05-14T10:00:01Z", "66.249.66.2", "/two-again", 404, VERIFIED)));

            assertThat(one.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/one");
            assertThat(two.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/two-again", "/two");
        }
    }
}
