package dev.crawlerrors.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code crawl-errors}: turns access logs into the Crawler Crawl Errors report. */
@Command(name = "crawl-errors", mixinStandardHelpOptions = true, version = "crawl-errors 0.1.0",
        description = "Turns web-server access logs into the Crawler Crawl Errors report.",
        subcommands = {DemoCommand.class, ImportCommand.class, ServeCommand.class, VerifyCommand.class, TrainCommand.class})
public final class Main {

    /** Exit status for a failure at run time (the usage was right, something else went wrong). */
    static final int RUNTIME_FAILURE = 1;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return new CommandLine(new Main())
                .setExecutionExceptionHandler((e, cmd, parsed) -> {
                    cmd.getErr().println("crawl-errors: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
                    return RUNTIME_FAILURE;
                });
    }
}
