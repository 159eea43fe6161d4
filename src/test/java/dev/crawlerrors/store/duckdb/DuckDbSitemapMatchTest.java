package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.SampleHits;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.SitemapMatchContract;
import dev.crawlerrors.store.StoredHit;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
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
}
