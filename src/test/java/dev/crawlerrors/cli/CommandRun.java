package dev.crawlerrors.cli;

import dev.crawlerrors.ingest.SampleLogs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * One run of the command line as a user types it, in this JVM: its exit status and what it printed
 * on standard output (the summary) and standard error (usage errors, notices, the rate log). The
 * commands print to {@code System.out} and {@code System.err}, which are swapped for the run and
 * put back after it.
 */
record CommandRun(int exit, String out, String err) {

    static CommandRun of(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream originalOut = System.out;
        PrintStream originalErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            CommandLine cli = Main.commandLine();
            cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
            int exit = cli.execute(args);
            return new CommandRun(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(originalOut);
            System.setErr(originalErr);
        }
    }

    /**
     * {@code import} into {@code db} offline: the IP list {@link dev.crawlerrors.ingest.SampleLogs#ipRanges} writes in
     * {@code dir}, no DNS, then {@code arguments} (options and logs).
     */
    static CommandRun importing(Path dir, Path db, String... arguments) throws IOException {
        List<String> args = new ArrayList<>(List.of("import", "--db", db.toString(),
                "--ip-ranges", SampleLogs.ipRanges(dir).toString(), "--dns-server", "none"));
        args.addAll(List.of(arguments));
        return of(args.toArray(String[]::new));
    }
}
