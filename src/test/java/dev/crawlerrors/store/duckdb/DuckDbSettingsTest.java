package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.sitemap.SitemapUrl;
import dev.crawlerrors.store.RandomHistories;
import dev.crawlerrors.store.SitemapWrite;
import dev.crawlerrors.store.StoredSitemap;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every store opened has a bound: the memory and threads the options give reach DuckDB. */
class DuckDbSettingsTest {

    @TempDir
    Path dir;

    @Test
    void theMemoryLimitAndThreadsGivenReachDuckDb() {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("a.duckdb"), new DuckDbSettings(1, "123MB", 2))) {
            assertThat(store.setting("threads")).isEqualTo("1");
            // DuckDB shows 123 MB in binary units
            assertThat(store.setting("memory_limit")).isEqualTo("117.3 MiB");
            assertThat(store.describeLimits()).isEqualTo("DuckDB memory limit 117.3 MiB, 1 thread");
        }
    }

    @Test
    void aServedStoreIsBoundedByDefault() {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("b.duckdb"))) {
            assertThat(store.setting("memory_limit")).isEqualTo("244.1 MiB");
            assertThat(store.setting("block_allocator_memory")).as("nothing kept for good").isEqualTo("0 bytes");
        }
    }

    @Test
    void aServedStoreGivesBackTheMemoryDuckDbFrees() {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("d.duckdb"))) {
            // DuckDB's allocator purges its freed pages in the background, not only as it allocates again
            assertThat(store.setting("allocator_background_threads")).isEqualTo("true");
        }
        assertThat(DuckDbSettings.SERVE.giveBack()).isTrue();
        assertThat(DuckDbSettings.IMPORT.giveBack()).isFalse();
        assertThat(DuckDbSettings.SERVE.with(new dev.crawlerrors.store.StoreLimits(1, "64MB", 2)).giveBack()).isTrue();
    }

    @Test
    void anImportIsBoundedBelowAServer() {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("c.duckdb"), DuckDbSettings.IMPORT)) {
            // 64 MB in DuckDB's binary units while hits are appended, of the import's 192MB: less than a served store's 244.1 MiB
            assertThat(store.setting("memory_limit")).isEqualTo("61.0 MiB");
            // three quarters of it kept by DuckDB's block allocator (48 MB)
            assertThat(store.setting("block_allocator_memory")).isEqualTo("45.7 MiB");
            assertThat(store.setting("threads")).isEqualTo("1");
        }
        assertThat(DuckDbSettings.IMPORT.memoryLimit()).isEqualTo("192MB");
        assertThat(DuckDbSettings.IMPORT.appendLimit()).isEqualTo("64MB");
        assertThat(DuckDbSettings.SERVE.appendLimit()).isEqualTo("256MB");
        // a limit given that is lower is kept throughout; a higher one is the folds' that merge
        assertThat(DuckDbSettings.IMPORT.with(new dev.crawlerrors.store.StoreLimits(null, "32MB", null)).appendLimit()).isEqualTo("32MB");
        assertThat(DuckDbSettings.IMPORT.with(new dev.crawlerrors.store.StoreLimits(null, "1GB", null)).appendLimit()).isEqualTo("64MB");
    }

    @Test
    void anImportMergesNewHitsIntoKeptStatesUnderItsWholeLimitAndAppendsUnderTheLowerOne() {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("h.duckdb"), DuckDbSettings.IMPORT)) {
            store.writer().append(RandomHistories.inOrder(36, 1_000, 50));
            store.reader().urlStates().fold(); // the first: its states made under the lower limit
            assertThat(store.setting("memory_limit")).isEqualTo("61.0 MiB");
            store.writer().append(RandomHistories.inOrder(37, 1_000, 50));
            store.writer().flush();
            store.reader().urlStates().fold(); // merged into the kept states
            assertThat(store.setting("memory_limit")).as("set back after the merge").isEqualTo("61.0 MiB");
            assertThat(RandomHistories.all(store.reader(), RandomHistories.scopes().getFirst(), store.reader().snapshot(), 50))
                    .as("states merged").isNotEmpty();
        }
    }

    @Test
    void anImportWritesASitemapsReadUnderALowerMemoryLimitAndSetsItsBack() {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("e.duckdb"), DuckDbSettings.IMPORT)) {
            try (SitemapWrite write = store.sitemaps().replacing("https://example.com/sitemap.xml")) {
                // 24 MB in DuckDB's binary units, for as long as the read's rows are written
                assertThat(store.setting("memory_limit")).isEqualTo("22.8 MiB");
                write.add(new SitemapUrl("example.com", "/a"));
                write.commit(Instant.EPOCH);
            }
            // set back to what an import keeps while it appends
            assertThat(store.setting("memory_limit")).isEqualTo("61.0 MiB");
            assertThat(store.sitemaps().sitemaps()).extracting(StoredSitemap::urls).containsExactly(1L);
            try (SitemapWrite write = store.sitemaps().replacing("https://example.com/sitemap.xml")) {
                write.add(new SitemapUrl("example.com", "/b"));
            } // dropped: the limit is set back all the same
            assertThat(store.setting("memory_limit")).isEqualTo("61.0 MiB");
        }
    }

    @Test
    void aServedStoreOrALowerLimitGivenKeepsItsLimitWhileASitemapIsWritten() {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("f.duckdb"));
             SitemapWrite write = store.sitemaps().replacing("https://example.com/sitemap.xml")) {
            // a report's queries share the limit: it stays the server's
            assertThat(store.setting("memory_limit")).isEqualTo("244.1 MiB");
        }
        DuckDbSettings low = DuckDbSettings.IMPORT.with(new dev.crawlerrors.store.StoreLimits(null, "20MB", null));
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("g.duckdb"), low);
             SitemapWrite write = store.sitemaps().replacing("https://example.com/sitemap.xml")) {
            assertThat(store.setting("memory_limit")).isEqualTo("19.0 MiB");
        }
    }

    @Test
    void refusesAMemoryLimitWithoutAUnit() {
        assertThatThrownBy(() -> new DuckDbSettings(0, "512", 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a memory limit is a number and a unit such as 512MB or 2GB; got '512'");
    }
}
