package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.crawlerrors.ingest.format.LogFormat;
import dev.crawlerrors.ingest.format.NamedFormats;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** {@code --help} is the manual of {@code --format}: it names every format of {@link LogFormat}, and each name it gives is read. */
class FormatOptionTest {

    /** The formats {@code command --help} lists for {@code --format}, as written there. */
    private static List<String> formatsInHelp(String command) {
        String usage = Main.commandLine().getSubcommands().get(command).getUsageMessage(CommandLine.Help.Ansi.OFF)
                .replaceAll("\\s+", " ");
        int start = usage.indexOf("--format=FORMAT Log format: ");
        assertThat(start).as(command + " --help describes --format").isNotNegative();
        String list = usage.substring(start + "--format=FORMAT Log format: ".length(), usage.indexOf(" (default: ", start));
        return Arrays.stream(list.split(", | or ")).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"import", "serve"})
    void helpNamesEveryFormatInTheOrderOfItsRows(String command) {
        assertThat(formatsInHelp(command)).containsExactlyElementsOf(Arrays.stream(LogFormat.values()).map(LogFormat::usage).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"import", "serve"})
    void everyFormatHelpNamesIsRead(String command) {
        for (String format : formatsInHelp(command)) {
            String value = format.replace("'<log_format>'", "$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent")
                    .replace("'<LogFormat>'", "%h %l %u %t \"%r\" %>s %b");
            assertThatCode(() -> NamedFormats.chooser(value, notice -> { })).as(format).doesNotThrowAnyException();
        }
    }
}
