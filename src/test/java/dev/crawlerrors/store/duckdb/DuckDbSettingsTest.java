package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
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
            // 192 MB in DuckDB's binary units: less than a served store's 244.1 MiB
            assertThat(store.setting("memory_limit")).isEqualTo("183.1 MiB");
            assertThat(store.setting("threads")).isEqualTo("1");
        }
    }

    @Test
    void refusesAMemoryLimitWithoutAUnit() {
        assertThatThrownBy(() -> new DuckDbSettings(0, "512", 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a memory limit is a number and a unit such as 512MB or 2GB; got '512'");
    }
}
