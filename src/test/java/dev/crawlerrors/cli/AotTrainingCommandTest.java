package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.format.AgentFilter;
import dev.crawlerrors.ingest.format.CombinedLineParser;
import dev.crawlerrors.ingest.SampleLogs;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import dev.crawlerrors.text.Figures;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
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
    void oneCommandLineRunTwiceStoresEachImportWhereItsDbSays(@TempDir Path dir) throws Exception {
        // the training runs the import command again and again on one command line: each --db is read anew
        Path log = dir.resolve("access.log");
        Files.write(log, List.of("66.249.66.1 - - [14/May/2025:09:31:10 +0200] \"GET /a HTTP/1.1\" 404 5 \"-\" \"Googlebot/2.1\""));
        Path lists = SampleLogs.ipRanges(dir);
        CommandLine importer = Main.commandLine(new String[] {"import"});
        PrintStream originalOut = System.out;
        for (String db : List.of("first.duckdb", "second.duckdb")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            int status;
            try {
                status = importer.setErr(new PrintWriter(out, true)).execute("import", "--db", dir.resolve(db).toString(),
                        "--dns-server", "none", "--ip-ranges", lists.toString(), log.toString());
            } finally {
                System.setOut(originalOut);
            }
            assertThat(status).as(out.toString(StandardCharsets.UTF_8)).isZero();
            assertThat(out.toString(StandardCharsets.UTF_8)).contains("Store: " + dir.resolve(db) + " (1 crawler hit in all)", "1 new");
        }
    }

    @Test
    void trainsOnSignedLinesAsAnAgentThatSignsSendsThemMoreThanAnImportChecksAtItsEnd(@TempDir Path dir) throws Exception {
        Path nginx = dir.resolve("nginx.log");
        Files.write(nginx, List.of(
                "66.249.66.1 - - [14/May/2025:09:31:10 +0200] \"GET /gent/meir?p=1 HTTP/1.1\" 404 5 \"-\" \"Googlebot\" 0.000153",
                "not a line to sign",
                "2001:4860:4801:10::11 - - [14/May/2025:09:31:11 +0200] \"HEAD /gent HTTP/2.0\" 200 - \"-\" \"Googlebot\""));
        Path signed = dir.resolve("signed.log");

        Path keys = SignedTrainingLog.write(nginx, signed, dir.resolve("keys"));

        List<String> lines = Files.readAllLines(signed);
        assertThat(lines).hasSizeGreaterThan(1_000);
        assertThat(lines.get(0)).startsWith("66.249.66.1 - - [14/May/2025:09:31:10 +0200] \"GET /gent/meir?p=1 HTTP/1.1\" 404 5 \"-\" \"Mozilla/5.0 ")
                .contains("\"sig1=\\x22https://chatgpt.com\\x22\"", ";created=1747207870;expires=1747207930;", "tag=\\x22web-bot-auth\\x22");
        assertThat(lines.get(1)).startsWith("2001:4860:4801:10::11 - - ").contains("\"HEAD /gent HTTP/2.0\" 200 - ");
        CommandRun run = CommandRun.importing(dir, dir.resolve("signed.duckdb"), "--signature-directories", keys.toString(),
                "--format", SignedTrainingLog.FORMAT, signed.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("Crawler hits stored: " + Figures.grouped(lines.size()) + ";", " 0 bad",
                "Signatures pending: " + Figures.grouped(lines.size()) + ", more than the 1,000 an import checks at its end");
    }

    @Test
    void isLeftOutOfTheHelp() {
        StringWriter out = new StringWriter();
        Main.commandLine().setOut(new PrintWriter(out)).execute("--help");

        assertThat(out.toString()).contains("import").doesNotContain("aot-training");
    }
}
