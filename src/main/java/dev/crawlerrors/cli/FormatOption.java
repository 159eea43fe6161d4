package dev.crawlerrors.cli;

import dev.crawlerrors.ingest.FormatChooser;
import dev.crawlerrors.ingest.LogFormat;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --format}: the format of the logs a command reads, the same for {@code import} and {@code serve --follow}. */
final class FormatOption {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--format", defaultValue = "auto", paramLabel = "FORMAT",
            description = "Log format: " + LogFormat.ACCEPTED + " (default: ${DEFAULT-VALUE}, detected from each log's first lines). "
                    + "combined and common take an optional trailing request time; paste your server's format string after nginx: or apache:.")
    String format;

    /**
     * The chooser for the format named.
     *
     * @param notices told what the user should know about the format (which one was detected in each log)
     * @throws ParameterException (exit 2) for a value that is no format, with a message that names {@code --format}
     */
    FormatChooser chooser(Consumer<String> notices) {
        try {
            return LogFormat.chooser(format, notices);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--format: " + e.getMessage());
        }
    }
}
