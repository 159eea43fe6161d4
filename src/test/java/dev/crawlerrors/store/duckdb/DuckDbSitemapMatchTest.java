package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.SampleHits;
import dev.crawlerrors.sitemap.SitemapUrl;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.SitemapMatchContract;
import dev.crawlerrors.store.SitemapWrite;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.UrlKey;
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

/** {@code in_sitemap} on the embedded store. */
class DuckDbSitemapMatchTest extends SitemapMatchContract {

    @TempDir
    Path dir;

    @Override
    protected HitStore open() {
        return DuckDbHitStore.inMemory();
    }

    /** A store that kept its sitemaps' URLs without their numbers gets them when opened, and matches as before. */
    @Test
    void urlsKeptWithoutNumbersAreNumberedWhenTheStoreOpens() throws Exception {
        Path file = dir.resolve("store.duckdb");
        try (HitStore store = DuckDbHitStore.open(file)) {
            store.writer().append(List.of(
                    SampleHits.googlebot("2025-05-14T10:00:00Z", "66.249.66.1", "/antwerp/de-keyserlei", 308, SampleHits.VERIFIED),
                    SampleHits.googlebot("2025-05-14T10:01:00Z", "66.249.66.1", "/antwerp/straten/q", 404, SampleHits.VERIFIED)));
            store.writer().flush();
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            // the table as the version before numbers made it
            st.execute("DROP TABLE IF EXISTS sitemap_urls");
            st.execute("CREATE TABLE sitemap_urls (sitemap VARCHAR NOT NULL, host VARCHAR NOT NULL, target VARCHAR NOT NULL)");
            st.execute("CREATE TABLE IF NOT EXISTS sitemap_reads (sitemap VARCHAR PRIMARY KEY, read_at_ms BIGINT NOT NULL, urls BIGINT NOT NULL)");
            st.execute("INSERT INTO sitemap_urls VALUES ('streets', 'www.example.be', '/antwerp/de-keyserlei'), ('streets', 'www.example.be', '/x')");
            st.execute("INSERT INTO sitemap_reads VALUES ('streets', 0, 2)");
        }
        for (int open = 0; open < 2; open++) {
            try (HitStore store = DuckDbHitStore.open(file)) {
                assertThat(store.reader().page(HitFilter.ERRORS.withInSitemap(true), 0, 10)).extracting(StoredHit::url)
                        .containsExactly("/antwerp/de-keyserlei");
                assertThat(store.reader().count(HitFilter.ERRORS.withInSitemap(false))).isEqualTo(1);
            }
        }
    }

    /**
     * Each URL of a read of many batches is kept as one row of its sitemap, host, target and both
     * numbers, in the order read: hosts that change from row to row, targets beyond ASCII, a read
     * after one dropped half-way.
     */
    @Test
    void eachUrlIsKeptWithItsSitemapHostTargetAndNumbers() throws Exception {
        Path file = dir.resolve("rows.duckdb");
        List<String> expected = new ArrayList<>();
        try (HitStore store = DuckDbHitStore.open(file)) {
            try (SitemapWrite dropped = store.sitemaps().replacing("streets")) {
                dropped.add(new SitemapUrl("www.example.be", "/dropped"));
            }
            try (SitemapWrite read = store.sitemaps().replacing("streets")) {
                for (int i = 0; i < 20_000; i++) {
                    String host = i % 3 == 0 ? "shop.example.be" : "www.example.be";
                    String target = i % 2 == 0 ? "/straße/" + i + "?q=é" : "/street/" + i;
                    assertThat(read.add(new SitemapUrl(host, target))).isTrue();
                    expected.add(row("streets", host, target, UrlKey.number(host, target), UrlKey.number("", target)));
                }
                read.commit(Instant.parse("2025-05-14T09:00:00Z"));
            }
        }
        List<String> kept = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT sitemap, host, target, k, any_k FROM sitemap_urls")) {
            while (rs.next()) {
                kept.add(row(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getLong(5)));
            }
        }
        assertThat(kept).containsExactlyElementsOf(expected);
    }

    @Test
    void readsOneAfterAnotherAndTwoAtOnceRegisterNoMoreFunctionsThanRanAtOnce() throws Exception {
        Path file = dir.resolve("functions.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            DuckDbSitemaps sitemaps = (DuckDbSitemaps) store.sitemaps();
            for (int round = 0; round < 30; round++) {
                try (SitemapWrite read = sitemaps.replacing("streets-" + (round % 3))) {
                    for (int i = 0; i <= round * 500; i++) {
                        read.add(new SitemapUrl("www.example.be", "/r" + round + "/" + i));
                    }
                    if (round % 5 == 4) {
                        continue; // dropped: its function is free again too
                    }
                    read.commit(Instant.parse("2025-05-14T09:00:00Z").plusSeconds(round));
                }
            }
            assertThat(sitemaps.functionsRegistered()).as("thirty reads, one at a time").isEqualTo(1);
            try (SitemapWrite first = sitemaps.replacing("a"); SitemapWrite second = sitemaps.replacing("b")) {
                first.add(new SitemapUrl("www.example.be", "/a"));
                second.add(new SitemapUrl("www.example.be", "/b"));
                first.commit(Instant.parse("2025-05-14T10:00:00Z"));
                second.commit(Instant.parse("2025-05-14T10:00:00Z"));
            }
            assertThat(sitemaps.functionsRegistered()).as("two reads at once").isEqualTo(2);
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT sitemap, count(*), min(target), max(target) FROM sitemap_urls GROUP BY sitemap ORDER BY sitemap")) {
            List<String> held = new ArrayList<>();
            while (rs.next()) {
                held.add(rs.getString(1) + " " + rs.getLong(2) + " " + rs.getString(3) + " " + rs.getString(4));
            }
            // each name's last committed read: rounds 27 (streets-0), 28 (streets-1) and 26 (streets-2; 29 was dropped)
            assertThat(held).containsExactly("a 1 /a /a", "b 1 /b /b",
                    "streets-0 13501 /r27/0 /r27/9999", "streets-1 14001 /r28/0 /r28/9999", "streets-2 13001 /r26/0 /r26/9999");
        }
    }

    private static String row(String sitemap, String host, String target, long k, long anyK) {
        return sitemap + " " + host + " " + target + " " + k + " " + anyK;
    }
}
