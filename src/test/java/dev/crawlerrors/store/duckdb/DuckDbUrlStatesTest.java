package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.UrlStatesContract;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    void filtersATimeRangeByHostPrefixAndCrawlerAsTheHitsSay() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            UrlStatesContract.filtersATimeRangeByHostPrefixAndCrawlerAsTheHitsSay(store);
        }
    }

    @Test
    void aStoreOfVersionEightFiltersATimeRangeAsTheHitsSay(@TempDir Path dir) {
        Path file = dir.resolve("v8.duckdb");
        UrlStatesContract.aStoreOfTheVersionBeforeFiltersATimeRangeAsTheHitsSay(() -> DuckDbHitStore.open(file), () -> {
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
                // as version 8 left it: no hits in time order
                st.execute("DROP TABLE url_times");
                st.execute("DROP TABLE url_heads");
                st.execute("UPDATE store_meta SET value = '8' WHERE key = 'schema_version'");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
