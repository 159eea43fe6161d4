package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ProcessTest;
import dev.crawlerrors.ingest.SampleLogs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an import's start leaves alone, in a JVM of its own (the test JVM has loaded everything):
 * classes whose initialisers cost every import's start far more than they give it. Jackson's
 * {@code ObjectMapper} and SLF4J's dated logger each start {@code java.util.Calendar}, which has
 * the JDK scan all its locales; {@code java.util.Formatter} starts its locale providers too (see
 * {@code JsonDocument}, {@code IpRangeSource.Log}, {@code Figures}).
 */
@ProcessTest
class ImportStartTest {

    @TempDir
    Path dir;

    @Test
    void anImportStartsNeitherDatabindNorCalendarNorFormatterNorTheLogger() throws Exception {
        Path log = Files.writeString(dir.resolve("access.log"),
                ImportCommandTest.GOOD + "\n" + ImportCommandTest.HUMAN + "\n" + "garbage line\n");
        Path classes = dir.resolve("class-init.log");
        Path output = dir.resolve("output.txt");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Xlog:class+init=info:file=" + classes,
                // run from classes, DuckDB unpacks its library into the temporary directory: this test's
                "-Djava.io.tmpdir=" + dir,
                "-cp", System.getProperty("java.class.path"), "dev.crawlerrors.cli.Main",
                "import", "--db", dir.resolve("hits.duckdb").toString(), "--ip-ranges", SampleLogs.ipRanges(dir).toString(),
                "--dns-server", "none", log.toString()))
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the import ended").isTrue();

        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(printed).isZero();
        // it did read, verify and report: the paths that used to start them ran
        assertThat(printed).contains("Read 3 lines", "2 parsed, 1 bad", "Crawler hits stored: 1", "Verdicts: verified 1",
                "IP list common-crawlers.json");
        assertThat(Files.readString(classes, StandardCharsets.UTF_8)).as("classes initialised")
                .contains("Initializing 'dev/crawlerrors/crawler/CrawlerCatalog'")
                .doesNotContain("Initializing 'com/fasterxml/jackson/databind/ObjectMapper'",
                        "Initializing 'java/util/Calendar'",
                        "Initializing 'java/util/Formatter'",
                        "Initializing 'org/slf4j/LoggerFactory'");
    }
}
