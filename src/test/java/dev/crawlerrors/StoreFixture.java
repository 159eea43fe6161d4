package dev.crawlerrors;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/** Real store files for the tests of what a damaged store does: made by the store itself, then damaged as a disk would. */
public final class StoreFixture {

    private static final Crawler GOOGLEBOT = new Crawler("Googlebot Smartphone", "Google", BotType.crawler_search,
            List.of("Googlebot"), null, null, null);
    private static final long START = Instant.parse("2025-05-14T00:00:00Z").toEpochMilli();

    /** Sound stores made once in this JVM, by their number of hits: copied by each test that damages one. */
    private static final Map<Integer, Path> MADE = new HashMap<>();

    private StoreFixture() {
    }

    /**
     * A copy, in {@code file}, of a sound store of {@code count} hits ({@link #storeOf}) made once for
     * all the tests of this JVM (50,000 hits take a few seconds to store).
     */
    public static synchronized Path copyOfStoreOf(Path file, int count) throws IOException {
        Path made = MADE.get(count);
        if (made == null) {
            Path dir = Files.createTempDirectory("crawl-errors-store-fixture");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try (Stream<Path> files = Files.list(dir)) {
                    for (Path f : files.toList()) {
                        Files.deleteIfExists(f);
                    }
                    Files.deleteIfExists(dir);
                } catch (IOException e) {
                    // a temporary directory: the system clears it in the end
                }
            }));
            made = storeOf(dir.resolve("sound-" + count + ".duckdb"), count);
            MADE.put(count, made);
        }
        return Files.copy(made, file, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * A closed store in {@code file} holding {@code count} Googlebot hits, one a second, on URLs and
     * addresses varied enough that it takes some 20 bytes a hit (200,000 hits: about 4 MB).
     */
    public static Path storeOf(Path file, int count) {
        SplittableRandom random = new SplittableRandom(20250514);
        try (DuckDbHitStore store = DuckDbHitStore.open(file)) {
            List<CrawlerHit> batch = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String ip = "66.249." + random.nextInt(64, 80) + "." + random.nextInt(1, 255);
                String url = "/street/" + Long.toString(random.nextLong() >>> 20, 36) + "?page=" + random.nextInt(1000);
                int status = random.nextInt(10) < 3 ? 404 : 200;
                Hit hit = new Hit(START + i * 1000L, 120, ip, "GET", url, status, random.nextInt(100_000), null,
                        "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X) (compatible; Googlebot/2.1)", random.nextInt(1, 500) / 10.0, null);
                batch.add(new CrawlerHit(hit, GOOGLEBOT, new Verdict(Verification.verified, "in common-crawlers.json")));
                if (batch.size() == 10_000) {
                    store.writer().append(batch);
                    batch = new ArrayList<>();
                }
            }
            store.writer().append(batch);
        }
        return file;
    }

    /** Writes {@code length} zero bytes into {@code file} from {@code offset}, as a failing disk or a bad copy leaves it. */
    public static void zero(Path file, long offset, int length) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(length), offset);
        }
    }

    /** Cuts {@code file} to half its length, as a full disk or a copy that stopped leaves it. */
    public static void cutInHalf(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(channel.size() / 2);
        }
    }
}
