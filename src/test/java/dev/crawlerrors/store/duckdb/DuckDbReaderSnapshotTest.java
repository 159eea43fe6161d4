package dev.crawlerrors.store.duckdb;

import static dev.crawlerrors.crawler.SampleHits.VERIFIED;
import static dev.crawlerrors.crawler.SampleHits.googlebot;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.Snapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The readers' connections each read the newest commit, whenever they were made: the pool made
 * while the writer had a transaction open once read that transaction's snapshot forever.
 */
class DuckDbReaderSnapshotTest {

    @TempDir
    Path dir;

    private static List<CrawlerHit> hits(int from, int count) {
        List<CrawlerHit> hits = new ArrayList<>(count);
        for (int i = from; i < from + count; i++) {
            hits.add(googlebot(1_790_000_000_000L + i * 1_000L, "66.249.66." + (1 + i % 50), "/p" + i, 404, VERIFIED));
        }
        return hits;
    }

    @Test
    void readersMadeWhileTheWriterIsMidTransactionReadEveryLaterCommit() throws Exception {
        // a transaction that only a flush commits, so it stays open while the readers are made
        try (DuckDbHitStore store = DuckDbHitStore.open(dir.resolve("hits.duckdb"), 1, Long.MAX_VALUE / 2)) {
            store.writer().append(hits(0, 10));
            store.writer().flush();
            // two batches: the second's hand-over waits until the first is written, in a transaction still open
            store.writer().append(hits(10, 50_000));
            store.writer().append(hits(50_010, 50_000));

            ExecutorService readers = Executors.newFixedThreadPool(8);
            try {
                List<Future<String>> made = new ArrayList<>();
                for (int i = 0; i < 64; i++) {
                    made.add(readers.submit(() -> store.setting("threads"))); // reads that commit nothing: the pool fills
                }
                for (Future<String> read : made) {
                    read.get(60, TimeUnit.SECONDS);
                }
                store.writer().flush();

                for (int round = 0; round < 3; round++) {
                    List<Future<Long>> sizes = new ArrayList<>();
                    for (int i = 0; i < 32; i++) {
                        sizes.add(readers.submit(() -> store.health().size()));
                    }
                    for (Future<Long> size : sizes) {
                        assertThat(size.get(60, TimeUnit.SECONDS)).as("a reader's count after the commit").isEqualTo(100_010L + round);
                    }
                    store.writer().append(hits(100_010 + round, 1));
                    store.writer().flush();
                    Snapshot now = store.reader().snapshot();
                    List<Future<Long>> counts = new ArrayList<>();
                    for (int i = 0; i < 32; i++) {
                        counts.add(readers.submit(() -> store.reader().minuteCounts(HitFilter.ERRORS, now).total()));
                    }
                    for (Future<Long> count : counts) {
                        assertThat(count.get(60, TimeUnit.SECONDS)).as("a reader's count of the newest snapshot").isEqualTo(100_011L + round);
                    }
                    store.setting("threads");
                    store.setting("threads");
                }
            } finally {
                readers.shutdownNow();
            }
        }
    }
}
