package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.source.LogSource;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImportProgressTest {

    private static final long SECOND = 1_000_000_000L;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(written, true, StandardCharsets.UTF_8);
    /** The clock, read by the bar's thread too. */
    private volatile long now = 7 * SECOND;

    @Test
    void offATerminalLogsTheFileLinesRateAndShareOfAllFiles() throws Exception {
        LogSource first = readThrough(Files.writeString(dir.resolve("access.log.1"), "x".repeat(1000)));
        LogSource second = readThrough(Files.writeString(dir.resolve("access.log"), "y".repeat(3000)));

        try (ImportProgress progress = new ImportProgress(4000, 2, null, out, () -> now)) {
            now += 5 * SECOND;
            progress.reading(first.name(), first::consumed, 0).accept(10_000);
            now += 5 * SECOND;
            progress.reading(second.name(), second::consumed, 1).accept(5_000);
        }

        assertThat(written.toString(StandardCharsets.UTF_8)).isEqualTo("""
                import 1/2 access.log.1: 10,000 lines, 2,000 lines/s, 25% of 3.9 KiB
                import 2/2 access.log: 15,000 lines, 1,500 lines/s, 100% of 3.9 KiB
                """);
    }

    @Test
    void offATerminalLogsTheRateEveryFiveSecondsNotAtEveryChunk() throws Exception {
        LogSource log = readThrough(Files.writeString(dir.resolve("access.log"), "x".repeat(2048)));

        try (ImportProgress progress = new ImportProgress(2048, 1, null, out, () -> now)) {
            LongConsumer reading = progress.reading(log.name(), log::consumed, 0);
            long[] seconds = {1, 4, 5, 6, 9, 10, 14};
            for (int i = 0; i < seconds.length; i++) {
                now = 7 * SECOND + seconds[i] * SECOND;
                reading.accept(1_000 * (i + 1));
            }
            now = 7 * SECOND + 15 * SECOND - 1;
            reading.accept(8_000);
        }

        assertThat(written.toString(StandardCharsets.UTF_8)).isEqualTo("""
                import access.log: 3,000 lines, 600 lines/s, 100% of 2.0 KiB
                import access.log: 6,000 lines, 600 lines/s, 100% of 2.0 KiB
                """);
    }

    @Test
    void onATerminalOfEightyColumnsTheBarShowsTheBytesLinesPerSecondAndTimeLeftWhole() throws Exception {
        assertThat(drawnAt(80)).isEqualTo(" 75% [==========>   ] 207/276 KiB    768,396 lines/s  ETA 0:00:01  3/4 big3.log");
    }

    @Test
    void onATerminalOfOneHundredSixtyColumnsTheBarTakesTheWidth() throws Exception {
        assertThat(drawnAt(160)).isEqualTo(" 75% [" + "=".repeat(70) + ">" + " ".repeat(23)
                + "] 207/276 KiB    768,396 lines/s  ETA 0:00:01  3/4 big3.log");
    }

    @Test
    void aStandardErrorRedirectedToAFileGetsTheRateLogAndNoBar() throws Exception {
        Path stderr = Files.createSymbolicLink(dir.resolve("2"), Files.createFile(dir.resolve("r.err")));
        StandardErrorTerminal terminal = StandardErrorTerminal.find(stderr);
        assertThat(terminal).isNull();
        LogSource log = readThrough(Files.writeString(dir.resolve("access.log"), "x".repeat(2048)));

        // as LogImport gives it: no terminal, no width
        try (ImportProgress progress = new ImportProgress(2048, 1, null, out, () -> now)) {
            now += 5 * SECOND;
            progress.reading(log.name(), log::consumed, 0).accept(10_000);
        }

        assertThat(written.toString(StandardCharsets.UTF_8)).isEqualTo("import access.log: 10,000 lines, 2,000 lines/s, 100% of 2.0 KiB\n");
    }

    /**
     * What a terminal {@code columns} wide shows at the end of an import that stopped after three of
     * its four logs, 207 of 276 KiB and 2,305,188 lines in 3 s: every line drawn is checked to fit,
     * and the last, left on the screen, is returned.
     */
    private String drawnAt(int columns) throws Exception {
        try (ImportProgress progress = new ImportProgress(276 * 1024, 4, () -> columns, out, () -> now)) {
            for (int i = 1; i <= 3; i++) {
                LogSource big = readThrough(Files.writeString(dir.resolve("big" + i + ".log"), "x".repeat(69 * 1024)));
                progress.reading(big.name(), big::consumed, i - 1).accept(768_396);
            }
            now += 3 * SECOND;
        }
        String shown = written.toString(StandardCharsets.UTF_8);
        // each redraw goes back to the line's start; the last ends the line
        assertThat(shown).startsWith("\r").endsWith("\n").doesNotContain("\033");
        List<String> drawn = List.of(shown.substring(1, shown.length() - 1).split("\r"));
        assertThat(drawn).allSatisfy(line -> assertThat(line).hasSizeLessThan(columns));
        return drawn.getLast();
    }

    /** The log, opened and read to its end, as the import leaves it when it has read it. */
    private static LogSource readThrough(Path file) throws Exception {
        LogSource source = LogSource.of(file.toString());
        try (InputStream in = source.open()) {
            in.readAllBytes();
        }
        return source;
    }
}
