package dev.crawlerrors.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code crawl-errors serve} in a JVM of its own, on the tests' class path (so it runs in the test
 * phase, before the jar exists), for the tests that talk to it over HTTP, stop or kill it.
 * {@link #close} kills it.
 *
 * <p>Its output goes to a file rather than a pipe: what a shutdown hook prints on SIGTERM reaches
 * a file, while the JDK's process reaper may close the pipe before the last lines are read.
 *
 * @param base   the report's address, {@code http://127.0.0.1:PORT}
 * @param output where its stdout and stderr go
 */
record ServeProcess(Process process, String base, Path output) implements AutoCloseable {

    private static final Pattern SERVING = Pattern.compile("Serving the report at (https?://\\S+)/crawl-errors");
    /** A start under a load of ten times the cores (a JVM, DuckDB's 70 MB library unpacked) passed 30 s. */
    private static final long START_MS = 120_000;

    /** Starts {@code serve ARGS...}, printing to {@code output}, and waits until it serves (at most 120 s). */
    static ServeProcess start(Path output, String... args) throws Exception {
        return startIn(null, output, args);
    }

    /** {@link #start} with {@code directory} as the working directory, where the default store is; null for this JVM's. */
    static ServeProcess startIn(Path directory, Path output, String... args) throws Exception {
        return starting(directory, output, "serve", args);
    }

    /** Starts {@code COMMAND ARGS...} (serve, or demo), printing to {@code output}, and waits until it serves (at most 120 s). */
    static ServeProcess starting(Path output, String subcommand, String... args) throws Exception {
        return starting(null, output, subcommand, args);
    }

    private static ServeProcess starting(Path directory, Path output, String subcommand, String... args) throws Exception {
        List<String> command = new ArrayList<>(javaRunning(output, subcommand));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(directory == null ? null : directory.toFile())
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        ServeProcess serve = new ServeProcess(process, null, output);
        long deadline = System.currentTimeMillis() + START_MS;
        String base;
        while ((base = serve.printed(SERVING)) == null) {
            if (!process.isAlive() || System.currentTimeMillis() > deadline) {
                process.destroyForcibly();
                throw new IllegalStateException("serve ended or took too long before serving:\n" + serve.printed());
            }
            Thread.sleep(20);
        }
        return new ServeProcess(process, base, output);
    }

    /** {@code crawl-errors COMMAND ARGS...} in a JVM of its own on the tests' class path, printing to {@code output}. */
    static Process launch(Path output, String subcommand, String... args) throws java.io.IOException {
        List<String> command = new ArrayList<>(javaRunning(output, subcommand));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    /** The command line that runs crawl-errors {@code command} in a JVM of its own, from the tests' class path. */
    static List<String> javaRunning(Path output, String command) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return List.of(java, "--enable-native-access=ALL-UNNAMED",
                // C1 only, for a quick start
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                // run from classes, DuckDB unpacks its 70 MB library into the temporary directory and
                // deletes it at exit, which a killed JVM never reaches: in the test's own directory,
                // the copy goes with it instead of piling up in /tmp (four a test run, 9 GB here)
                "-Djava.io.tmpdir=" + output.toAbsolutePath().getParent(),
                "-cp", System.getProperty("java.class.path"), "dev.crawlerrors.cli.Main", command);
    }

    /** The first group of {@code pattern} in what was printed, or null. */
    String printed(Pattern pattern) {
        Matcher m = pattern.matcher(printed());
        return m.find() ? m.group(1) : null;
    }

    /** What it printed so far, standard output and error together. */
    String printed() {
        try {
            return Files.readString(output, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
