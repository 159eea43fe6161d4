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
}
