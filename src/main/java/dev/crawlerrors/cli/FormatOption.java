package dev.crawlerrors.cli;

import dev.crawlerrors.ingest.format.FormatChooser;
import dev.crawlerrors.ingest.format.LogFormat;
import dev.crawlerrors.ingest.format.NamedFormats;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code --format}: the format of the lines a command reads, the same for {@code import} and for
 * everything {@code serve} takes in (followed logs, syslog, the log drain).
 */
final class FormatOption {

    private CommandSpec spec;

    String format;

    /** Adds {@code --format} to {@code command}. */
    FormatOption addTo(CommandSpec command) {
        spec = command;
        command.addOption(CommandSpecs.option("--format", "FORMAT", String.class, () -> format, value -> format = value,
                "Log format: " + LogFormat.ACCEPTED + " (default: ${DEFAULT-VALUE}, detected from each log's first lines, "
                        + "or from each batch of lines pushed to serve). "
                        + "combined and common take an optional trailing request time; paste your server's format string after nginx: or apache:.")
                .defaultValue("auto").build());
        return this;
    }

    /**
     * The chooser for the format named, for logs that can be read again: auto-detection gives up on
     * a log mostly in no format it knows (the user names it and reads the log again).
     *
     * @param notices told what the user should know about the format (which one was detected in each log)
     * @throws ParameterException (exit 2) for a value that is no format, with a message that names {@code --format}
     */
    FormatChooser chooser(Consumer<String> notices) {
        return chooser(NamedFormats::chooser, notices);
    }

    /**
     * The chooser for the format named, for lines pushed over the network (syslog, the log drain):
     * a batch cannot be read again, so auto-detection never gives up on one ({@link NamedFormats#liveChooser}).
     *
     * @throws ParameterException as {@link #chooser} does
     */
    FormatChooser liveChooser(Consumer<String> notices) {
        return chooser(NamedFormats::liveChooser, notices);
    }

    private FormatChooser chooser(BiFunction<String, Consumer<String>, FormatChooser> choosers, Consumer<String> notices) {
        try {
            return choosers.apply(format, notices);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--format: " + e.getMessage());
        }
    }
}
