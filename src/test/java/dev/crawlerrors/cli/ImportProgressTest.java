package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.LogSource;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImportProgressTest {

    @TempDir
    Path dir;

    @Test
    void offATerminalLogsTheFileLinesRateAndShareOfAllFiles() throws Exception {
        Path first = Files.writeString(dir.resolve("access.log.1"), "x".repeat(1000));
        Path second = Files.writeString(dir.resolve("access.log"), "y".repeat(3000));
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);

        try (ImportProgress progress = new ImportProgress(4000, 2, false, out, Duration.ZERO)) {
            LogSource a = LogSource.of(first.toString());
            try (InputStream in = a.open()) {
                in.readAllBytes();
                progress.reading(a, 0).advanced(10);
            }
            LogSource b = LogSource.of(second.toString());
            try (InputStream in = b.open()) {
                in.readAllBytes();
                progress.reading(b, 1).advanced(5);
            }
        }

        assertThat(log.toString(StandardCharsets.UTF_8).lines().map(l -> l.replaceAll("[\\d,]+ lines/s", "R lines/s")))
                .containsExactly("import 1/2 access.log.1: 10 lines, R lines/s, 25% of 3.9 KiB",
                        "import 2/2 access.log: 15 lines, R lines/s, 100% of 3.9 KiB");
    }
}
