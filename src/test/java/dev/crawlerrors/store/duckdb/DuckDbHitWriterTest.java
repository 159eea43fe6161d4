package dev.crawlerrors.store.duckdb;

import static dev.crawlerrors.store.duckdb.DuckDbHitStoreTest.GOOGLEBOT;
import static dev.crawlerrors.store.duckdb.DuckDbHitStoreTest.VERIFIED;
import static dev.crawlerrors.store.duckdb.DuckDbHitStoreTest.hit;
import static dev.crawlerrors.store.duckdb.DuckDbHitStoreTest.start;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.StoredVerdict;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DuckDB writer through the store's {@code writer()}: batches written in the background without
 * losing, reordering or repeating a row, the rows of a batch put in time order, transactions that
 * commit whole row groups with the progress covering them, and a failed write that takes its whole
 * transaction with it while the store goes on.
 */
class DuckDbHitWriterTest {

    @TempDir
    Path dir;

    @Test
    void storesEachRowsOwnAgentAndAddressWhetherItsStringsAreSharedOrNot() {
        // the writer encodes a string it met before only once, by identity: shared strings, equal
        // copies and different values in every order, over more than one of DuckDB's chunks
        List<String> agents = List.of("Googlebot/2.1", "bingbot/2.0", "GPTBot/1.2");
        List<CrawlerHit> hits = new ArrayList<>();
        Instant start = Instant.parse("2025-05-14T00:00:00Z");
        for (int i = 0; i < 5_000; i++) {
            String agent = switch (i % 4) {
                case 0, 1 -> agents.get(i % 3);
                case 2 -> new String(agents.get(i % 3).toCharArray());
                default -> "agent " + i;
            };
            String ip = i % 2 == 0 ? "66.249.66." + (i % 7) : new String(("66.249.66." + (i % 7)).toCharArray());
            Hit hit = new Hit(start.plusSeconds(i).toEpochMilli(), 0, ip, i % 5 == 0 ? "HEAD" : "GET", "/" + i, 404, -1, null,
                    agent, Double.NaN, null);
            hits.add(new CrawlerHit(hit, GOOGLEBOT, VERIFIED));
        }
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(hits);

            List<StoredHit> rows = store.reader().page(HitFilter.ERRORS, 0, 5_000);

            assertThat(rows).hasSize(5_000);
            for (StoredHit row : rows) {
                Hit hit = hits.get((int) row.id() - 1).hit();
                assertThat(row.url()).isEqualTo(hit.url());
                assertThat(row.userAgent()).as(row.url()).isEqualTo(hit.userAgent());
                assertThat(row.ip()).as(row.url()).isEqualTo(hit.ip());
                assertThat(row.method()).as(row.url()).isEqualTo(hit.method());
            }
        }
    }

    @Test
    void writesBatchesInTheBackgroundWithoutLosingReorderingOrRepeatingARow() {
        Path file = dir.resolve("store.duckdb");
        int rows = 130_000; // more than two batches go to the writer while the appends go on
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            for (int i = 0; i < rows; i += 1000) {
                List<CrawlerHit> chunk = new ArrayList<>();
                for (int j = i; j < i + 1000; j++) {
                    chunk.add(hit(Instant.parse("2025-05-14T00:00:00Z").plusSeconds(j).toString(), "66.249.66." + (j % 200),
                            "/p" + j, 404, VERIFIED));
                }
                store.writer().append(chunk, new SourceProgress("f1", "access.log", i, i), new SourceProgress("f1", "access.log", i + 1000L, i + 1000L));
                if (i == 60_000) {
                    // a verdict that changes while a batch may be in flight is not lost to it
                    store.verdicts().update("66.249.66.7", GOOGLEBOT.name(), new Verdict(Verification.spoofed, "PTR refuted"));
                }
            }
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThat(store.health().size()).isEqualTo(rows);
            List<StoredHit> newest = store.reader().page(HitFilter.ERRORS, 0, 3);
            assertThat(newest).extracting(StoredHit::url).containsExactly("/p129999", "/p129998", "/p129997");
            assertThat(newest).extracting(StoredHit::id).containsExactly(130_000L, 129_999L, 129_998L);
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", rows, rows));
            assertThat(store.verdicts().of(Verification.spoofed)).extracting(StoredVerdict::ip).containsExactly("66.249.66.7");
        }
    }

    @Test
    void storesTheRowsOfABatchInTimeOrderKeepingLogOrderWithinAnInstant() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            // as Apache writes them: stamped with their start, logged when they end
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:02Z", "66.249.66.1", "/quick", 404, VERIFIED),
                    hit("2025-05-14T10:00:00Z", "66.249.66.1", "/slow", 404, VERIFIED),
                    hit("2025-05-14T10:00:02Z", "66.249.66.1", "/quick-too", 404, VERIFIED),
                    hit("2025-05-14T10:00:01Z", "66.249.66.1", "/middle", 404, VERIFIED)));

            List<StoredHit> rows = store.reader().page(HitFilter.ERRORS, 0, 10);

            assertThat(rows).extracting(StoredHit::url).containsExactly("/quick-too", "/quick", "/middle", "/slow");
            assertThat(rows).extracting(StoredHit::id).containsExactly(4L, 3L, 2L, 1L);
        }
    }

    @Test
    void sortsABatchWhoseTimeOrderBreaksBetweenTwoAppends() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:00Z", "66.249.66.1", "/first", 404, VERIFIED),
                    hit("2025-05-14T10:00:02Z", "66.249.66.1", "/late", 404, VERIFIED)));
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:01Z", "66.249.66.1", "/early", 404, VERIFIED),
                    hit("2025-05-14T10:00:02Z", "66.249.66.1", "/late-too", 404, VERIFIED)));

            List<StoredHit> rows = store.reader().page(HitFilter.ERRORS, 0, 10);

            assertThat(rows).extracting(StoredHit::url).containsExactly("/late-too", "/late", "/early", "/first");
            assertThat(rows).extracting(StoredHit::id).containsExactly(4L, 3L, 2L, 1L);
        }
    }

    @Test
    void aBatchIsInTimeOrderUntilAHitComesEarlierThanTheOneBeforeIt() {
        DuckDbBatch batch = new DuckDbBatch();
        assertThat(batch.inTimeOrder()).isTrue();

        batch.add(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/a", 404, VERIFIED), 1);
        batch.add(hit("2025-05-14T10:00:00Z", "66.249.66.1", "/b", 404, VERIFIED), 2);
        batch.add(hit("2025-05-14T10:00:01Z", "66.249.66.1", "/c", 404, VERIFIED), 3);
        assertThat(batch.inTimeOrder()).isTrue();

        batch.add(hit("2025-05-14T10:00:00.999Z", "66.249.66.1", "/d", 404, VERIFIED), 4);
        assertThat(batch.inTimeOrder()).isFalse();

        batch.add(hit("2025-05-14T10:00:05Z", "66.249.66.1", "/e", 404, VERIFIED), 5);
        assertThat(batch.inTimeOrder()).isFalse();
        assertThat(batch.hits).extracting(h -> h.hit().url()).containsExactly("/a", "/b", "/c", "/d", "/e");

        // sorted by time, stable within an instant, each hit keeping its claim's number
        batch.sortByTime();
        assertThat(batch.hits).extracting(h -> h.hit().url()).containsExactly("/a", "/b", "/d", "/c", "/e");
        assertThat(java.util.Arrays.copyOf(batch.claims, 5)).containsExactly(1, 2, 4, 3, 5);
    }

    @Test
    void commitsLargeTransactionsWholeRowGroupsAtATimeWithTheProgressThatCoversThem() {
        Path file = dir.resolve("store.duckdb");
        // the batches that make up a row group's rows commit at once (DuckDB writes them to the
        // file at once), the rest commit at close (through the write-ahead log)
        int rows = 184_000;
        try (DuckDbHitStore store = DuckDbHitStore.open(file, 1, DuckDbHitStore.ROW_GROUP_ROWS)) {
            appendChunks(store, 0, rows);
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThat(store.health().size()).isEqualTo(rows);
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", rows, rows));
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 2)).extracting(StoredHit::id).containsExactly((long) rows, rows - 1L);
            assertThat(store.reader().page(HitFilter.ERRORS, rows - 1, 2)).extracting(StoredHit::url).containsExactly("/p0");
        }
    }

    @Test
    void aQuerySeesTheBatchesThatAreWrittenButNotYetCommitted() {
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("store.duckdb"))) {
            appendChunks(store, 0, 60_000); // batches of them go to the writer, in a transaction left open

            assertThat(store.health().size()).isEqualTo(60_000);
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", 60_000, 60_000));
        }
    }

    @Test
    void aFailedWriteTakesTheHitsAndProgressOfItsWholeTransactionWithItAndTheStoreGoesOn() {
        Path file = dir.resolve("store.duckdb");
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            appendChunks(store, 0, 60_000); // written in batches, in a transaction left open
            // no method: its progress and verdict are written, then the hits' INSERT fails
            Hit noMethod = new Hit(Instant.parse("2025-05-15T00:00:00Z").toEpochMilli(), 0, "66.249.66.250", null, "/x", 404, -1,
                    null, "Googlebot", Double.NaN, null);
            CrawlerHit before = hit("2025-05-14T23:59:59Z", "66.249.66.2", "/before", 404, VERIFIED);
            store.writer().append(List.of(before, new CrawlerHit(noMethod, GOOGLEBOT, VERIFIED)), new SourceProgress("f1", "access.log", 60_000, 60_000),
                    new SourceProgress("f1", "access.log", 60_100, 60_001));

            assertThatThrownBy(store.writer()::flush).isInstanceOf(StoreException.class).hasMessageContaining("cannot write to");
            assertThat(store.health().size()).isZero();
            assertThat(store.writer().imported(List.of("f1"))).isEmpty();
            assertThat(store.verdicts().of(Verification.verified)).isEmpty();

            // the same claim, with the key string its hits before the failure carried (as the verifier hands it out)
            CrawlerHit again = new CrawlerHit(hit("2025-05-15T00:00:02Z", "66.249.66.2", "/again", 404, VERIFIED).hit(), GOOGLEBOT,
                    VERIFIED, before.claim());
            // the log's progress went too: its next append starts where the store has it, at its start
            store.writer().append(List.of(hit("2025-05-15T00:00:01Z", "66.249.66.1", "/after", 404, VERIFIED), again),
                    start("f1", "access.log"), new SourceProgress("f1", "access.log", 60_200, 60_003));
            store.writer().flush();
        }
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            assertThat(store.reader().page(HitFilter.ERRORS, 0, 10)).extracting(StoredHit::url).containsExactly("/again", "/after");
            assertThat(store.writer().imported(List.of("f1"))).containsExactly(new SourceProgress("f1", "access.log", 60_200, 60_003));
            // the verdicts went with the failed transaction, and came again with these hits, a claim met before too
            assertThat(store.verdicts().of(Verification.verified)).extracting(StoredVerdict::ip).containsExactlyInAnyOrder("66.249.66.1",
                    "66.249.66.2");
        }
    }

    @Test
    void whatIsAppendedWhileAFailedBatchIsWrittenGoesWithItSoNoLogsPositionRunsAheadOfItsHits() {
        Path file = dir.resolve("store.duckdb");
        long appended = 0;
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            appendChunks(store, 0, 30_000);
            // no method: the hits' INSERT of the batch that holds it fails on the writer's thread, while more is appended
            Hit noMethod = new Hit(Instant.parse("2025-05-15T00:00:00Z").toEpochMilli(), 0, "66.249.66.250", null, "/x", 404, -1,
                    null, "Googlebot", Double.NaN, null);
            store.writer().append(List.of(new CrawlerHit(noMethod, GOOGLEBOT, VERIFIED)), new SourceProgress("f1", "access.log", 30_000, 30_000),
                    new SourceProgress("f1", "access.log", 30_001, 30_001));
            appended = 30_001;
            // one line a hit: the appends go on until the failure reaches one of them, as an import's reader does
            StoreException failure = null;
            for (long i = appended; failure == null && i < 200_000; i += 1000) {
                List<CrawlerHit> chunk = new ArrayList<>();
                for (long j = i; j < i + 1000; j++) {
                    chunk.add(hit(Instant.parse("2025-05-16T00:00:00Z").plusSeconds(j).toString(), "66.249.66.1", "/q" + j, 404, VERIFIED));
                }
                try {
                    store.writer().append(chunk, new SourceProgress("f1", "access.log", i, i), new SourceProgress("f1", "access.log", i + 1000, i + 1000));
                    appended = i + 1000;
                } catch (StoreException e) {
                    failure = e;
                }
            }
            assertThat(failure).as("the failed batch reached an append").isNotNull();
            // the store has the log where its last commit left it, not where the appends after the failure took it
            assertThat(store.writer().imported(List.of("f1"))).isEmpty();
        } // its close writes what is left
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            List<SourceProgress> position = store.writer().imported(List.of("f1"));
            long lines = position.isEmpty() ? 0 : position.get(0).lines();
            // every line a hit: a position past the hits stored skips, on the next import, lines that were never stored
            assertThat(store.health().size()).as("hits stored, the log at line " + lines + " of " + appended).isEqualTo(lines);
        }
    }

    /** {@code rows} hits one second apart from {@code first} on, each a 404 of its own URL, in chunks of 1,000 with their progress. */
    static void appendChunks(DuckDbHitStore store, int first, int rows) {
        for (int i = first; i < first + rows; i += 1000) {
            List<CrawlerHit> chunk = new ArrayList<>();
            for (int j = i; j < i + 1000; j++) {
                chunk.add(hit(Instant.parse("2025-05-14T00:00:00Z").plusSeconds(j).toString(), "66.249.66." + (j % 200),
                        "/p" + j, 404, VERIFIED));
            }
            store.writer().append(chunk, new SourceProgress("f1", "access.log", i, i), new SourceProgress("f1", "access.log", i + 1000L, i + 1000L));
        }
    }
}
