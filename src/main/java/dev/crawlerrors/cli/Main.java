package dev.crawlerrors.cli;

import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import dev.crawlerrors.text.Credentials;
import dev.crawlerrors.text.Failures;
import dev.crawlerrors.text.ShownText;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.CommandLine;

/**
 * {@code crawl-errors}: turns access logs into the Crawler Crawl Errors report. The commands'
 * models are built by hand ({@link CommandSpecs}), not read from annotations.
 */
public final class Main {

    /** Exit status for a failure at run time (the usage was right, something else went wrong). */
    static final int RUNTIME_FAILURE = 1;

    /** The subcommands, in the order help lists them. */
    private static final Map<String, Supplier<CommandSpec>> COMMANDS = new LinkedHashMap<>();

    static {
        COMMANDS.put("demo", () -> new DemoCommand().spec());
        COMMANDS.put("import", () -> new ImportCommand().spec());
        COMMANDS.put("serve", () -> new ServeCommand().spec());
        COMMANDS.put("verify", () -> new VerifyCommand().spec());
        COMMANDS.put("crawlers", () -> new CrawlersCommand().spec());
        COMMANDS.put("check", () -> new CheckCommand().spec());
        COMMANDS.put("aot-training", () -> new AotTrainingCommand().spec());
        COMMANDS.put("ip-snapshot", () -> new IpSnapshotCommand().spec());
    }

    public static void main(String[] args) {
        if (args.length > 0 && COMMANDS.containsKey(args[0]) && !args[0].equals("crawlers")) {
            DuckDbHitStore.loadLibraryInBackground(); // every command but crawlers opens a store
        }
        System.exit(commandLine(args).execute(args));
    }

    /** The command line with every subcommand. */
    static CommandLine commandLine() {
        return withSubcommands(COMMANDS.keySet());
    }

    /**
     * The command line for {@code args}: with only the subcommand they name, when they name one
     * (building each command's model is work every start would pay for all six); help and
     * mistakes get them all.
     */
    static CommandLine commandLine(String[] args) {
        return args.length > 0 && COMMANDS.containsKey(args[0]) ? withSubcommands(List.of(args[0])) : commandLine();
    }

    private static CommandLine withSubcommands(Iterable<String> names) {
        CommandLine commandLine = new CommandLine(CommandSpecs.command(new Main(), "crawl-errors",
                "Turns web-server access logs into the Crawler Crawl Errors report."));
        for (String name : names) {
            commandLine.addSubcommand(name, new CommandLine(COMMANDS.get(name).get()));
        }
        return commandLine.setParameterExceptionHandler(Main::badUsage).setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("crawl-errors: " + ShownText.of(Credentials.hidden(Failures.message(e))));
            return RUNTIME_FAILURE;
        });
    }

    /**
     * A usage error in a line of its own, then where the usage is: picocli's own handler printed the
     * whole usage after the line (40 to 60 lines), so the one line that said what was wrong had
     * scrolled away. picocli's suggestions for a mistyped option or command are kept. The message
     * is made safe to show: picocli quotes the value it could not take as it was typed
     * ({@code Unknown option: '--bogus'}), and our options' messages quote it too.
     */
    private static int badUsage(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        cmd.getErr().println(cmd.getColorScheme().errorText(ShownText.of(Credentials.hidden(e.getMessage()))));
        UnmatchedArgumentException.printSuggestions(e, cmd.getErr());
        cmd.getErr().println("See '" + cmd.getCommandSpec().qualifiedName() + " --help'.");
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }
}
