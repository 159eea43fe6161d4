package dev.crawlerrors.alert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StoredAlert;
import dev.crawlerrors.store.clickhouse.ClickHouseHitStore;
import dev.crawlerrors.store.clickhouse.ClickHouseSettings;
import dev.crawlerrors.store.clickhouse.ClickHouseTestCluster;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The alerts' state kept a batch at a time on both engines: hundreds of records in one write, the
 * next write's records of the same keys taking their place, what is read back the latest of each.
 */
@ClickHouseTest
class AlertStoreTest {

    private static final long NOW = 1_780_000_000_000L;

    private static List<StoredAlert> records(int count, boolean firing, long updated) {
        List<StoredAlert> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(new StoredAlert("new-pattern|CrawlErrorNewPattern|/shelf" + i + "/{x}", firing, NOW, firing ? 0 : updated, updated,
                    "{\"summary\":\"it's shelf " + i + "\"}"));
        }
        return records;
    }

    private static void keepsBatches(HitStore store) {
        store.alerts().save(List.of());
        store.alerts().save(records(300, true, NOW));
        store.alerts().save(records(120, false, NOW + 1_000));
        Map<String, StoredAlert> kept = store.alerts().alerts(1_000).stream()
                .collect(Collectors.toMap(StoredAlert::key, Function.identity()));
        assertThat(kept).hasSize(300);
        assertThat(kept.values().stream().filter(StoredAlert::firing)).hasSize(180);
        assertThat(kept.get("new-pattern|CrawlErrorNewPattern|/shelf7/{x}")).isEqualTo(records(120, false, NOW + 1_000).get(7));
        assertThat(kept.get("new-pattern|CrawlErrorNewPattern|/shelf200/{x}")).isEqualTo(records(300, true, NOW).get(200));
    }

    @Test
    void duckDbKeepsHundredsOfAlertsAWriteAndTheLatestOfEach() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            keepsBatches(store);
        }
    }

    @Test
    void clickHouseKeepsHundredsOfAlertsAWriteAndTheLatestOfEach() {
        ClickHouseTestCluster cluster = ClickHouseTestCluster.plainServer();
        try (ClickHouseHitStore store = ClickHouseHitStore.open(cluster.location(ClickHouseTestCluster.database("alert_batches")),
                ClickHouseSettings.SERVE)) {
            keepsBatches(store);
        }
    }
}
