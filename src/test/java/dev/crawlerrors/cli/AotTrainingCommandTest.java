package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
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
    void trainsOnTheDemoLogAsNginxWritesItTooWithRequestTimesInSeconds(@TempDir Path dir) throws Exception {
        Path apache = dir.resolve("apache.log");
        Files.writeString(apache, "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 404 5 \"-\" \"Googlebot\" 153\n"
                + "66.249.66.1 - - [14/May/2025:09:31:03 +0200] \"GET / HTTP/1.1\" 404 5 \"-\" \"Googlebot\"\n");
        Path nginx = dir.resolve("nginx.log");

        AotTrainingCommand.writeWithSeconds(apache, nginx);

        assertThat(Files.readAllLines(nginx)).containsExactly(
                "66.249.66.1 - - [14/May/2025:09:31:02 +0200] \"GET / HTTP/1.1\" 404 5 \"-\" \"Googlebot\" 0.000153",
                "66.249.66.1 - - [14/May/2025:09:31:03 +0200] \"GET / HTTP/1.1\" 404 5 \"-\" \"Googlebot\"");
    }

    @Test
    void isLeftOutOfTheHelp() {
        StringWriter out = new StringWriter();
        Main.commandLine().setOut(new PrintWriter(out)).execute("--help");

        assertThat(out.toString()).contains("import").doesNotContain("aot-training");
    }
}
