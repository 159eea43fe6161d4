package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.store.RandomHistories;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.store.UrlState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A fold that adds each batch's hits to the kept states gives the states one fold of every hit gives, and the histories make. */
class DuckDbUrlFoldTest {

    private static final int URLS = 300;

    @Test
    void foldsOfSeveralImportsKeepWhatOneImportOfAllKeeps() {
        List<CrawlerHit> hits = RandomHistories.inOrder(30, 4_000, URLS);
        try (DuckDbHitStore once = DuckDbHitStore.inMemory(); DuckDbHitStore batched = DuckDbHitStore.inMemory()) {
            once.writer().append(hits);
            once.reader().urlStates().fold();
            for (int from = 0; from < hits.size(); from += 1_000) {
                batched.writer().append(hits.subList(from, from + 1_000));
                batched.reader().urlStates().fold();
            }
            assertSameStates(once, batched);
        }
    }

    @Test
    void hitsOlderThanTheKeptOnesAreFoldedFromTheHistories() {
        List<CrawlerHit> hits = RandomHistories.inOrder(34, 3_000, URLS);
        List<CrawlerHit> late = new ArrayList<>(hits.subList(0, 1_000)); // the oldest, imported last
        try (DuckDbHitStore once = DuckDbHitStore.inMemory(); DuckDbHitStore batched = DuckDbHitStore.inMemory()) {
            once.writer().append(hits);
            once.reader().urlStates().fold();
            batched.writer().append(hits.subList(1_000, 2_000));
            batched.reader().urlStates().fold();
            batched.writer().append(hits.subList(2_000, 3_000));
            batched.reader().urlStates().fold();
            batched.writer().append(late);
            batched.reader().urlStates().fold();
            assertSameStates(once, batched);
        }
    }

    @Test
    void theFirstFoldSetsTheMemoryLimitBackAfterItsStates() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            String limit = store.setting("memory_limit");
            store.writer().append(RandomHistories.inOrder(35, 1_000, URLS));
            store.reader().urlStates().fold();
            assertThat(store.setting("memory_limit")).as("after the first fold (states under %s)", DuckDbUrlFold.FRESH_STATES_MEMORY)
                    .isEqualTo(limit);
            assertThat(RandomHistories.all(store.reader(), RandomHistories.scopes().getFirst(), store.reader().snapshot(), 50))
                    .as("states made").isNotEmpty();
        }
    }

    private static void assertSameStates(DuckDbHitStore once, DuckDbHitStore batched) {
        Snapshot onceAt = once.reader().snapshot();
        Snapshot batchedAt = batched.reader().snapshot();
        for (UrlQuery scope : RandomHistories.scopes()) {
            assertThat(scope.scope()).as("a kept scope").isNotNull();
            List<UrlState> kept = RandomHistories.all(batched.reader(), scope, batchedAt, 50);
            assertThat(kept).as("folded a batch at a time, %s", scope.filter()).isEqualTo(RandomHistories.all(once.reader(), scope,
                    onceAt, 50));
            assertThat(kept).as("against the histories, %s", scope.filter()).isEqualTo(RandomHistories.all(batched.reader(),
                    RandomHistories.fromHistories(scope), batchedAt, 50));
        }
    }
}
