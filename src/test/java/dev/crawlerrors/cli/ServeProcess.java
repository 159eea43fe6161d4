package dev.crawlerrors.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code crawl-errors serve} in a process of its own, started from the test class path (so it runs
 * in the test phase, before the jar exists), with its output kept. {@link #close} kills it.
 */
final class ServeProcess implements AutoCloseable {

    private static final Pattern SERVING = Pattern.compile("Serving the report at (http://\\S+)/crawl-errors");

    final Process process;
    /** The report's base address, such as {@code http://127.0.0.1:40123}. */
    final String base;
    private final StringBuilder output;

    private ServeProcess(Process process, String base, StringBuilder output) {
        this.process = process;
        this.base = base;
        this.output = output;
    }

    /** Starts {@code crawl-errors serve ARGS} and waits until it serves (at most 30 s). */
    static ServeProcess start(String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
                // C1 only, for a quick start
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                "dev.crawlerrors.cli.Main", "serve"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        CompletableFuture<String> base = new CompletableFuture<>();
        StringBuilder output = new StringBuilder();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    synchronized (output) {
                        output.append(line).append('\n');
                    }
                    Matcher m = SERVING.matcher(line);
                    if (m.find()) {
                        base.complete(m.group(1));
                    }
                }
            } catch (IOException e) {
                // the process was killed
            }
            base.completeExceptionally(new IllegalStateException("serve ended before serving:\n" + output));
        }, "serve-output");
        reader.setDaemon(true);
        reader.start();
        try {
            return new ServeProcess(process, base.get(30, TimeUnit.SECONDS), output);
        } catch (Exception e) {
            process.destroyForcibly();
            throw e;
        }
    }

    /** What the process printed so far, standard output and error together. */
    String output() {
        synchronized (output) {
            return output.toString();
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
