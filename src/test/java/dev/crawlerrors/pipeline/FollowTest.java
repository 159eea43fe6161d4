package dev.crawlerrors.pipeline;

import static dev.crawlerrors.ingest.SampleLogs.line;
import static dev.crawlerrors.ingest.SampleLogs.lines;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.Waits;
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
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve --follow}: lines appended to a followed log reach the store at once, through rotation, exactly once. */
class FollowTest {

    @TempDir
    Path dir;

    private Path log;
    private DuckDbHitStore store;
    private CrawlerVerifier verifier;
    private FollowedLogs followed;
    private final List<String> notices = Collections.synchronizedList(new ArrayList<>());
    /** What the format chooser said (which format was detected in each file). */
    private final List<String> formatNotices = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void setUp() throws IOException {
        log = dir.resolve("access.log");
        store = DuckDbHitStore.open(dir.resolve("hits.duckdb"));
        CrawlerCatalog catalog = CrawlerCatalog.builtIn();
        verifier = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(SampleLogs.ipRanges(dir).toString())), null);
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
        follow("auto");
    }

    /** Follows {@link #log} with {@code --format format}, on the follower's own thread. */
    private void follow(String format) {
        followed(format).start();
    }

    /** A follower of {@link #log} with {@code --format format}, not started: the test polls. */
    private FollowedLogs followed(String format) {
        CrawlerCatalog catalog = CrawlerCatalog.builtIn();
        followed = new FollowedLogs(List.of(log), NamedFormats.chooser(format, formatNotices::add), store, new CrawlerIdentifier(catalog),
                verifier, notices::add);
        return followed;
    }

    private void append(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private List<String> storedUrls() {
        List<StoredHit> rows = new ArrayList<>();
        store.reader().forEach(HitFilter.ERRORS, rows::add);
        return rows.stream().sorted(Comparator.comparingLong(StoredHit::id)).map(StoredHit::url).toList();
    }

    private static List<String> urls(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "/page/" + i).toList();
    }

    /** Waits until {@code /page/from..to} are all stored, then checks that each is stored exactly once. */
    private void awaitStoredExactly(int from, int to) throws InterruptedException {
        Waits.await("/page/" + from + " to " + to + " stored").until(() -> storedUrls().containsAll(urls(from, to)));
        assertThat(storedUrls()).containsExactlyInAnyOrderElementsOf(urls(from, to));
    }

    @Test
    void aLogThatChangesFormatWhileFollowedIsReadOnInTheNewOneAndSaysSoOnce() throws Exception {
        append(log, lines(1, 3));
        follow();
        awaitStoredExactly(1, 3);

        // nginx's log_format given escape=json and reloaded: the same file goes on in JSON
        for (int i = 4; i <= 6; i++) {
            append(log, SampleLogs.NGINX_JSON.replace("/gent/veldstraat?x=1", "/page/" + i) + "\n");
        }

        awaitStoredExactly(1, 6);
        assertThat(notices).containsExactly("following " + log + " from its start",
                log + " line 4 is in another format than the log's: read as JSON lines, as are the lines like it");
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
        copytruncate();
        append(log, lines(8, 9));

        awaitStoredExactly(1, 9);
        followed.close();
        assertThat(storedUrls()).containsExactlyInAnyOrderElementsOf(urls(1, 9));
        assertThat(notices).contains(log + " was truncated (copytruncate); reading it again from its start");
    }

    @Test
    void linesTheServerWroteBeforeACopytruncateWhileNotFollowedAreReadFromTheCopy() throws Exception {
        linesWrittenBeforeARotationWhileNotFollowedAreReadFromTheRotatedCopy(this::copytruncate);
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
        linesWrittenBeforeARotationWhileNotFollowedAreReadFromTheRotatedCopy(() -> Files.move(log, dir.resolve("access.log.1")));
    }

    /** Lines 4 and 5 are written while the follower is stopped, then {@code rotate} moves them to access.log.1, then line 6. */
    private void linesWrittenBeforeARotationWhileNotFollowedAreReadFromTheRotatedCopy(Rotation rotate) throws Exception {
        append(log, lines(1, 3));
        follow();
        awaitStoredExactly(1, 3);
        followed.close();
        append(log, lines(4, 5));
        rotate.run();
        append(log, lines(6, 6));

        follow();

        awaitStoredExactly(1, 6);
        assertThat(notices).contains(dir.resolve("access.log.1") + ": read 2 lines written before it was rotated");
    }

    /** A rotation of {@link #log} to access.log.1, as logrotate does it one way or the other. */
    private interface Rotation {
        void run() throws IOException;
    }

    /** logrotate's copytruncate: {@link #log} copied to access.log.1, then emptied in place. */
    private void copytruncate() throws IOException {
        Files.copy(log, dir.resolve("access.log.1"));
        try (FileChannel channel = FileChannel.open(log, StandardOpenOption.WRITE)) {
            channel.truncate(0);
        }
    }

    private static String linesOf(int from, int to, IntFunction<String> line) {
        StringBuilder sb = new StringBuilder();
        IntStream.rangeClosed(from, to).forEach(i -> sb.append(line.apply(i)).append('\n'));
        return sb.toString();
    }

    private static String caddy(int i) {
        return SampleLogs.CADDY.replace("/gent/veldstraat?x=1", "/page/" + i);
    }

    private static String iis(int i) {
        return SampleLogs.IIS_LINE.replace("/gent/veldstraat x=1", "/page/" + i + " -");
    }

    @Test
    void aGrowingAutoDetectedLogIsStoredAfterOnePollWithoutWaitingForAThousandLines() throws Exception {
        append(log, lines(1, 3));
        FollowedLogs follower = followed("auto");

        follower.pollOnce();

        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 3));
        assertThat(formatNotices).containsExactly("format: combined with request time in seconds (nginx $request_time); "
                + "auto-detected from all 3 lines of " + log + ", 3 parsed");
        append(log, line(4));
        follower.pollOnce();
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 4));
        assertThat(formatNotices).hasSize(1); // decided once per file
    }

    @Test
    void followsACaddyJsonLogDetectedFromItsFirstLines() throws Exception {
        append(log, linesOf(1, 2, FollowTest::caddy));
        follow();
        awaitStoredExactly(1, 2);

        append(log, linesOf(3, 4, FollowTest::caddy));

        awaitStoredExactly(1, 4);
        assertThat(formatNotices).containsExactly("format: JSON lines (Caddy); auto-detected from all 2 lines of " + log + ", 2 parsed");
    }

    @Test
    void followsALogInTheNginxFormatItWasGiven() throws Exception {
        String format = "nginx:$host $remote_addr [$time_iso8601] \"$request\" $status $request_time \"$http_user_agent\"";
        IntFunction<String> line = i -> "www.straatinfo.be 66.249.66." + i + " [2025-05-14T09:31:02+02:00] \"GET /page/" + i
                + " HTTP/1.1\" 404 0.012 \"" + SampleLogs.GOOGLEBOT + "\"";
        append(log, linesOf(1, 2, line));
        follow(format);
        awaitStoredExactly(1, 2);

        append(log, linesOf(3, 5, line));

        awaitStoredExactly(1, 5);
        assertThat(formatNotices).isEmpty();
    }

    @Test
    void aW3cLogKeepsItsFieldsFromOnePollToTheNextAndAcrossARestart() throws Exception {
        append(log, SampleLogs.IIS_HEADER + linesOf(1, 2, FollowTest::iis));
        FollowedLogs follower = followed("auto");
        follower.pollOnce();
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 2));

        append(log, linesOf(3, 3, FollowTest::iis));
        follower.pollOnce();
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 3));
        follower.close();

        append(log, linesOf(4, 5, FollowTest::iis));
        followed("w3c").pollOnce();
        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 5));
        assertThat(notices).noneMatch(notice -> notice.contains("#Fields"));
    }

    @Test
    void aW3cLogRotatedWhileNotFollowedIsReadOnFromItsRotatedCopyWithItsFields() throws Exception {
        append(log, SampleLogs.IIS_HEADER + linesOf(1, 2, FollowTest::iis));
        FollowedLogs follower = followed("auto");
        follower.pollOnce();
        follower.close();
        // while serve was down: one more line, then rename-and-create with a header of its own
        append(log, linesOf(3, 3, FollowTest::iis));
        Files.move(log, dir.resolve("access.log.1"));
        append(log, SampleLogs.IIS_HEADER + linesOf(4, 4, FollowTest::iis));

        followed("auto").pollOnce();

        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 4));
        assertThat(notices).contains(dir.resolve("access.log.1") + ": read 1 line written before it was rotated");
    }

    @Test
    void aLogReplacedByRotationHasItsFormatDetectedAfresh() throws Exception {
        append(log, lines(1, 2));
        follow();
        awaitStoredExactly(1, 2);

        Files.move(log, dir.resolve("access.log.1"));
        append(log, linesOf(3, 4, FollowTest::caddy)); // the server now writes JSON

        awaitStoredExactly(1, 4);
        assertThat(formatNotices).hasSize(2).last().asString().startsWith("format: JSON lines (Caddy); auto-detected from all 2 lines");
    }

    @Test
    void aLogWhoseFirstLinesAreInNoFormatIsTriedAgainWhenItGrows() throws Exception {
        append(log, "starting up\n");
        FollowedLogs follower = followed("auto");
        follower.pollOnce();
        assertThat(storedUrls()).isEmpty();
        assertThat(notices).last().asString().contains("the log format could not be detected: its only line is in none of the formats tried")
                .endsWith("; tried again as it grows");

        append(log, lines(1, 2));
        follower.pollOnce();

        assertThat(storedUrls()).containsExactlyElementsOf(urls(1, 2));
        assertThat(formatNotices).last().asString().contains("auto-detected from all 3 lines of " + log + ", 2 parsed");
        assertThat(notices).last().asString().contains("line 1").contains("starting up");
    }

    @Test
    void aLogInNoFormatForAsManyLinesAsDetectionReadsIsLeftUnreadAndSaidOnce() throws Exception {
        append(log, linesOf(1, 1000, i -> "starting worker " + i));
        FollowedLogs follower = followed("auto");
        follower.pollOnce();
        append(log, lines(1, 2));

        follower.pollOnce();

        assertThat(storedUrls()).isEmpty();
        assertThat(notices).filteredOn(notice -> notice.contains("could not be detected")).singleElement().asString()
                .contains("1,000 of the first 1,000 lines are in none of the formats tried").endsWith("; it is not read");
    }

    /** The follower's poll interval, for waits that must span a few polls. */
    private static final class LogFollowerPoll {
        static final long MILLIS = dev.crawlerrors.ingest.source.LogFollower.POLL.toMillis();
    }
}
