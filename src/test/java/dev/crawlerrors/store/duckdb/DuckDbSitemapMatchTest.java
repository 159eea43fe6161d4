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

    private static String row(String sitemap, String host, String target, long k, long anyK) {
        return sitemap + " " + host + " " + target + " " + k + " " + anyK;
    }
}
