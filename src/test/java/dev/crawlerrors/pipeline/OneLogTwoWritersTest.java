package dev.crawlerrors.pipeline;

import static dev.crawlerrors.pipeline.WatchedStores.printed;
import static dev.crawlerrors.pipeline.WatchedStores.storedUrls;
import static dev.crawlerrors.pipeline.WatchedStores.watched;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.ingest.format.NamedFormats;
import dev.crawlerrors.pipeline.TwoWriters.Engine;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.WritableStore;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two writers of one log at the same time store each of its lines once: the second to record a
 * position from where it read is refused, and reads on from where the first got. The writers take
 * turns at a chosen point (the first waits after its first chunk until the second is done), so
 * the race happens on every run.
 */
@ClickHouseTest
class OneLogTwoWritersTest {

    private static final int LINES = 40_000;

    @TempDir
    Path dir;

    private TwoWriters writers;
    /** What each writer writes through (one store in one process; ClickHouse: a store each, as two processes have). */
    private HitStore store;
    private HitStore otherStore;

    private void open(Engine engine) {
        writers = new TwoWriters(dir);
        store = writers.open(engine, "two_writers");
        otherStore = writers.another(engine, store);
    }

    @AfterEach
    void tearDown() {
        if (writers != null) {
            writers.close();
        }
    }

    /**
     * The store, as a writer that stops at its first chunk of a log until {@code goOn} opens: before
     * the chunk is stored ({@code before}), or after.
     */
    private WritableStore pausingAtFirstChunk(boolean before, CountDownLatch paused, CountDownLatch goOn) {
        return watched(otherStore, (method, args, real, on) -> {
            boolean pause = method.getName().equals("append") && args != null && args.length == 3 && paused.getCount() > 0;
            if (pause && before) {
                paused.countDown();
                assertThat(goOn.await(120, TimeUnit.SECONDS)).as("the other writer finished").isTrue();
            }
            Object result = on.call();
            if (pause && !before) {
                paused.countDown();
                assertThat(goOn.await(120, TimeUnit.SECONDS)).as("the other writer finished").isTrue();
            }
            return result;
        });
    }

    /** Imports {@code log} twice at once: the first stops at its first chunk (before or after storing it) until the second is done. */
    private ImportSummary[] importTwiceAtOnce(Path log, boolean pauseBefore) throws Exception {
        CountDownLatch paused = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        CompletableFuture<ImportSummary> first = CompletableFuture.supplyAsync(() -> {
            try {
                return writers.importInto(pausingAtFirstChunk(pauseBefore, paused, goOn)).run(List.of(log.toString()), ImportListener.Factory.NONE);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, OneLogTwoWritersTest::ownThread);
        assertThat(paused.await(120, TimeUnit.SECONDS)).as("the first import read its first chunk").isTrue();
        ImportSummary second;
        try {
            second = writers.importInto(store).run(List.of(log.toString()), ImportListener.Factory.NONE);
        } finally {
            goOn.countDown();
        }
        return new ImportSummary[] {first.get(120, TimeUnit.SECONDS), second};
    }

    /**
     * A thread of its own for the import that waits: on the common pool (one thread on two cores) it
     * starved the HTTP client's tasks there, and the ClickHouse store's requests waited for ever.
     */
    private static void ownThread(Runnable task) {
        Thread.ofPlatform().daemon().name("first-writer").start(task);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void anImportRefusedAfterItsFirstChunkReadsOnFromWhereTheOtherGotAndSaysWhatItStored(Engine engine) throws Exception {
        open(engine);
        ImportSummary[] done = importTwiceAtOnce(writers.log("access.log", LINES), false);
        ImportSummary first = done[0];
        ImportSummary second = done[1];

        Map<String, Integer> urls = storedUrls(store);
        assertThat(urls).hasSize(LINES).allSatisfy((url, times) -> assertThat(times).as(url).isEqualTo(1));
        // each line stored by one of them, and each says the other stored the rest of what it read
        assertThat(first.crawlerHits() + second.crawlerHits()).isEqualTo(LINES);
        assertThat(first.crawlerHits() + first.otherWriterLines()).isEqualTo(LINES);
        assertThat(second.crawlerHits() + second.otherWriterLines()).isLessThanOrEqualTo(LINES);
        assertThat(first.succeeded()).isTrue();
        assertThat(second.succeeded()).isTrue();
        assertThat(printed(first)).contains("Lines already stored by another writer at the same time (another import of the same log,"
                + " or serve --follow of it): " + String.format(java.util.Locale.ROOT, "%,d", first.otherWriterLines()) + ";");
        if (engine == Engine.DUCKDB) {
            // one writer in one process, compared as it appends: the second read on from the first's first chunk, and the first,
            // refused after it, found the rest stored
            assertThat(first.crawlerHits()).isPositive().isLessThan(LINES);
            assertThat(first.otherWriterLines()).isEqualTo(second.crawlerHits());
            assertThat(second.otherWriterLines()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void anImportRefusedAtItsFirstChunkStoresNothingOfTheLogTheOtherStored(Engine engine) throws Exception {
        open(engine);
        ImportSummary[] done = importTwiceAtOnce(writers.log("access.log", LINES), true);

        assertThat(storedUrls(store)).hasSize(LINES).allSatisfy((url, times) -> assertThat(times).as(url).isEqualTo(1));
        assertThat(done[1].crawlerHits()).isEqualTo(LINES);
        assertThat(done[0].crawlerHits()).isZero();
        assertThat(done[0].otherWriterLines()).isEqualTo(LINES);
        assertThat(printed(done[0])).contains("Logs: 1 file, combined");
        if (engine == Engine.DUCKDB) {
            assertThat(done[0].lines().linesRead()).as("lines it read and stored (refused at once)").isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void anImportOfADirectoryBesideAFollowerOfItsLiveLogStoresEachLineOnce(Engine engine) throws Exception {
        open(engine);
        // the README's set-up: serve --follow /var/log/nginx/access.log, and import /var/log/nginx/ from cron
        Path logs = Files.createDirectories(dir.resolve("nginx"));
        Files.writeString(logs.resolve("access.log.1"), SampleLogs.lines(LINES + 1, LINES + 500));
        Path live = logs.resolve("access.log");
        try (BufferedWriter out = Files.newBufferedWriter(live, StandardCharsets.UTF_8)) {
            for (int i = 1; i <= LINES; i++) {
                out.write(SampleLogs.line(i));
            }
        }
        List<String> notices = new ArrayList<>();
        FollowedLogs follower = new FollowedLogs(List.of(live), NamedFormats.chooser("auto", notice -> { }), store,
                writers.identifier(), writers.verifier(), notices::add);
        try {
            CountDownLatch paused = new CountDownLatch(1);
            CountDownLatch goOn = new CountDownLatch(1);
            CompletableFuture<ImportSummary> cron = CompletableFuture.supplyAsync(() -> {
                try {
                    return writers.importInto(pausingAtFirstChunk(false, paused, goOn)).run(List.of(logs.toString()), ImportListener.Factory.NONE);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, OneLogTwoWritersTest::ownThread);
            assertThat(paused.await(120, TimeUnit.SECONDS)).isTrue();
            try {
                follower.pollOnce(); // opens the live log where the import has it, and reads on
                Files.writeString(live, SampleLogs.lines(LINES + 501, LINES + 600), java.nio.file.StandardOpenOption.APPEND);
                follower.pollOnce();
            } finally {
                goOn.countDown();
            }
            ImportSummary imported = cron.get(120, TimeUnit.SECONDS);
            follower.pollOnce(); // and the import's lines of the live log are not read again by the follower

            Map<String, Integer> urls = storedUrls(store);
            assertThat(urls).hasSize(LINES + 600).allSatisfy((url, times) -> assertThat(times).as(url).isEqualTo(1));
            assertThat(imported.succeeded()).isTrue();
            assertThat(imported.otherWriterLines()).isPositive();
        } finally {
            follower.close();
        }
    }
}
