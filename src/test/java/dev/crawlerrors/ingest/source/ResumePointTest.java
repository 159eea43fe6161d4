package dev.crawlerrors.ingest.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.ReadProgress;
import dev.crawlerrors.ingest.SourceProgress;
import dev.crawlerrors.ingest.format.AgentFilter;
import dev.crawlerrors.ingest.format.CombinedLineParser;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Logs are known by their content: the same beginning is the same log, under any name, however it grew. */
class ResumePointTest {

    private final Map<String, SourceProgress> recorded = new HashMap<>();
    private final ImportedSources imported = fingerprints -> fingerprints.stream()
            .filter(recorded::containsKey).map(recorded::get).toList();

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] beginning(String text) {
        byte[] all = bytes(text);
        return Arrays.copyOf(all, Math.min(all.length, Fingerprint.PREFIX_BYTES));
    }

    /** Records {@code text} as read to its end, as an import would. */
    private void imported(String name, String text) {
        ResumePoint resume = ResumePoint.find(name, beginning(text), true, imported);
        recorded.put(resume.start().fingerprint(),
                new SourceProgress(resume.start().fingerprint(), name, bytes(text).length, text.split("\n", -1).length - 1));
    }

    @Test
    void aLogNeverImportedStartsAtZero() {
        ResumePoint resume = ResumePoint.find("access.log", beginning(LogSourceTest.lines(1, 3)), true, imported);

        assertThat(resume.seenBefore()).isFalse();
        assertThat(resume.start().bytes()).isZero();
        assertThat(resume.start().lines()).isZero();
    }

    @Test
    void aRenamedLogIsTheSameLog() {
        String text = LogSourceTest.lines(1, 100);
        imported("access.log", text);

        ResumePoint resume = ResumePoint.find("access.log.1", beginning(text), true, imported);

        assertThat(resume.previous().name()).isEqualTo("access.log");
        assertThat(resume.start().bytes()).isEqualTo(bytes(text).length);
        assertThat(resume.start().lines()).isEqualTo(100);
    }

    @Test
    void aShortLogThatGrewPastTheIdentifyingBytesIsStillKnown() {
        String small = LogSourceTest.lines(1, 2);
        imported("access.log", small);
        String grown = LogSourceTest.lines(1, 200);
        assertThat(bytes(grown).length).isGreaterThan(Fingerprint.PREFIX_BYTES);

        ResumePoint resume = ResumePoint.find("access.log", beginning(grown), true, imported);

        assertThat(resume.start().bytes()).isEqualTo(bytes(small).length);
        assertThat(resume.start().lines()).isEqualTo(2);
        assertThat(resume.start().fingerprint()).isNotEqualTo(resume.previous().fingerprint());
    }

    @Test
    void logsThatShareAHeaderAreToldApartByWhatFollowsIt() {
        String header = "#Software: Microsoft Internet Information Services 10.0\n#Version: 1.0\n";
        imported("u_ex251101.log", header + "#Date: 2025-11-01 00:00:00\n" + "x".repeat(5000) + "\n");

        ResumePoint other = ResumePoint.find("u_ex251102.log", beginning(header + "#Date: 2025-11-02 00:00:00\n" + "y".repeat(5000) + "\n"),
                true, imported);

        assertThat(other.seenBefore()).isFalse();
    }

    @Test
    void aFollowedLogWaitsForItsFirstCompleteLineBeforeItIsIdentified() {
        assertThat(ResumePoint.find("access.log", bytes("66.249.66.1 - - [14/May/2025"), false, imported)).isNull();
        assertThat(ResumePoint.find("access.log", new byte[0], true, imported)).isNull();
        assertThat(ResumePoint.find("access.log", bytes("no newline yet"), true, imported)).isNotNull();
    }

    @Test
    void theFurthestRecordedProgressWins() {
        String text = LogSourceTest.lines(1, 200);
        imported("access.log", LogSourceTest.lines(1, 2));
        imported("access.log", LogSourceTest.lines(1, 150));

        ResumePoint resume = ResumePoint.find("access.log", beginning(text), true, imported);

        assertThat(resume.start().lines()).isEqualTo(150);
    }

    @Test
    void theReaderHandsOnPositionsOnlyOnceALineParsed() throws Exception {
        String text = "garbage\n" + LogReaderTest.line(1) + "\n";
        List<SourceProgress> positions = new ArrayList<>();
        try (LogReader reader = new LogReader(new CombinedLineParser(), 1)) {
            reader.read(new ByteArrayInputStream(bytes("garbage\nmore garbage\n")), new SourceProgress("f", "bad.log", 0, 0),
                    AgentFilter.ALL, (hits, through) -> positions.add(through), ReadProgress.NONE);
            assertThat(positions).isEmpty();

            reader.read(new ByteArrayInputStream(bytes(text)), new SourceProgress("f", "good.log", 100, 7),
                    AgentFilter.ALL, (hits, through) -> positions.add(through), ReadProgress.NONE);
        }
        assertThat(positions).containsExactly(new SourceProgress("f", "good.log", 100 + bytes(text).length, 9));
    }
}
