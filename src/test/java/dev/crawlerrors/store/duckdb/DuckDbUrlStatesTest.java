package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.UrlStatesContract;
import org.junit.jupiter.api.Test;

/** The URLs' states on DuckDB ({@link UrlStatesContract}): as hits arrive, folded or not, at a snapshot, and as verdicts change. */
class DuckDbUrlStatesTest {

    @Test
    void keepsEachUrlsStateFoldedOrNot() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            UrlStatesContract.keepsEachUrlsStateFoldedOrNot(store);
        }
    }

    @Test
    void answersAnOlderSnapshotAsItWasAfterAFold() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            UrlStatesContract.answersAnOlderSnapshotAsItWasAfterAFold(store);
        }
    }

    @Test
    void aClaimFoundSpoofedLaterLeavesTheStates() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            UrlStatesContract.aClaimFoundSpoofedLaterLeavesTheStates(store);
        }
    }

    @Test
    void pagesKeptStatesInTheirOrderAsTheHistoriesMakeThem() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            UrlStatesContract.pagesKeptStatesInTheirOrderAsTheHistoriesMakeThem(store);
        }
    }

    @Test
    void readsAViewAgainAsHitsArriveAndAsTheyFold() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            UrlStatesContract.readsAViewAgainAsHitsArriveAndAsTheyFold(store);
        }
    }
}
