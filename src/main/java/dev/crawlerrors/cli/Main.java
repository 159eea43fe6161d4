package dev.crawlerrors.cli;

import dev.crawlerrors.store.DuckDbHitStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code crawl-errors}: turns access logs into the Crawler Crawl Errors report. */
@Command(name = "crawl-errors", mixinStandardHelpOptions = true, version = "crawl-errors 0.1.0",
        description = "Turns web-server access logs into the Crawler Crawl Errors report.")
public final class Main {

    /** Exit status for a failure at run time (the usage was right, something else went wrong). */
    static final int RUNTIME_FAILURE = 1;

    /** The subcommands, in the order help lists them. */
    private static final Map<String, Supplier<Object>> COMMANDS = new LinkedHashMap<>();

    static {
        COMMANDS.put("demo", DemoCommand::new);
        COMMANDS.put("import", ImportCommand::new);
        COMMANDS.put("serve", ServeCommand::new);
        COMMANDS.put("verify", VerifyCommand::new);
        COMMANDS.put("aot-training", AotTrainingCommand::new);
    }

    public static void main(String[] args) {
        if (args.length > 0 && COMMANDS.containsKey(args[0])) {
            DuckDbHitStore.loadLibraryInBackground(); // every command opens a store
        }
        System.exit(commandLine(args).execute(args));
    }

    /** The command line with every subcommand. */
    static CommandLine commandLine() {
        return withSubcommands(COMMANDS.keySet());
    }

    /**
     * The command line for {@code args}: with only the subcommand they name, when they name one.
     * picocli reads every command's annotations by reflection when it is added, a fifth of a
     * one-line import's time for all five; help and mistakes get them all.
     */
    static CommandLine commandLine(String[] args) {
        return args.length > 0 && COMMANDS.containsKey(args[0]) ? withSubcommands(List.of(args[0])) : commandLine();
    }

    private static CommandLine withSubcommands(Iterable<String> names) {
        CommandLine commandLine = new CommandLine(new Main());
        for (String name : names) {
            commandLine.addSubcommand(name, COMMANDS.get(name).get());
        }
        return commandLine.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("crawl-errors: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return RUNTIME_FAILURE;
        });
    }
}
