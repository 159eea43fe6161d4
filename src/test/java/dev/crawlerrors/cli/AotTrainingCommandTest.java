package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class AotTrainingCommandTest {

    @Test
    void theLaunchersTrainingRunImportsServesAndSucceedsOffline() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int status = Main.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err)).execute("aot-training");

        assertThat(status).as(err.toString()).isZero();
    }

    @Test
    void isLeftOutOfTheHelp() {
        StringWriter out = new StringWriter();
        Main.commandLine().setOut(new PrintWriter(out)).execute("--help");

        assertThat(out.toString()).contains("import").doesNotContain("aot-training");
    }
}
