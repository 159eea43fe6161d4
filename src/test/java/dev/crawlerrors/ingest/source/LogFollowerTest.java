package dev.crawlerrors.ingest.source;

import static dev.crawlerrors.ingest.SampleLogs.line;
import static dev.crawlerrors.ingest.SampleLogs.lines;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.Waits;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.ingest.SourceSink;
import dev.crawlerrors.ingest.format.AgentFilter;
import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.format.NamedFormats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Following growing log files on its own, polled by the test (no thread, no wait): complete lines
 * handed on with the position they end at, a partial line held for its newline, rotation by rename
 * and by copytruncate, a log that appears later, and a restart that reads on from the recorded
 * position. The store behind it is {@code pipeline.FollowTest}'s.
 */
class LogFollowerTest {

    @TempDir
    Path dir;

    private final List<String> urls = Collections.synchronizedList(new ArrayList<>());
    private final List<String> notices = Collections.synchronizedList(new ArrayList<>());
    /** The recorded position of each log, by key: what a store would hold. */
    private final Map<String, SourceProgress> recorded = new ConcurrentHashMap<>();
    private final List<LogFollower> followers = new ArrayList<>();

    @AfterEach
    void closeFollowers() {
        followers.forEach(LogFollower::close);
    }

    private final SourceSink sink = (List<Hit> hits, SourceProgress from, SourceProgress through) -> {
        hits.forEach(hit -> urls.add(hit.url()));
        recorded.put(through.fingerprint(), through);
    };

    private final ImportedSources imported = fingerprints -> recorded.values().stream()
            .filter(p -> fingerprints.contains(p.prefix())).toList();

    private LogFollower follower(Path... logs) {
        FormatChooser combined = NamedFormats.chooser("combined", notice -> { });
        LogFollower follower = new LogFollower(List.of(logs), new LogReader(combined), combined, AgentFilter.ALL, imported, sink,
                counts -> { }, notices::add);
        followers.add(follower);
        return follower;
    }

    private static void append(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static List<String> pages(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "/page/" + i).toList();
    }

    @Test
    void handsOnCompleteLinesWithTheirPositionAndHoldsAPartialOneForItsNewline() throws IOException {
        Path log = dir.resolve("access.log");
        append(log, lines(1, 3));
        String fourth = line(4);
        append(log, fourth.substring(0, 30));
        LogFollower follower = follower(log);

        follower.pollOnce();
        assertThat(urls).containsExactlyElementsOf(pages(1, 3));
        assertThat(recorded.values()).singleElement().satisfies(p -> {
            assertThat(p.lines()).isEqualTo(3);
            assertThat(p.bytes()).isEqualTo(lines(1, 3).getBytes(StandardCharsets.UTF_8).length);
        });

        follower.pollOnce();
        assertThat(urls).as("nothing new").hasSize(3);

        append(log, fourth.substring(30) + line(5));
        follower.pollOnce();
        assertThat(urls).containsExactlyElementsOf(pages(1, 5));
        assertThat(notices).containsExactly("following " + log + " from its start");
    }

    @Test
    void readsARenamedAwayLogToItsEndAndTheNewOneFromItsStart() throws IOException {
        Path log = dir.resolve("access.log");
        append(log, lines(1, 2));
        LogFollower follower = follower(log);
        follower.pollOnce();

        append(log, line(3));
        Path rotated = dir.resolve("access.log.1");
        Files.move(log, rotated);
        append(rotated, line(4)); // the server writes to the old file until it reopens its log
        append(log, lines(5, 6));
        follower.pollOnce();
        follower.pollOnce();

        assertThat(urls).containsExactlyInAnyOrderElementsOf(pages(1, 6));
        assertThat(notices).contains(log + " was rotated (renamed away); the old file is read to its end, the new one from its start");
    }

    @Test
    void readsALogTruncatedInPlaceAgainFromItsStartAfterTheLinesItsCopyGot() throws IOException {
        Path log = dir.resolve("access.log");
        append(log, lines(1, 2));
        LogFollower follower = follower(log);
        follower.pollOnce();

        append(log, lines(3, 4)); // reach the copy before the follower sees them
        Files.copy(log, dir.resolve("access.log.1"));
        Files.write(log, new byte[0], StandardOpenOption.TRUNCATE_EXISTING);
        append(log, line(5));
        follower.pollOnce();

        assertThat(urls).containsExactlyInAnyOrderElementsOf(pages(1, 5)).doesNotHaveDuplicates();
        assertThat(notices).contains(log + " was truncated (copytruncate); reading it again from its start");
    }

    @Test
    void picksUpALogThatAppearsLaterAndSaysItsAbsenceOnce() throws IOException {
        Path log = dir.resolve("access.log");
        LogFollower follower = follower(log);
        follower.pollOnce();
        follower.pollOnce();

        append(log, lines(1, 2));
        follower.pollOnce();

        assertThat(urls).containsExactlyElementsOf(pages(1, 2));
        assertThat(notices).containsExactly(log + " does not exist yet; it is read from its start once it appears",
                log + " appeared; reading it from its start");
    }

    @Test
    void readsOnFromThePositionRecordedByTheLastRun() throws IOException {
        Path log = dir.resolve("access.log");
        append(log, lines(1, 3));
        LogFollower first = follower(log);
        first.pollOnce();
        first.close();
        append(log, lines(4, 6));

        follower(log).pollOnce();

        assertThat(urls).containsExactlyElementsOf(pages(1, 6));
        assertThat(notices).endsWith("following " + log + " from line 4 (3 lines were read before)");
    }

    @Test
    void saysHowFarBehindEachLogIsAndWhenItLastGrew() throws IOException {
        Path log = dir.resolve("access.log");
        append(log, lines(1, 2));
        LogFollower follower = follower(log);
        assertThat(follower.status()).singleElement().satisfies(s -> assertThat(s.lastGrowthMillis()).isZero());

        follower.pollOnce();

        assertThat(follower.status()).singleElement().satisfies(s -> {
            assertThat(s.name()).isEqualTo(log.toString());
            assertThat(s.behindBytes()).isZero();
            assertThat(s.behindSinceMillis()).isZero();
            assertThat(s.lastGrowthMillis()).isPositive();
        });
    }

    @Test
    void followsOnItsOwnThreadUntilClosed() throws IOException {
        Path log = dir.resolve("access.log");
        LogFollower follower = follower(log);
        follower.start();

        append(log, lines(1, 2));
        Waits.await("two lines followed").until(() -> urls.size() == 2);
        follower.close();

        assertThat(urls).containsExactlyElementsOf(pages(1, 2));
    }
}
