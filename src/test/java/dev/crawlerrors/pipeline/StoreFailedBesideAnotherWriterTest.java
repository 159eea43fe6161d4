package dev.crawlerrors.pipeline;

import static dev.crawlerrors.pipeline.WatchedStores.chunk;
import static dev.crawlerrors.pipeline.WatchedStores.printed;
import static dev.crawlerrors.pipeline.WatchedStores.watched;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.pipeline.TwoWriters.Engine;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.WritableStore;
import dev.crawlerrors.text.Figures;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An import whose store fails (stops answering) after another writer stored lines of another log
 * meanwhile: the summary's "stored before the store failed" is what this import committed, counted
 * in the store by its log's URLs, not the growth of the whole store, which holds the other log's
 * hits too. The failure is forced by a writer around the real store (DuckDB, a real ClickHouse).
 */
@ClickHouseTest
class StoreFailedBesideAnotherWriterTest {

    /** Some seven chunks of the reader's: the store fails at the first writer's second. */
    private static final int LINES = 40_000;
    private static final String OTHER = "/other-log/";

    @TempDir
    Path dir;

    private TwoWriters writers;

    @BeforeEach
    void setUp() {
        writers = new TwoWriters(dir);
    }

    @AfterEach
    void tearDown() {
        writers.close();
    }

    /**
     * {@code store}, as the first writer sees it: its first chunk is committed, and the second writer
     * imports another log; at its second append the store stops answering.
     */
    private WritableStore failingWriter(HitStore store, Runnable secondWriter) {
        AtomicInteger appends = new AtomicInteger();
        AtomicLong failed = new AtomicLong();
        return watched(store, (method, args, real, on) -> {
            int n = chunk(method, args) ? appends.incrementAndGet() : 0;
            if (n == 2) {
                // the first chunk committed as the writer counts commits (ClickHouse marks its batch once
                // written, on the writer's thread), then the second writer runs, then the store fails. Done
                // here, not as the first append returns: the import takes the writer's mark of its hits as
                // their append returns, and verdicts settled meanwhile would start the writer's next batch
                long mark = real.appendedMark();
                real.flush();
                dev.crawlerrors.Waits.await("the first chunk's batch marked committed").until(() -> real.committedMark() >= mark);
                secondWriter.run();
            }
            if (n >= 2 || (failed.get() > 0 && (method.getName().equals("append") || method.getName().equals("flush")))) {
                failed.incrementAndGet();
                throw new StoreException("the store stopped answering", null);
            }
            return on.call();
        });
    }

    /** The hits the store holds of the log whose URLs are {@code other}'s or not. */
    private static long storedOf(HitStore store, boolean other) {
        store.writer().flush();
        long[] hits = new long[1];
        store.reader().forEach(HitFilter.ERRORS, (StoredHit hit) -> {
            if (hit.url().startsWith(OTHER) == other) {
                hits[0]++;
            }
        });
        return hits[0];
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void theStoredCountIsThisImportsOwnWhenTheStoreFails(Engine engine) throws Exception {
        Path log = writers.log("access.log", LINES);
        Path otherLog = writers.log("other.log", LINES, i -> SampleLogs.line(i).replace("/page/", OTHER));
        HitStore store = writers.open(engine, "failed");
        ImportSummary[] second = new ImportSummary[1];
        Runnable secondWriter = () -> second[0] = writers.imported(store, otherLog);
        ImportSummary first = writers.imported(failingWriter(writers.another(engine, store), secondWriter), log);

        assertThat(second[0].succeeded()).as(printed(second[0])).isTrue();
        assertThat(storedOf(store, true)).as("the other log").isEqualTo(LINES);
        assertThat(first.succeeded()).as(printed(first)).isFalse();
        long own = storedOf(store, false);
        assertThat(own).as("this import's first chunk").isPositive().isLessThan(LINES);
        assertThat(first.storedHits).as(printed(first)).isEqualTo(own);
        assertThat(printed(first)).contains("stored before the store failed: " + Figures.grouped(own) + ".");
    }
}
