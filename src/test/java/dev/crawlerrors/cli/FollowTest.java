package dev.crawlerrors.cli;

import static dev.crawlerrors.cli.ImportSourcesTest.line;
import static dev.crawlerrors.cli.ImportSourcesTest.lines;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.CrawlerVerifier;
import dev.crawlerrors.crawler.IpRangeSource;
import dev.crawlerrors.crawler.IpRangeVerifier;
import dev.crawlerrors.ingest.LogFormat;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.store.DuckDbHitStore;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve --follow}: lines appended to a followed log reach the store at once, through rotation, exactly once. */
class FollowTest {

    private static final long DEADLINE_MS = 5_000;

    @TempDir
    Path dir;

    private Path log;
    private DuckDbHitStore store;
    private CrawlerVerifier verifier;
    private FollowedLogs followed;
    private final List<String> notices = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void setUp() throws IOException {
        log = dir.resolve("access.log");
        store = DuckDbHitStore.open(dir.resolve("hits.duckdb"));
        CrawlerCatalog catalog = CrawlerCatalog.builtIn();
        verifier = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(ImportSourcesTest.ipRanges(dir).toString())), null);
    }

    @AfterEach
    void tearDown() {
        if (followed != null) {
            followed.close();
        }
        verifier.close();
        store.close();
    }

    private void follow() {
        CrawlerCatalog catalog = CrawlerCatalog.builtIn();
        followed = new FollowedLogs(List.of(log), store, new CrawlerIdentifier(catalog), verifier, notices::add);
        followed.start();
    }

    private void append(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private List<String> storedUrls() {
        List<StoredHit> rows = new ArrayList<>();
        store.forEach(HitFilter.ERRORS, rows::add);
        return rows.stream().sorted(Comparator.comparingLong(StoredHit::id)).map(StoredHit::url).toList();
    }

    private static List<String> urls(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "/page/" + i).toList();
    }

    /** Waits until {@code /page/from..to} are all stored, then checks that each is stored exactly once. */
    private void awaitStoredExactly(int from, int to) throws InterruptedException {
        long deadline = System.currentTimeMillis() + DEADLINE_MS;
        while (!storedUrls().containsAll(urls(from, to)) && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertThat(storedUrls()).containsExactlyInAnyOrderElementsOf(urls(from, to));
    }

    @Test
    void anAppendedLineReachesTheStoreAndAnUnfinishedOneWaitsForItsNewline() throws Exception {
        append(log, lines(1, 3));
        follow();
        awaitStoredExactly(1, 3);

        String fourth = line(4);
        append(log, fourth.substring(0, 40));
        Thread.sleep(3 * LogFollowerPoll.MILLIS);
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 3));
        append(log, fourth.substring(40) + line(5));

        awaitStoredExactly(1, 5);
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 5));
        assertThat(notices).containsExactly("following " + log + " from its start");
    }

    @Test
    void aRenamedAwayLogIsReadToItsEndAndTheNewOneFromItsStart() throws Exception {
        append(log, lines(1, 5));
        follow();
        awaitStoredExactly(1, 5);

        append(log, lines(6, 7));
        Path rotated = dir.resolve("access.log.1");
        Files.move(log, rotated);
        append(rotated, line(8)); // the server writes to the old file until it reopens its log
        append(log, lines(9, 10));

        awaitStoredExactly(1, 10);
        followed.close();
        assertThat(storedUrls()).containsExactlyInAnyOrderElementsOf(urls(1, 10));
        assertThat(notices).contains(log + " was rotated (renamed away); the old file is read to its end, the new one from its start");
    }

    @Test
    void aLogTruncatedInPlaceIsReadAgainFromItsStartAndItsCopyToItsEnd() throws Exception {
        append(log, lines(1, 5));
        follow();
        awaitStoredExactly(1, 5);

        // logrotate's copytruncate: lines 6 and 7 may reach the copy before the follower sees them
        append(log, lines(6, 7));
        Files.copy(log, dir.resolve("access.log.1"));
        try (FileChannel channel = FileChannel.open(log, StandardOpenOption.WRITE)) {
            channel.truncate(0);
        }
        append(log, lines(8, 9));

        awaitStoredExactly(1, 9);
        followed.close();
        assertThat(storedUrls()).containsExactlyInAnyOrderElementsOf(urls(1, 9));
        assertThat(notices).contains(log + " was truncated (copytruncate); reading it again from its start");
    }

    @Test
    void aLogThatAppearsLaterIsPickedUpAndItsAbsenceSaidOnce() throws Exception {
        follow();
        Thread.sleep(3 * LogFollowerPoll.MILLIS);

        append(log, lines(1, 2));

        awaitStoredExactly(1, 2);
        assertThat(notices).containsExactly(log + " does not exist yet; it is read from its start once it appears",
                log + " appeared; reading it from its start");
    }

    @Test
    void followingAgainReadsOnWhereTheLastRunStopped() throws Exception {
        append(log, lines(1, 3));
        follow();
        awaitStoredExactly(1, 3);
        followed.close();
        append(log, lines(4, 6));

        follow();

        awaitStoredExactly(1, 6);
        assertThat(notices).endsWith("following " + log + " from line 4 (3 lines were read before)");
    }

    @Test
    void linesTheServerWroteBeforeARotationWhileNotFollowedAreReadFromTheRotatedCopy() throws Exception {
        append(log, lines(1, 3));
        follow();
        awaitStoredExactly(1, 3);
        followed.close();
        // while serve was down: two more lines, then rename-and-create
        append(log, lines(4, 5));
        Files.move(log, dir.resolve("access.log.1"));
        append(log, lines(6, 6));

        follow();

        awaitStoredExactly(1, 6);
        assertThat(notices).contains(dir.resolve("access.log.1") + ": read 2 lines written before it was rotated");
    }

    @Test
    void followsALogInTheFormatDetectedFromItsFirstLinesAndSaysWhichOnce() throws Exception {
        append(log, caddy(1) + caddy(2));
        CrawlerCatalog catalog = CrawlerCatalog.builtIn();
        followed = new FollowedLogs(List.of(log), LogFormat.liveChooser("auto", notices::add), store, new CrawlerIdentifier(catalog),
                verifier, notices::add);
        followed.start();
        awaitStoredExactly(1, 2);

        append(log, caddy(3));
        append(log, caddy(4));

        awaitStoredExactly(1, 4);
        assertThat(notices).containsExactly("following " + log + " from its start",
                "format: JSON lines (Caddy); auto-detected from all 2 lines of " + log + ", 2 parsed");
    }

    /** Caddy's JSON access-log line for a verified Googlebot 404 of {@code /page/i}, with its newline. */
    private static String caddy(int i) {
        return SampleLogs.CADDY.replace("/gent/veldstraat?x=1", "/page/" + i) + "\n";
    }

    /** The follower's poll interval, for waits that must span a few polls. */
    private static final class LogFollowerPoll {
        static final long MILLIS = dev.crawlerrors.ingest.LogFollower.POLL.toMillis();
    }
}
