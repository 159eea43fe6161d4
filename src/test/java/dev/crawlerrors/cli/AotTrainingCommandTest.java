package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.format.AgentFilter;
import dev.crawlerrors.ingest.format.CombinedLineParser;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AotTrainingCommandTest {

    @Test
    void theLaunchersTrainingRunImportsServesAndSucceedsOffline() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int status = Main.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err)).execute("aot-training");

        assertThat(status).as(err.toString()).isZero();
    }

    @Test
    void theImportsOwnTrainingRunSucceedsOffline() {
        StringWriter err = new StringWriter();

        int status = Main.commandLine().setErr(new PrintWriter(err)).execute("aot-training", "--import-only");

        assertThat(status).as(err.toString()).isZero();
    }

    @Test
    void trainsOnTheDemoLogAsNginxWritesItWithRequestTimesInSecondsAndVariedAsRealLogsAre(@TempDir Path dir) throws Exception {
        Path apache = dir.resolve("apache.log");
        List<String> demoLines = new ArrayList<>();
        for (int i = 0; i < 13; i++) {
            demoLines.add("66.249.66." + (i + 1) + " - - [14/May/2025:09:31:" + (10 + i) + " +0200] \"GET /gent/meir?p=" + i
                    + " HTTP/1.1\" 404 5 \"-\" \"Googlebot\" 153");
        }
        demoLines.add("not a demo line");
        Files.write(apache, demoLines);
        Path nginx = dir.resolve("nginx.log");

        AotTrainingCommand.writeVaried(apache, nginx);

        List<String> lines = Files.readAllLines(nginx);
        assertThat(lines).hasSize(14);
        assertThat(lines.get(0)).isEqualTo("66.249.66.1 - - [14/May/2025:09:31:10 +0200] \"GET /gent/meir?p=0 HTTP/1.1\" 404 5 \"-\" \"Googlebot\" 0.000153");
        assertThat(lines.get(1)).contains("\"HEAD /gent/meir?p=1 ");
        assertThat(lines.get(2)).contains("\"https://www.google.com/\"");
        assertThat(lines.get(3)).contains(" 404 - ");
        assertThat(lines.get(4)).contains("\"POST ");
        assertThat(lines.get(5)).contains("?p=5&q=de%20panne ");
        assertThat(lines.get(6)).contains("\"Googlebot \\\"quoted\\\"\"");
        assertThat(lines.get(7)).endsWith("\"Googlebot\"");
        assertThat(lines.get(8)).contains("\"PROPFIND ");
        assertThat(lines.get(9)).contains("?p=9\\x22 ");
        assertThat(lines.get(10)).startsWith("2001:4860:4801:10::11 - - ");
        assertThat(lines.get(11)).contains(" HTTP/2.0\" ");
        assertThat(lines.get(12)).isEqualTo("66.249.66.13 - - [14/May/2025:09:31:22 +0200] \"GET /gent/meir?p=12 HTTP/1.1\" 404 5 \"-\" \"Googlebot\" 0.000153");
        assertThat(lines.get(13)).isEqualTo("not a demo line");
        // every varied line is still a good combined line, its variation read as such
        CombinedLineParser parser = CombinedLineParser.combined();
        List<Hit> hits = new ArrayList<>();
        for (String line : lines.subList(0, 13)) {
            byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
            hits.add(parser.parse(bytes, 0, bytes.length, AgentFilter.ALL));
        }
        assertThat(hits).extracting(Hit::method).containsExactly("GET", "HEAD", "GET", "GET", "POST", "GET", "GET", "GET",
                "PROPFIND", "GET", "GET", "GET", "GET");
        assertThat(hits.get(3).bytes()).isNegative();
        assertThat(hits.get(6).userAgent()).isEqualTo("Googlebot \"quoted\"");
        assertThat(hits.get(7).durationMs()).isNaN();
        assertThat(hits.get(9).url()).isEqualTo("/gent/meir?p=9\"");
        assertThat(hits.get(10).ip()).isEqualTo("2001:4860:4801:10::11");
    }

    @Test
    void isLeftOutOfTheHelp() {
        StringWriter out = new StringWriter();
        Main.commandLine().setOut(new PrintWriter(out)).execute("--help");

        assertThat(out.toString()).contains("import").doesNotContain("aot-training");
    }
}
