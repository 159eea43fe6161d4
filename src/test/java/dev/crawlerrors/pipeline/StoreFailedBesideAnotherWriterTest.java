package dev.crawlerrors.pipeline;

import static dev.crawlerrors.pipeline.WatchedStores.chunk;
import static dev.crawlerrors.pipeline.WatchedStores.printed;
import static dev.crawlerrors.pipeline.WatchedStores.watched;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StoreException;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.WritableStore;
import dev.crawlerrors.store.clickhouse.ClickHouseHitStore;
import dev.crawlerrors.store.clickhouse.ClickHouseSettings;
import dev.crawlerrors.store.clickhouse.ClickHouseTestCluster;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import dev.crawlerrors.text.Figures;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
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

    enum Engine { DUCKDB, CLICKHOUSE }

    private final List<HitStore> opened = new ArrayList<>();
    private CrawlerVerifier verifier;
    private final CrawlerCatalog catalog = CrawlerCatalog.builtIn();

    @AfterEach
    void tearDown() {
        if (verifier != null) {
            verifier.close();
        }
        opened.forEach(HitStore::close);
    }

    private HitStore open(Engine engine, String name) throws IOException {
        HitStore store = engine == Engine.DUCKDB ? DuckDbHitStore.open(dir.resolve(name + ".duckdb"))
                : ClickHouseHitStore.open(ClickHouseTestCluster.twoShards().location(name), ClickHouseSettings.IMPORT);
        opened.add(store);
        return store;
    }

    private Path log(String name, int lines, boolean other) throws IOException {
        Path log = dir.resolve(name);
        try (BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            for (int i = 1; i <= lines; i++) {
                String line = SampleLogs.line(i);
                out.write(other ? line.replace("/page/", OTHER) : line);
            }
        }
        return log;
    }

    private LogImport importInto(WritableStore into) {
        return new LogImport(into, new CrawlerIdentifier(catalog), verifier);
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
        verifier = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(SampleLogs.ipRanges(dir).toString())), null);
        Path log = log("access.log", LINES, false);
        Path otherLog = log("other.log", LINES, true);
        String db = engine == Engine.DUCKDB ? "failed" : ClickHouseTestCluster.database("failed");
        HitStore store = open(engine, db);
        // ClickHouse: a store each, as two processes have; DuckDB: one store in one process
        HitStore firstStore = engine == Engine.DUCKDB ? store : open(engine, db);
        ImportSummary[] second = new ImportSummary[1];
        Runnable secondWriter = () -> {
            try {
                second[0] = importInto(store).run(List.of(otherLog.toString()), ImportListener.Factory.NONE);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        ImportSummary first = importInto(failingWriter(firstStore, secondWriter)).run(List.of(log.toString()),
                ImportListener.Factory.NONE);

        assertThat(second[0].succeeded()).as(printed(second[0])).isTrue();
        assertThat(storedOf(store, true)).as("the other log").isEqualTo(LINES);
        assertThat(first.succeeded()).as(printed(first)).isFalse();
        long own = storedOf(store, false);
        assertThat(own).as("this import's first chunk").isPositive().isLessThan(LINES);
        assertThat(first.storedHits).as(printed(first)).isEqualTo(own);
        assertThat(printed(first)).contains("stored before the store failed: " + Figures.grouped(own) + ".");
    }
}
