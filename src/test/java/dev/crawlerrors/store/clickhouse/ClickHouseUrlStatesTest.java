package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.store.UrlStatesContract;
import org.junit.jupiter.api.Test;

/**
 * The URLs' states on a real two-shard ClickHouse cluster ({@link UrlStatesContract}), as the
 * embedded store keeps them: folded or not, at an older snapshot, as verdicts change, paged.
 */
@ClickHouseTest
class ClickHouseUrlStatesTest {

    private final ClickHouseTestCluster cluster = ClickHouseTestCluster.twoShards();

    private ClickHouseHitStore open(String name) {
        return ClickHouseHitStore.open(cluster.location(ClickHouseTestCluster.database(name)), ClickHouseSettings.SERVE);
    }

    @Test
    void keepsEachUrlsStateFoldedOrNot() {
        try (ClickHouseHitStore store = open("url_states_folded")) {
            UrlStatesContract.keepsEachUrlsStateFoldedOrNot(store);
        }
    }

    @Test
    void answersAnOlderSnapshotAsItWasAfterAFold() {
        try (ClickHouseHitStore store = open("url_states_older")) {
            UrlStatesContract.answersAnOlderSnapshotAsItWasAfterAFold(store);
        }
    }

    @Test
    void aClaimFoundSpoofedLaterLeavesTheStates() {
        try (ClickHouseHitStore store = open("url_states_spoofed")) {
            UrlStatesContract.aClaimFoundSpoofedLaterLeavesTheStates(store);
        }
    }

    @Test
    void readsAViewAgainAsHitsArriveAndAsTheyFold() {
        try (ClickHouseHitStore store = open("url_states_again")) {
            UrlStatesContract.readsAViewAgainAsHitsArriveAndAsTheyFold(store);
        }
    }

    @Test
    void pagesKeptStatesInTheirOrderAsTheHistoriesMakeThem() {
        try (ClickHouseHitStore store = open("url_states_pages")) {
            UrlStatesContract.pagesKeptStatesInTheirOrderAsTheHistoriesMakeThem(store);
        }
    }

    @Test
    void filtersATimeRangeByHostPrefixAndCrawlerAsTheHitsSay() {
        try (ClickHouseHitStore store = open("url_states_ranged")) {
            UrlStatesContract.filtersATimeRangeByHostPrefixAndCrawlerAsTheHitsSay(store);
        }
    }

    @Test
    void aStoreOfSchemaSevenFiltersATimeRangeAsTheHitsSay() {
        String db = ClickHouseTestCluster.database("url_states_schema7");
        UrlStatesContract.aStoreOfTheVersionBeforeFiltersATimeRangeAsTheHitsSay(
                () -> ClickHouseHitStore.open(cluster.location(db), ClickHouseSettings.SERVE), () -> {
                    // as schema 7 made it: no hits in time order
                    for (int shard = 1; shard <= cluster.shards(); shard++) {
                        cluster.query(shard, "DROP TABLE " + db + ".url_times_of_log");
                        cluster.query(shard, "DROP TABLE " + db + ".url_times_local");
                        cluster.query(shard, "DROP TABLE " + db + ".url_times");
                    }
                    cluster.query(1, "INSERT INTO " + db + ".schema_version (version) VALUES (7)");
                    cluster.query(1, "ALTER TABLE " + db + ".schema_version DELETE WHERE version > 7");
                    // a mutation runs in the background (18.16 has no mutations_sync): waited for, within bounds
                    dev.crawlerrors.Waits.await("the schema version mutated").untilAsserted(() -> org.assertj.core.api.Assertions.assertThat(
                            cluster.number(1, "SELECT max(version) FROM " + db + ".schema_version")).isEqualTo(7));
                });
    }
}
