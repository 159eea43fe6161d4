package dev.crawlerrors;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages follow the flow of data, ingest -> crawler -> store -> report -> web, with cli and
 * demo at the edge: a stage may use the stages before it, never one after it.
 */
class ArchitectureTest {

    private static final List<String> FLOW = List.of("ingest", "crawler", "store", "report", "web");
    private static final Path MAIN = Path.of("src/main/java/dev/crawlerrors");

    @Test
    void noStageImportsAStageFurtherDownTheFlow() throws IOException {
        List<String> violations = new ArrayList<>();
        for (int stage = 0; stage < FLOW.size(); stage++) {
            List<String> later = FLOW.subList(stage + 1, FLOW.size());
            try (Stream<Path> files = Files.walk(MAIN.resolve(FLOW.get(stage)))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    for (String line : Files.readAllLines(file)) {
                        for (String other : Stream.concat(later.stream(), Stream.of("cli", "demo")).toList()) {
                            if (line.startsWith("import dev.crawlerrors." + other + ".")) {
                                violations.add(MAIN.relativize(file) + ": " + line);
                            }
                        }
                    }
                }
            }
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void theFlowPackagesExist() {
        assertThat(FLOW).allMatch(stage -> Files.isDirectory(MAIN.resolve(stage)));
    }
}
