package dev.crawlerrors.pipeline;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.WritableStore;
import dev.crawlerrors.store.clickhouse.ClickHouseHitStore;
import dev.crawlerrors.store.clickhouse.ClickHouseSettings;
import dev.crawlerrors.store.clickhouse.ClickHouseTestCluster;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * What the tests of two writers of one store share: stores of either engine (DuckDB a file in the
 * test's folder, ClickHouse a database of the two-shard test cluster), the same store as a second
 * process opens it, imports with the sample logs' IP ranges as the verifier's list, and sample logs
 * written to files. Closes what it opened.
 */
final class TwoWriters implements AutoCloseable {

    /** The engines each test is run on. */
    enum Engine { DUCKDB, CLICKHOUSE }

    private final Path dir;
    private final CrawlerCatalog catalog = CrawlerCatalog.builtIn();
    private final CrawlerVerifier verifier;
    private final List<HitStore> opened = new ArrayList<>();
    private final Map<HitStore, String> names = new IdentityHashMap<>();

    TwoWriters(Path dir) {
        this.dir = dir;
        try {
            verifier = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(SampleLogs.ipRanges(dir).toString())), null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new store of {@code engine} named after {@code prefix}. */
    HitStore open(Engine engine, String prefix) {
        return opened(engine, engine == Engine.DUCKDB ? prefix : ClickHouseTestCluster.database(prefix));
    }

    /**
     * {@code store} as another writer sees it: on ClickHouse a store of its own on the same database,
     * as a second process has; on DuckDB the same store, as one process holds one file.
     */
    HitStore another(Engine engine, HitStore store) {
        return engine == Engine.DUCKDB ? store : opened(engine, names.get(store));
    }

    private HitStore opened(Engine engine, String name) {
        HitStore store = engine == Engine.DUCKDB ? DuckDbHitStore.open(dir.resolve(name + ".duckdb"))
                : ClickHouseHitStore.open(ClickHouseTestCluster.twoShards().location(name), ClickHouseSettings.IMPORT);
        opened.add(store);
        names.put(store, name);
        return store;
    }

    /** The name {@code store} was opened under: its DuckDB file's, or its ClickHouse database. */
    String name(HitStore store) {
        return names.get(store);
    }

    CrawlerIdentifier identifier() {
        return new CrawlerIdentifier(catalog);
    }

    CrawlerVerifier verifier() {
        return verifier;
    }

    LogImport importInto(WritableStore into) {
        return new LogImport(into, identifier(), verifier);
    }

    /** One import of {@code log} into {@code into}, as the command runs it. */
    ImportSummary imported(WritableStore into, Path log) {
        try {
            return importInto(into).run(List.of(log.toString()), ImportListener.Factory.NONE);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The sample log's lines 1 to {@code lines} in {@code file} (in the test's folder), each as {@code line} writes it. */
    Path log(String file, int lines, IntFunction<String> line) throws IOException {
        Path log = dir.resolve(file);
        Files.createDirectories(log.getParent());
        try (BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            for (int i = 1; i <= lines; i++) {
                out.write(line.apply(i));
            }
        }
        return log;
    }

    /** The sample log's lines 1 to {@code lines} in {@code file}. */
    Path log(String file, int lines) throws IOException {
        return log(file, lines, SampleLogs::line);
    }

    @Override
    public void close() {
        verifier.close();
        opened.forEach(HitStore::close);
    }
}
