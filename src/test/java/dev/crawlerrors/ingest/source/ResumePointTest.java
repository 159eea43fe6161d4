package dev.crawlerrors.ingest.source;

import dev.crawlerrors.ingest.format.FormatChooser;
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
    private final ImportedSources imported = fingerprints -> recorded.values().stream()
            .filter(progress -> fingerprints.contains(progress.prefix())).toList();

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] beginning(String text) {
        byte[] all = bytes(text);
        return Arrays.copyOf(all, Math.min(all.length, Fingerprint.PREFIX_BYTES));
    }

    /** Looks up the log {@code text}, as an import would. */
    private ResumePoint find(String name, String text) throws Exception {
        return ResumePoint.find(name, beginning(text), true, imported, content(text));
    }

    /** {@code text} as a log's content, which the lookup checks what it finds against. */
    private static ResumePoint.Content content(String text) {
        byte[] all = bytes(text);
        return position -> position > all.length ? null
                : Arrays.copyOfRange(all, (int) Math.max(0, position - TailCheck.BYTES), (int) position);
    }

    /** Records {@code text} as read to its end, as an import would. */
    private void imported(String name, String text) throws Exception {
        ResumePoint resume = find(name, text);
        byte[] all = bytes(text);
        recorded.put(resume.start().fingerprint(), new SourceProgress(resume.start().fingerprint(), name, all.length,
                text.split("\n", -1).length - 1, TailCheck.of(all, 0, all.length), null));
    }

    @Test
    void aLogNeverImportedStartsAtZero() throws Exception {
        ResumePoint resume = find("access.log", LogSourceTest.lines(1, 3));

        assertThat(resume.seenBefore()).isFalse();
        assertThat(resume.start().bytes()).isZero();
        assertThat(resume.start().lines()).isZero();
    }

    @Test
    void aRenamedLogIsTheSameLog() throws Exception {
        String text = LogSourceTest.lines(1, 100);
        imported("access.log", text);

        ResumePoint resume = find("access.log.1", text);

        assertThat(resume.previous().name()).isEqualTo("access.log");
        assertThat(resume.start().bytes()).isEqualTo(bytes(text).length);
        assertThat(resume.start().lines()).isEqualTo(100);
    }

    @Test
    void aShortLogThatGrewPastTheIdentifyingBytesIsStillKnown() throws Exception {
        String small = LogSourceTest.lines(1, 2);
        imported("access.log", small);
        String grown = LogSourceTest.lines(1, 200);
        assertThat(bytes(grown).length).isGreaterThan(Fingerprint.PREFIX_BYTES);

        ResumePoint resume = find("access.log", grown);

        assertThat(resume.start().bytes()).isEqualTo(bytes(small).length);
        assertThat(resume.start().lines()).isEqualTo(2);
        // its progress goes on under the key it was first recorded under, not under the fingerprint it has now
        assertThat(resume.start().fingerprint()).isEqualTo(resume.previous().fingerprint()).isNotEqualTo(resume.fingerprint().value());
    }

    @Test
    void logsThatShareAHeaderAreToldApartByWhatFollowsIt() throws Exception {
        String header = "#Software: Microsoft Internet Information Services 10.0\n#Version: 1.0\n";
        imported("u_ex251101.log", header + "#Date: 2025-11-01 00:00:00\n" + "x".repeat(5000) + "\n");

        ResumePoint other = find("u_ex251102.log", header + "#Date: 2025-11-02 00:00:00\n" + "y".repeat(5000) + "\n");

        assertThat(other.seenBefore()).isFalse();
    }

    @Test
    void aFollowedLogWaitsForItsFirstCompleteLineBeforeItIsIdentified() throws Exception {
        assertThat(ResumePoint.find("access.log", bytes("66.249.66.1 - - [14/May/2025"), false, imported, content(""))).isNull();
        assertThat(ResumePoint.find("access.log", new byte[0], true, imported, content(""))).isNull();
        assertThat(ResumePoint.find("access.log", bytes("no newline yet"), true, imported, content("no newline yet"))).isNotNull();
    }

    @Test
    void theFurthestRecordedProgressWins() throws Exception {
        String text = LogSourceTest.lines(1, 200);
        imported("access.log", LogSourceTest.lines(1, 2));
        imported("access.log", LogSourceTest.lines(1, 150));

        ResumePoint resume = find("access.log", text);

        assertThat(resume.start().lines()).isEqualTo(150);
    }

    @Test
    void theReaderHandsOnPositionsOnlyOnceALineParsed() throws Exception {
        String text = "garbage\n" + LogReaderTest.line(1) + "\n";
        List<SourceProgress> positions = new ArrayList<>();
        try (LogReader reader = new LogReader(FormatChooser.of(new CombinedLineParser()), 1)) {
            reader.read(new ByteArrayInputStream(bytes("garbage\nmore garbage\n")), ReadRequest.of(new SourceProgress("f", "bad.log", 0, 0), AgentFilter.ALL, (hits, from, through) -> positions.add(through)));
            assertThat(positions).isEmpty();

            reader.read(new ByteArrayInputStream(bytes(text)), ReadRequest.of(new SourceProgress("f", "good.log", 100, 7), AgentFilter.ALL, (hits, from, through) -> positions.add(through)));
        }
        assertThat(positions).containsExactly(new SourceProgress("f", "good.log", 100 + bytes(text).length, 9));
    }
}
