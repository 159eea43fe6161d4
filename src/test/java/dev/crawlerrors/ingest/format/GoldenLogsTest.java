package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crawlerrors.ingest.BadLineException;
import dev.crawlerrors.ingest.Hit;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each log in src/test/resources/dev/crawlerrors/ingest/format (one a format and variant), and
 * the real-log samples elsewhere in the test resources, read as {@code --format auto} reads them:
 * the format detected and every line's hit or bad-line reason, compared with the golden
 * {@code NAME.hits.json} beside the logs. A new format gets a log here and its golden file.
 *
 * <p>To write the golden files again after a deliberate change, run
 * {@code mvn -o test -Dtest=GoldenLogsTest -Dgolden.update=true} and read the diff before committing.
 */
class GoldenLogsTest {

    private static final Path GOLDEN = Path.of("src/test/resources/dev/crawlerrors/ingest/format");
    /** Real logs that live beside the tests that use them. */
    private static final List<Path> REAL_SAMPLES = List.of(
            Path.of("src/test/resources/dev/crawlerrors/cli/cdn-access.log"),
            Path.of("src/test/resources/url-states/planted.log"));
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    static Stream<Path> logs() throws IOException {
        try (Stream<Path> files = Files.list(GOLDEN)) {
            List<Path> logs = new ArrayList<>(files.filter(f -> f.toString().endsWith(".log")).sorted().toList());
            logs.addAll(REAL_SAMPLES);
            return logs.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("logs")
    void readsEachLogAsItsGoldenFileSays(Path log) throws Exception {
        String name = log.getFileName().toString().replaceFirst("\\.log$", "");
        Path golden = GOLDEN.resolve((log.startsWith(GOLDEN) ? "" : "real-") + name + ".hits.json");

        String read = JSON.writeValueAsString(read(log)) + "\n";

        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(golden, read);
        }
        assertThat(golden).as("the golden file; -Dgolden.update=true writes it").exists();
        assertThat(read).isEqualTo(Files.readString(golden));
    }

    /** The notices of detection, then each line: its hit, its bad-line reason, or nothing for a directive. */
    private static ObjectNode read(Path log) throws Exception {
        List<String> notices = new ArrayList<>();
        FormatChooser.Choice choice;
        try (InputStream in = new ByteArrayInputStream(Files.readAllBytes(log))) {
            choice = new FormatDetector(notices::add).choose(in, log.getFileName().toString());
        }
        byte[] bytes = choice.in().readAllBytes();
        LineParser parser = choice.parser();
        ObjectNode result = JSON.createObjectNode();
        result.set("notices", JSON.valueToTree(notices));
        ArrayNode lines = result.putArray("lines");
        int from = 0;
        int number = 0;
        while (from < bytes.length) {
            int end = from;
            while (end < bytes.length && bytes[end] != '\n') {
                end++;
            }
            number++;
            int to = end > from && bytes[end - 1] == '\r' ? end - 1 : end;
            ObjectNode line = lines.addObject().put("line", number);
            try {
                Hit hit = parser.parse(bytes, from, to, AgentFilter.ALL);
                if (hit == null) {
                    line.put("directive", true);
                } else {
                    line.set("hit", JSON.valueToTree(hit));
                }
            } catch (BadLineException e) {
                line.put("bad", e.reason()).put("message", e.getMessage());
            }
            from = end + 1;
        }
        result.put("parser", parser.describe());
        return result;
    }
}
