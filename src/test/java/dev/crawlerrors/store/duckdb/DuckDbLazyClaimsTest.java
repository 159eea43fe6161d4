package dev.crawlerrors.store.duckdb;

import static dev.crawlerrors.store.duckdb.DuckDbHitStoreTest.VERIFIED;
import static dev.crawlerrors.store.duckdb.DuckDbHitStoreTest.hit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store opened again reads its claims' numbers (every address and crawler it holds) only when a
 * hit or a verdict is written, not at the opening: a serve's first page does not wait for them.
 * What is written after that late read still finds every claim the store holds, and the verdicts'
 * history, read at the opening, still answers each hit's verdict and reason.
 */
class DuckDbLazyClaimsTest {

    private static final Verdict SPOOFED = new Verdict(Verification.spoofed, "not in common-crawlers.json");
    private static final Verdict OTHER_RANGE = new Verdict(Verification.verified, "in common-crawlers.json 66.249.64.0/19");

    @TempDir
    Path dir;

    @Test
    void aStoreOpenedAgainServesPagesWithoutReadingItsClaimsNumbers() {
        Path file = dir.resolve("store.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED),
                    hit("2025-05-14T10:01:00Z", "66.249.66.2", "/b", 404, SPOOFED)));
            store.writer().flush();
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            DuckDbHitWriter writer = (DuckDbHitWriter) store.writer();
            assertThat(writer.claimIdsLoaded()).isFalse();

            List<StoredHit> page = store.reader().page(HitFilter.ERRORS.withVerifications(java.util.EnumSet.allOf(Verification.class)), 0, 100);

            assertThat(page).extracting(StoredHit::url).containsExactly("/b", "/a");
            assertThat(writer.claimIdsLoaded()).as("a page needs no claim numbers").isFalse();
        }
    }

    @Test
    void hitsAndVerdictsWrittenAfterTheLateReadFindTheClaimsAndTheirHistory() throws SQLException {
        Path file = dir.resolve("store.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED),
                    hit("2025-05-14T10:01:00Z", "66.249.66.2", "/b", 404, SPOOFED),
                    hit("2025-05-14T10:02:00Z", "66.249.66.3", "/c", 404, OTHER_RANGE)));
            store.writer().flush();
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            long verdictsBefore = store.reader().snapshot().verdicts();
            // the same verdict again records nothing: the claim is found, and its latest verdict with it
            store.verdicts().update("66.249.66.1", "Googlebot Desktop", VERIFIED);
            store.verdicts().commit();
            assertThat(((DuckDbHitWriter) store.writer()).claimIdsLoaded()).isTrue();
            assertThat(store.reader().snapshot().verdicts()).isEqualTo(verdictsBefore);

            // a known claim's new hit takes its number, a new claim the next one; a changed verdict moves every hit of its claim
            store.writer().append(List.of(
                    hit("2025-05-14T11:00:00Z", "66.249.66.2", "/b2", 404, VERIFIED),
                    hit("2025-05-14T11:01:00Z", "66.249.66.4", "/d", 404, VERIFIED)));
            store.verdicts().update("66.249.66.3", "Googlebot Desktop", SPOOFED);
            store.writer().flush();

            Map<String, StoredHit> byUrl = store.reader()
                    .page(HitFilter.ERRORS.withVerifications(java.util.EnumSet.allOf(Verification.class)), 0, 100).stream()
                    .collect(Collectors.toMap(StoredHit::url, hit -> hit));
            assertThat(byUrl).containsOnlyKeys("/a", "/b", "/c", "/b2", "/d");
            assertThat(byUrl.get("/a").reason()).isEqualTo(VERIFIED.reason());
            assertThat(byUrl.get("/b").verification()).as("the claim's verdict, not the hit's").isEqualTo("spoofed");
            assertThat(byUrl.get("/b2").verification()).isEqualTo("spoofed");
            assertThat(byUrl.get("/c").verification()).isEqualTo("spoofed");
            assertThat(byUrl.get("/d").reason()).isEqualTo(VERIFIED.reason());
        }
        assertThat(claims(file)).as("one number per address and crawler").isEqualTo(4);
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            // and the history read at the next opening gives each hit its verdict as of a snapshot
            Map<String, StoredHit> byUrl = store.reader()
                    .page(HitFilter.ERRORS.withVerifications(java.util.EnumSet.allOf(Verification.class)), 0, 100).stream()
                    .collect(Collectors.toMap(StoredHit::url, hit -> hit));
            assertThat(byUrl.get("/a").reason()).isEqualTo(VERIFIED.reason());
            assertThat(byUrl.get("/c").verification()).isEqualTo("spoofed");
            assertThat(byUrl.get("/c").reason()).isEqualTo(SPOOFED.reason());
            assertThat(byUrl.get("/d").verification()).isEqualTo("verified");
        }
    }

    private static long claims(Path file) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath()); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(DISTINCT claim_id) FROM verdicts")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
