package dev.crawlerrors.pipeline;

import static dev.crawlerrors.ingest.SampleLogs.lines;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.ingest.format.NamedFormats;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --follow DIR} and {@code --follow 'DIR/*.gz'}: files that appear are read once each,
 * a growing one read on, a compressed one only once whole; the same hits as an import of the files.
 * The test looks ({@link FollowedLogs#pollOnce}) on its own thread.
 */
class FollowDirectoryTest {

    @TempDir
    Path dir;

    private Path logs;
    private DuckDbHitStore store;
    private CrawlerVerifier verifier;
    private FollowedLogs followed;
    private final List<String> notices = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void setUp() throws IOException {
        logs = Files.createDirectories(dir.resolve("logs"));
        store = DuckDbHitStore.open(dir.resolve("hits.duckdb"));
        verifier = newVerifier();
    }

    private CrawlerVerifier newVerifier() throws IOException {
        return new CrawlerVerifier(new IpRangeVerifier(CrawlerCatalog.builtIn(), IpRangeSource.parse(SampleLogs.ipRanges(dir).toString())),
                null);
    }

    @AfterEach
    void tearDown() {
        if (followed != null) {
            followed.close();
        }
        verifier.close();
        store.close();
    }

    /** Follows {@code pattern} (not started: the test looks). */
    private FollowedLogs follow(String pattern) {
        if (followed != null) {
            followed.close();
        }
        followed = new FollowedLogs(List.of(Path.of(pattern)), NamedFormats.chooser("auto", notice -> { }), store,
                new CrawlerIdentifier(CrawlerCatalog.builtIn()), verifier, notices::add);
        return followed;
    }

    private List<String> storedUrls() {
        List<StoredHit> rows = new ArrayList<>();
        store.reader().forEach(HitFilter.ERRORS, rows::add);
        return rows.stream().map(StoredHit::url).sorted().toList();
    }

    private static List<String> urls(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "/page/" + i).sorted().toList();
    }

    private static void append(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }

    /** Sets {@code file}'s modification time a minute back: a file written before the follower started. */
    private static void written(Path file) throws IOException {
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(60)));
    }

    @Test
    void aFileCreatedInAFollowedDirectoryAfterTheStartIsReadOnce() throws Exception {
        append(logs.resolve("a.log"), lines(1, 3));
        FollowedLogs follow = follow(logs.toString());
        follow.pollOnce();
        assertThat(storedUrls()).isEqualTo(urls(1, 3));

        append(logs.resolve("b.log"), lines(4, 6));
        follow.pollOnce();
        follow.pollOnce();

        assertThat(storedUrls()).isEqualTo(urls(1, 6));
        assertThat(notices).containsExactly("following " + logs + ": 1 file: 1 read now (3 lines)",
                logs + "/b.log appeared: read 3 lines");
    }

    @Test
    void aFileAppendedToIsReadOnFromWhereItWasLeftAndAnUnfinishedLineWaits() throws Exception {
        Path log = logs.resolve("access.log");
        append(log, lines(1, 3));
        FollowedLogs follow = follow(logs.toString());
        follow.pollOnce();

        String fourth = lines(4, 4);
        append(log, lines(5, 5).replace("/page/5", "/page/0") + fourth.substring(0, 40)); // line 0, then half of line 4
        follow.pollOnce();
        assertThat(storedUrls()).isEqualTo(urls(0, 3));
        append(log, fourth.substring(40));
        follow.pollOnce();

        assertThat(storedUrls()).isEqualTo(urls(0, 4));
    }

    @Test
    void aGlobOfGzFilesPicksUpANewGzOnceItStaysUnchanged() throws Exception {
        Path first = logs.resolve("edge-2025-11-01-10.gz");
        Files.write(first, gzip(lines(1, 20)));
        written(first);
        Files.writeString(logs.resolve("notes.txt"), "not matched");
        FollowedLogs follow = follow(logs + "/*.gz");
        follow.pollOnce();
        assertThat(storedUrls()).isEqualTo(urls(1, 20));

        Files.write(logs.resolve("edge-2025-11-01-11.gz"), gzip(lines(21, 40)));
        follow.pollOnce();
        assertThat(storedUrls()).as("a compressed file just written is taken at the next look, if unchanged").isEqualTo(urls(1, 20));
        follow.pollOnce();
        follow.pollOnce();

        assertThat(storedUrls()).isEqualTo(urls(1, 40));
        assertThat(notices).containsExactly("following " + logs + "/*.gz: 1 file: 1 read now (20 lines)",
                logs + "/edge-2025-11-01-11.gz appeared: read 20 lines");
    }

    @Test
    void aGzStillBeingWrittenIsNotReadInPartButOnceItIsWhole() throws Exception {
        FollowedLogs follow = follow(logs + "/*.gz");
        Path gz = logs.resolve("edge.gz");
        byte[] whole = gzip(lines(1, 50));
        Files.write(gz, Arrays.copyOf(whole, whole.length / 2));
        follow.pollOnce();
        follow.pollOnce();
        assertThat(storedUrls()).isEmpty();
        assertThat(notices).anySatisfy(notice -> assertThat(notice).startsWith(logs + "/edge.gz is damaged: its gzip data ends early")
                .endsWith("; it is read once it is whole (when it changes)"));

        Files.write(gz, whole);
        follow.pollOnce();
        follow.pollOnce();

        assertThat(storedUrls()).isEqualTo(urls(1, 50));
    }

    @Test
    void aGlobReachingOneFileByTwoLinksAndALoopReadsItOnce() throws Exception {
        Path site = Files.createDirectories(logs.resolve("a"));
        Path log = site.resolve("access.log");
        append(log, lines(1, 3));
        Files.createSymbolicLink(logs.resolve("b"), site);           // the same directory by a second name
        Files.createSymbolicLink(site.resolve("again"), site);       // a link back to the directory it is in
        FollowedLogs follow = follow(logs + "/*/access.log");
        follow.pollOnce();
        append(log, lines(4, 5));
        follow.pollOnce();
        follow.pollOnce();

        assertThat(storedUrls()).isEqualTo(urls(1, 5));
        assertThat(store.health().size()).isEqualTo(5);
    }

    @Test
    void aFileTruncatedInAFollowedDirectoryIsReadAgainFromItsStart() throws Exception {
        Path log = logs.resolve("access.log");
        append(log, lines(1, 3));
        FollowedLogs follow = follow(logs.toString());
        follow.pollOnce();

        try (FileChannel channel = FileChannel.open(log, StandardOpenOption.WRITE)) {
            channel.truncate(0);
        }
        append(log, lines(4, 5));
        follow.pollOnce();
        follow.pollOnce();

        assertThat(storedUrls()).isEqualTo(urls(1, 5));
        assertThat(store.health().size()).isEqualTo(5);
    }

    @Test
    void aPatternMatchingNothingYetSaysSoOnceAndReadsTheFirstFileThatAppears() throws Exception {
        FollowedLogs follow = follow(logs + "/*.log");
        follow.pollOnce();
        follow.pollOnce();
        assertThat(notices).containsExactly("no file matches " + logs + "/*.log yet; files are read as they appear");

        append(logs.resolve("site.log"), lines(1, 2));
        follow.pollOnce();

        assertThat(storedUrls()).isEqualTo(urls(1, 2));
    }

    @Test
    void followingAgainReadsNothingTwiceAndLeavesUnchangedFilesUnopened() throws Exception {
        for (int f = 0; f < 10; f++) {
            Path gz = logs.resolve("edge-" + f + ".gz");
            Files.write(gz, gzip(lines(f * 10 + 1, f * 10 + 10)));
            written(gz);
        }
        append(logs.resolve("access.log"), lines(101, 105));
        follow(logs.toString()).pollOnce();
        assertThat(storedUrls()).isEqualTo(urls(1, 105));
        followed.close();
        followed = null;

        append(logs.resolve("access.log"), lines(106, 107));
        // an unreadable file that was read to its end is not opened again: its stamp says it is unchanged
        Path first = logs.resolve("edge-0.gz");
        first.toFile().setReadable(false);
        notices.clear();
        FollowedLogs again = follow(logs.toString());
        again.pollOnce();
        again.pollOnce();
        first.toFile().setReadable(true);

        assertThat(storedUrls()).isEqualTo(urls(1, 107));
        assertThat(notices).containsExactly("following " + logs + ": 11 files: 1 read now (2 lines), 10 read before");
    }

    @Test
    void followingADirectoryStoresWhatImportingItStores() throws Exception {
        for (int f = 0; f < 30; f++) {
            Path gz = logs.resolve("access.log." + (f + 2) + ".gz");
            // some lines of other agents and some bad ones among the crawler hits
            Files.write(gz, gzip(lines(f * 20 + 1, f * 20 + 20) + "garbage\n"
                    + lines(1000 + f, 1000 + f).replace("(compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
                    "(X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0")));
            written(gz);
        }
        append(logs.resolve("access.log.1"), lines(700, 720));
        append(logs.resolve("access.log"), lines(721, 740));
        follow(logs.toString()).pollOnce();
        List<String> followedUrls = storedUrls();
        long followedSize = store.health().size();

        try (DuckDbHitStore imported = DuckDbHitStore.open(dir.resolve("imported.duckdb"));
             CrawlerVerifier importVerifier = newVerifier()) {
            ImportSummary summary = new LogImport(imported, new CrawlerIdentifier(CrawlerCatalog.builtIn()), importVerifier,
                    NamedFormats.chooser("auto", notice -> { })).run(List.of(logs.toString()), ImportListener.Factory.NONE);
            List<StoredHit> rows = new ArrayList<>();
            imported.reader().forEach(HitFilter.ERRORS, rows::add);
            assertThat(summary.problems()).isEmpty();
            assertThat(followedUrls).isEqualTo(rows.stream().map(StoredHit::url).sorted().toList());
            assertThat(followedSize).isEqualTo(imported.health().size()).isEqualTo(641);
        }
    }
}
