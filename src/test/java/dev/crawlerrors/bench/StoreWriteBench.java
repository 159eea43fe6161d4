package dev.crawlerrors.bench;

import dev.crawlerrors.ingest.source.ReadRequest;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.ReadProgress;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.ingest.format.CombinedLineParser;
import dev.crawlerrors.ingest.source.LogReader;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the store costs an import: the crawler hits of a benchmark log (see {@link BenchLog}) are
 * parsed, identified and verified once, held in memory in the chunks an import reads (1 MiB of log
 * each, with its position), then appended to a fresh store file round after round, the way
 * {@code import} appends them: {@code open(file, 1)}, {@code append(hits, progress)} per chunk,
 * {@code close()}. Each round prints wall time, rows/s, and the CPU of the store's writer thread
 * and of the whole process (the appending thread, GC and the checkpoint at close included), per row.
 * Then one deep report page (offset near the end) is timed on the store the last round wrote.
 *
 * <p>Only the store's public API is used, so the same compiled class runs against another build of
 * the store: put that build's jar after the test classes. Compare builds alternately in one run of
 * the shell loop below (2 shared cores: ratios, not absolute times):
 *
 * <pre>
 * export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
 * mvn -B -q -DskipTests package &amp;&amp; mvn -B -q test-compile
 * cp /path/to/other/crawl-errors.jar /tmp/base.jar
 * for i in 1 2; do for jar in /tmp/base.jar target/crawl-errors.jar; do
 *   $JAVA_HOME/bin/java -Xms3g -Xmx3g -XX:+AlwaysPreTouch --enable-native-access=ALL-UNNAMED -cp target/test-classes:$jar \
 *       dev.crawlerrors.bench.StoreWriteBench /work/bench/5m.log 2
 * done; done
 * </pre>
 *
 * {@code -XX:+AlwaysPreTouch} keeps the heap's first-touch page faults out of the writer's CPU.
 * Arguments: the log (default {@code /work/bench/5m.log}), rounds (default 3), store file (default
 * a temporary file, deleted after each round).
 */
public final class StoreWriteBench {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        Path log = Path.of(args.length > 0 ? args[0] : "/work/bench/5m.log");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path db = args.length > 2 ? Path.of(args[2]) : Files.createTempFile("store-write-bench", ".duckdb");

        long t0 = System.nanoTime();
        List<Chunk> chunks = read(log);
        long rows = chunks.stream().mapToLong(c -> c.hits.size()).sum();
        System.out.printf("%s: %,d chunks, %,d crawler hits, read in %.1f s; store %s%n", log, chunks.size(), rows,
                (System.nanoTime() - t0) / 1e9, DuckDbHitStore.class.getProtectionDomain().getCodeSource().getLocation());

        for (int round = 1; round <= rounds; round++) {
            delete(db);
            System.gc();
            long cpu0 = processCpu();
            long start = System.nanoTime();
            long writerCpu;
            try (DuckDbHitStore store = DuckDbHitStore.open(db, 1)) {
                for (Chunk chunk : chunks) {
                    store.writer().append(chunk.hits, chunk.from, chunk.through);
                }
                store.writer().flush();
                writerCpu = threadCpu("store-writer");
            }
            long wall = System.nanoTime() - start;
            long cpu = processCpu() - cpu0;
            System.out.printf("round %d: %,.0f rows/s, %.2f s wall; store-writer %.2f CPU-s (%.2f µs/row); process %.2f CPU-s "
                            + "(%.2f µs/row); file %,d KB%n", round, rows / (wall / 1e9), wall / 1e9, writerCpu / 1e9,
                    writerCpu / 1e3 / rows, cpu / 1e9, cpu / 1e3 / rows, Files.size(db) / 1024);
        }

        // a deep page of the default report (errors): what its last pages cost
        try (DuckDbHitStore store = DuckDbHitStore.open(db)) {
            long total = store.reader().count(HitFilter.ERRORS);
            long[] times = new long[5];
            for (int i = 0; i < times.length; i++) {
                long start = System.nanoTime();
                store.reader().page(HitFilter.ERRORS, total - 100, 50);
                times[i] = System.nanoTime() - start;
            }
            Arrays.sort(times);
            System.out.printf("deep page (offset %,d of %,d): median %.1f ms%n", total - 100, total, times[2] / 1e6);
        }
        delete(db);
    }

    /** The crawler hits of {@code log} per 1 MiB of log, as the import's {@code LogReader} hands them on, each with its position. */
    private static List<Chunk> read(Path log) throws Exception {
        CrawlerCatalog catalog = CrawlerCatalog.builtIn();
        CrawlerIdentifier identifier = new CrawlerIdentifier(catalog);
        CrawlerVerifier verifier = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse("bench/ip-ranges")), null);
        List<Chunk> chunks = new ArrayList<>();
        try (LogReader reader = new LogReader(FormatChooser.of(new CombinedLineParser())); InputStream in = Files.newInputStream(log)) {
            reader.read(in, ReadRequest.of(new SourceProgress("bench-" + log.getFileName(), log.toString(), 0, 0), identifier, (hits, from, through) -> {
                List<CrawlerHit> crawlerHits = new ArrayList<>(hits.size());
                for (Hit hit : hits) {
                    identifier.identify(hit.userAgent()).ifPresent(crawler -> crawlerHits.add(verifier.verify(hit, crawler)));
                }
                chunks.add(new Chunk(crawlerHits, from, through));
            }));
        }
        return chunks;
    }


    private static long threadCpu(String name) {
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals(name)) {
                return THREADS.getThreadCpuTime(thread.threadId());
            }
        }
        return -1;
    }

    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static void delete(Path db) throws IOException {
        Files.deleteIfExists(db);
        Files.deleteIfExists(Path.of(db + ".wal"));
    }

    private record Chunk(List<CrawlerHit> hits, SourceProgress from, SourceProgress through) {
    }
}
