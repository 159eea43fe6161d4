package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.SourceProgress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DuckDbRecordedPrefixesTest {

    @TempDir
    Path dir;

    @Test
    void neverRulesOutAPrefixItWasToldOfAndRulesOutNearlyEveryOtherOnceComplete() {
        DuckDbRecordedPrefixes filter = new DuckDbRecordedPrefixes(0);
        List<String> added = IntStream.range(0, 100_000).mapToObj(i -> "%064x".formatted(i * 7919L)).toList();
        added.forEach(filter::add);
        assertThat(added).allMatch(filter::mayHold);
        long falsePositives = IntStream.range(0, 100_000).mapToObj(i -> "%064x".formatted(i * 7919L + 1)).filter(filter::mayHold).count();
        assertThat(falsePositives).isLessThan(500); // 0.5%; 16 bits a prefix and four hashes make it about 0.05%
    }

    @Test
    void aFilterOfAStoreThatRecordedLogsSaysMayBeToAnythingUntilLoaded() {
        DuckDbRecordedPrefixes filter = new DuckDbRecordedPrefixes(3);
        assertThat(filter.complete()).isFalse();
        assertThat(filter.mayHold("never-added")).isTrue();
        filter.add("abc");
        filter.loaded();
        assertThat(filter.mayHold("abc")).isTrue();
        assertThat(filter.mayHold("never-added")).isFalse();
    }

    /**
     * A store that recorded logs before it opened asks its queries until the filter is read, then the
     * filter: every answer the same before, during and after, for logs committed before it opened,
     * since, and appended and not committed yet.
     */
    @Test
    void theStoreFindsEveryRecordedLogBeforeAndAfterItReadsTheFilter() {
        Path file = dir.resolve("store.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            for (int i = 0; i < 5; i++) {
                store.writer().append(List.of(), new SourceProgress("old" + i, "a" + i + ".log", 0, 0), new SourceProgress("old" + i, "a" + i + ".log", 100 + i, 1));
            }
            store.writer().append(List.of(), new SourceProgress("old0-2", "b.log", 0, 0), new SourceProgress("old0-2", "b.log", 50, 1)); // another log beginning as old0 does
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            List<List<SourceProgress>> answers = new ArrayList<>();
            for (int ask = 0; ask < DuckDbLedger.PREFIX_QUERIES_BEFORE_LOADING + 2; ask++) {
                answers.add(store.writer().imported(List.of("old0", "old3", "new" + ask)));
                assertThat(store.writer().imported(List.of("nothing" + ask))).isEmpty();
            }
            assertThat(answers).allSatisfy(answer -> assertThat(answer).containsExactlyInAnyOrder(
                    new SourceProgress("old0", "a0.log", 100, 1), new SourceProgress("old0-2", "b.log", 50, 1),
                    new SourceProgress("old3", "a3.log", 103, 1)));
            store.writer().append(List.of(), new SourceProgress("new1", "n.log", 0, 0), new SourceProgress("new1", "n.log", 10, 1));
            assertThat(store.writer().imported(List.of("new1", "old4"))).containsExactlyInAnyOrder(new SourceProgress("new1", "n.log", 10, 1),
                    new SourceProgress("old4", "a4.log", 104, 1));
            store.writer().flush();
            assertThat(store.writer().imported(List.of("new1"))).containsExactly(new SourceProgress("new1", "n.log", 10, 1));
            store.writer().append(List.of(), new SourceProgress("new1", "n.log", 10, 1), new SourceProgress("new1", "n.log", 20, 2));
            assertThat(store.writer().imported(List.of("new1"))).containsExactly(new SourceProgress("new1", "n.log", 20, 2));
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThat(store.writer().imported(List.of("new1", "old1"))).containsExactlyInAnyOrder(new SourceProgress("new1", "n.log", 20, 2),
                    new SourceProgress("old1", "a1.log", 101, 1));
        }
    }

    @Test
    void aNewStoreFindsWhatItCommittedWithoutReadingTheFilter() {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("new.duckdb"))) {
            for (int i = 0; i < 20; i++) {
                store.writer().append(List.of(), new SourceProgress("log" + i, "l" + i + ".gz", 0, 0), new SourceProgress("log" + i, "l" + i + ".gz", 10 * i + 10, i + 1));
                if (i % 3 == 0) {
                    store.writer().flush();
                }
                assertThat(store.writer().imported(List.of("log" + i, "log" + (i + 1)))).containsExactly(
                        new SourceProgress("log" + i, "l" + i + ".gz", 10 * i + 10, i + 1));
            }
            for (int i = 0; i < 20; i++) {
                assertThat(store.writer().imported(List.of("log" + i))).hasSize(1);
            }
        }
    }
}
