package dev.crawlerrors.pipeline;

import static dev.crawlerrors.pipeline.WatchedStores.follower;
import static dev.crawlerrors.pipeline.WatchedStores.storedUrls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.alert.HitMeters;
import dev.crawlerrors.ingest.format.NamedFormats;
import dev.crawlerrors.pipeline.TwoWriters.Engine;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.TappedStore;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code serve --follow} of a log beside an import of it: the follower's first chunk is committed,
 * then the import stores the whole log (from where the store has it, the rest); the follower's next
 * chunks are refused, as the store refuses them (DuckDB as they are appended, ClickHouse as they are
 * committed, told at a later append or at the flush). What the follower's progress says it stored,
 * and what the import's summary says, add up to what one import of the log alone stores, and the
 * store holds what that one import stores. The follower writes through the store serve taps
 * ({@link TappedStore}) as serve's follower does, so serve's counters at /metrics (and its alerts,
 * fed by the same tap) say the hits the follower's writes committed. The follower reads a file it
 * tails and a directory's files alike. The moment is chosen by a writer around the real store.
 */
@ClickHouseTest
class FollowRefusedAtCommitTest {

    /** Some seven of the reader's chunks. */
    private static final int LINES = 40_000;

    @TempDir
    Path dir;

    private final List<String> notices = Collections.synchronizedList(new ArrayList<>());
    private TwoWriters writers;
    private FollowedLogs followed;

    @BeforeEach
    void setUp() {
        writers = new TwoWriters(dir);
    }

    @AfterEach
    void tearDown() {
        if (followed != null) {
            followed.close();
        }
        writers.close();
    }

    private static double counted(SimpleMeterRegistry registry, String name) {
        return registry.find(name).functionCounters().stream().mapToDouble(FunctionCounter::count).sum();
    }

    @ParameterizedTest
    @CsvSource({"DUCKDB, false", "CLICKHOUSE, false", "DUCKDB, true", "CLICKHOUSE, true"})
    void whatFollowingSaysItStoredIsWhatTheStoreCommitted(Engine engine, boolean directory) throws Exception {
        Path log = writers.log("logs/access.log", LINES);
        HitStore alone = writers.open(engine, "alone");
        ImportSummary clean = writers.imported(alone, log);

        HitStore store = writers.open(engine, "follow_and_import");
        HitMeters meters = new HitMeters();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        meters.bindTo(registry);
        List<Long> tapped = Collections.synchronizedList(new ArrayList<>());
        // as serve taps its store: the follower writes through it
        TappedStore served = new TappedStore(writers.another(engine, store), hits -> {
            meters.stored(hits);
            tapped.add((long) hits.size());
        });
        ImportSummary[] other = new ImportSummary[1];
        Runnable importer = () -> other[0] = writers.imported(store, log);
        followed = new FollowedLogs(List.of(directory ? log.getParent() : log), NamedFormats.chooser("auto", notices::add),
                follower(served, importer), writers.identifier(), writers.verifier(), notices::add);
        followed.pollOnce();
        followed.pollOnce();

        assertThat(other[0]).as("the import beside the follower ran; %s", notices).isNotNull();
        assertThat(other[0].succeeded()).isTrue();
        assertThat(storedUrls(store)).as("what the two stored").isEqualTo(storedUrls(alone));
        long followerHits = followed.progress().crawlerHitsStored();
        assertThat(followerHits).as("the follower's first chunk; %s", notices).isPositive().isLessThan(clean.crawlerHits());
        assertThat(followerHits + other[0].crawlerHits()).as("said stored by the follower and by the import; %s", notices)
                .isEqualTo(clean.crawlerHits());
        long told = tapped.stream().mapToLong(Long::longValue).sum();
        assertThat(told).as("the hits the tap was told; %s", notices).isEqualTo(followerHits);
        assertThat(counted(registry, "crawl_errors_crawler_hits")).as("crawl_errors_crawler_hits at /metrics; %s", notices)
                .isEqualTo((double) followerHits);
    }
}
