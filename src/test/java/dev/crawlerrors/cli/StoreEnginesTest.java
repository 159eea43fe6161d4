package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StoreAddress;
import dev.crawlerrors.store.StoreCheck;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoreLimits;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --db} is read once, by the first engine that takes the name, and the commands use what it hands back. */
class StoreEnginesTest {

    @TempDir
    Path dir;

    @Test
    void aClickHouseUrlIsAStoreOnAServerShownWithoutItsLogin() {
        StoreAddress store = StoreEngines.address("ClickHouse://127.0.0.1:8123/crawl?cluster=logs", "reader", "secret");

        assertThat(store.shown()).isEqualTo("clickhouse://127.0.0.1:8123/crawl?cluster=logs");
        assertThat(store.file()).isEmpty();
        assertThat(store.exists()).isTrue();
        assertThat(store.whenMissing()).isEqualTo("its database is made by the first import or serve");
    }

    @Test
    void aClickHouseUrlThatCannotNameAStoreIsRefusedSayingWhatToWrite() {
        assertThatThrownBy(() -> StoreEngines.address("clickhouse://127.0.0.1:8123/", null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("it names no database; write clickhouse://HOST:PORT/DATABASE");
    }

    @Test
    void anyOtherNameIsADuckDbFileNamedAbsolutely() throws Exception {
        Path file = dir.resolve("a/../hits.duckdb");
        StoreAddress store = StoreEngines.address(file.toString(), "ignored", null);

        assertThat(store.shown()).isEqualTo(dir.resolve("hits.duckdb").toString());
        assertThat(store.file()).contains(dir.resolve("hits.duckdb"));
        assertThat(store.exists()).isFalse();
        assertThat(store.check()).isEmpty();
        assertThat(store.whenMissing()).isEqualTo("or set $CRAWL_ERRORS_DB");
    }

    @Test
    void aUrlNoEngineTakesIsRefusedSayingWhatEachTakesWithoutItsPassword() {
        assertThatThrownBy(() -> StoreEngines.address("postgres://crawl:secret@127.0.0.1/db", null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'postgres://127.0.0.1/db' is neither a DuckDB file nor a ClickHouse store; "
                        + "write a file's path, or clickhouse://HOST:PORT/DATABASE");
    }

    @Test
    void aDuckDbStoreOpenedThroughItsAddressIsCheckedThroughIt() {
        StoreAddress address = StoreEngines.address(dir.resolve("hits.duckdb").toString(), null, null);
        try (HitStore store = address.open(new StoreLimits(1, "64MB", 2))) {
            assertThat(store.describe()).endsWith("(DuckDB memory limit 61.0 MiB, 1 thread)");
        }

        StoreCheck checked = address.check().orElseThrow();
        assertThat(checked.contents().hits()).isZero();
        assertThat(checked.currentVersion()).isEqualTo(DuckDbHitStore.SCHEMA_VERSION);
        assertThat(checked.reach()).isNull();
        assertThat(address.exists()).isTrue();
    }

    @Test
    void theDemoMakesItsStoreAfreshOnlyInAFileThatIsNotThere() throws Exception {
        Path file = Files.writeString(dir.resolve("mine.duckdb"), "not the demo's");
        StoreAddress address = StoreEngines.address(file.toString(), null, null);

        assertThatThrownBy(() -> address.openAfresh(StoreLimits.DEFAULTS)).isInstanceOf(StoreException.class)
                .hasMessage("the demo makes its store afresh, and " + file + " exists: give a file that does not, or leave --db out");
        assertThat(Files.readString(file)).isEqualTo("not the demo's");
    }

    @Test
    void aLimitNoEngineCanTakeSaysWhichOne() {
        assertThatThrownBy(() -> new StoreLimits(-1, null, null)).isInstanceOfSatisfying(StoreLimits.Refused.class,
                e -> assertThat(e.limit()).isEqualTo(StoreLimits.Limit.THREADS));
        assertThatThrownBy(() -> new StoreLimits(null, "512", null)).isInstanceOfSatisfying(StoreLimits.Refused.class,
                e -> assertThat(e).hasMessage("a memory limit is a number and a unit such as 512MB or 2GB; got '512'"));
    }
}
