package dev.crawlerrors.pipeline;

import static dev.crawlerrors.pipeline.WatchedStores.follower;
import static dev.crawlerrors.pipeline.WatchedStores.storedUrls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ClickHouseTest;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.ingest.format.NamedFormats;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.WritableStore;
import dev.crawlerrors.store.clickhouse.ClickHouseHitStore;
import dev.crawlerrors.store.clickhouse.ClickHouseSettings;
import dev.crawlerrors.store.clickhouse.ClickHouseTestCluster;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code serve --follow} of a log beside an import of it: the follower's first chunk is committed,
 * then the import stores the whole log (from where the store has it, the rest); the follower's next
 * chunks are refused, as the store refuses them (DuckDB as they are appended, ClickHouse as they are
 * committed, told at a later append or at the flush). What the follower's progress says it stored,
 * and what the import's summary says, add up to what one import of the log alone stores, and the
 * store holds what that one import stores. The follower reads a file it tails and a directory's
 * files alike. The moment is chosen by a writer around the real store.
 */
@ClickHouseTest
class FollowRefusedAtCommitTest {

    /** Some seven of the reader's chunks. */
    private static final int LINES = 40_000;

    @TempDir
    Path dir;

    enum Engine { DUCKDB, CLICKHOUSE }

    private final List<HitStore> opened = new ArrayList<>();
    private final List<String> notices = Collections.synchronizedList(new ArrayList<>());
    private final CrawlerCatalog catalog = CrawlerCatalog.builtIn();
    private CrawlerVerifier verifier;
    private FollowedLogs followed;

    @AfterEach
    void tearDown() {
        if (followed != null) {
            followed.close();
        }
        if (verifier != null) {
            verifier.close();
        }
        opened.forEach(HitStore::close);
    }

    /** A store of {@code engine}; {@code name} a new one (a file, a database), or another process's of that one. */
    private HitStore open(Engine engine, String name) {
        HitStore store = engine == Engine.DUCKDB ? DuckDbHitStore.open(dir.resolve(name + ".duckdb"))
                : ClickHouseHitStore.open(ClickHouseTestCluster.twoShards().location(name),
                        ClickHouseSettings.IMPORT);
        opened.add(store);
        return store;
    }

    private static String database(Engine engine, String prefix) {
        return engine == Engine.DUCKDB ? prefix : ClickHouseTestCluster.database(prefix);
    }

    private Path log(Path in) throws IOException {
        Files.createDirectories(in);
        Path log = in.resolve("access.log");
        try (BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            for (int i = 1; i <= LINES; i++) {
                out.write(SampleLogs.line(i));
            }
        }
        return log;
    }

    private LogImport importInto(WritableStore into) {
        return new LogImport(into, new CrawlerIdentifier(catalog), verifier);
    }

    @ParameterizedTest
    @CsvSource({"DUCKDB, false", "CLICKHOUSE, false", "DUCKDB, true", "CLICKHOUSE, true"})
    void whatFollowingSaysItStoredIsWhatTheStoreCommitted(Engine engine, boolean directory) throws Exception {
        verifier = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(SampleLogs.ipRanges(dir).toString())), null);
        Path logs = dir.resolve("logs");
        Path log = log(logs);
        HitStore alone = open(engine, database(engine, "alone"));
        ImportSummary clean = importInto(alone).run(List.of(log.toString()), ImportListener.Factory.NONE);

        String db = database(engine, "follow_and_import");
        HitStore store = open(engine, db);
        // ClickHouse: a store each, as two processes have; DuckDB: one store in one process
        HitStore followerStore = engine == Engine.DUCKDB ? store : open(engine, db);
        ImportSummary[] other = new ImportSummary[1];
        Runnable importer = () -> {
            try {
                other[0] = importInto(store).run(List.of(log.toString()), ImportListener.Factory.NONE);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        followed = new FollowedLogs(List.of(directory ? logs : log), NamedFormats.chooser("auto", notices::add),
                follower(followerStore, importer), new CrawlerIdentifier(catalog), verifier, notices::add);
        followed.pollOnce();
        followed.pollOnce();

        assertThat(other[0]).as("the import beside the follower ran; %s", notices).isNotNull();
        assertThat(other[0].succeeded()).isTrue();
        assertThat(storedUrls(store)).as("what the two stored").isEqualTo(storedUrls(alone));
        long followerHits = followed.progress().crawlerHitsStored();
        assertThat(followerHits).as("the follower's first chunk; %s", notices).isPositive().isLessThan(clean.crawlerHits());
        assertThat(followerHits + other[0].crawlerHits()).as("said stored by the follower and by the import; %s", notices)
                .isEqualTo(clean.crawlerHits());
    }
}
