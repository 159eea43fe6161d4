package dev.crawlerrors.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code crawl-errors COMMAND ARGS...} in a JVM of its own, on the tests' class path, for what a test
 * cannot do in its own JVM: kill it mid-way, run it under a shell ({@code <(zcat x.gz)}), with a
 * file size limit, or without root's power to read any file.
 */
final class CommandProcess {

    private CommandProcess() {
    }

    /** The JVM and its options that run {@code crawl-errors}: C1 only and the serial collector, for a quick start. */
    static List<String> java(Path tmp) {
        return new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                // DuckDB unpacks its library into the temporary directory: the test's own, so it goes with it
                "-Djava.io.tmpdir=" + tmp.toAbsolutePath(),
                "-cp", System.getProperty("java.class.path"), "dev.crawlerrors.cli.Main"));
    }

    /** The words of a shell command that runs {@code crawl-errors}, each quoted for the shell. */
    static String shellWords(Path tmp) {
        StringBuilder sb = new StringBuilder();
        for (String word : java(tmp)) {
            sb.append(sb.isEmpty() ? "" : " ").append('\'').append(word.replace("'", "'\\''")).append('\'');
        }
        return sb.toString();
    }

    /** What a finished run printed (standard output and error together) and its exit status. */
    record Finished(int exit, String output) {
    }

    /** Runs {@code command} to its end (at most two minutes), its output going to a file in {@code tmp}. */
    static Finished run(Path tmp, List<String> command) throws IOException, InterruptedException {
        Path output = Files.createTempFile(tmp, "command", ".out");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("did not end in two minutes: " + command + "\n" + Files.readString(output));
        }
        return new Finished(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    }
}
