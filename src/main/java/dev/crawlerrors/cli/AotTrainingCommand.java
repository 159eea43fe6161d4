package dev.crawlerrors.cli;

import dev.crawlerrors.report.CrawlErrorReport;
import dev.crawlerrors.store.DuckDbHitStore;
import dev.crawlerrors.web.ReportServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code crawl-errors aot-training} (hidden): the launcher's training run for the JVM's
 * ahead-of-time cache. It does, offline and in a temporary directory, what users do: imports the
 * demo log through the {@code import} command (as Apache writes it and as nginx does), then serves the report on a loopback port and
 * fetches it as HTML, JSON and CSV. The JVM records the classes this loads and links (and, from
 * JDK 25, the methods' profiles), so later starts skip that work.
 *
 * <p>With {@code --import-only} it stops after the imports, for a cache that imports alone use: a
 * JDK 25 start loads every class its cache holds, and the report server's (Jetty, Javalin, the
 * templates) are most of them.
 */
@Command(name = "aot-training", hidden = true,
        description = "The launcher's training run for the JVM's ahead-of-time cache (offline; writes only to a temporary directory).")
final class AotTrainingCommand implements Callable<Integer> {

    @Option(names = "--import-only", description = "Train for imports alone: import the demo log, serve nothing.")
    boolean importOnly;

    @Override
    public Integer call() throws Exception {
        Path dir = Files.createTempDirectory("crawl-errors-training");
        try {
            DemoCommand.Demo demo = DemoCommand.Demo.prepare(dir);
            PrintWriter discard = new PrintWriter(OutputStream.nullOutputStream());
            // with the import command alone, as an import run builds it
            CommandLine importer = Main.commandLine(new String[] {"import"}).setOut(discard).setErr(discard);
            int status = importer.execute("import", "--db", demo.db().toString(), "--dns-server", "none",
                    "--ip-ranges", demo.ipRanges().toString(), demo.log().toString());
            if (status != 0) {
                return status;
            }
            // The demo log ends its lines with Apache's %D (microseconds); most sites log nginx's
            // $request_time (seconds). The cache keeps the methods' profiles: trained on %D alone,
            // the JIT compiled the seconds branch out of the parser, and on an nginx log it had to
            // throw that code away and compile the parser again (half a second of compiler time).
            Path nginx = dir.resolve("access-nginx.log");
            writeWithSeconds(demo.log(), nginx);
            status = importer.execute("import", "--db", dir.resolve("nginx.duckdb").toString(), "--dns-server", "none",
                    "--ip-ranges", demo.ipRanges().toString(), nginx.toString());
            if (status != 0 || importOnly) {
                return status;
            }
            try (DuckDbHitStore store = DuckDbHitStore.open(demo.db());
                 ReportServer server = ReportServer.start(new CrawlErrorReport(store, ZoneOffset.UTC), store, "127.0.0.1", 0,
                         List::of)) {
                HttpClient client = HttpClient.newHttpClient();
                for (String path : List.of("/crawl-errors", "/crawl-errors?page=2", "/api/crawl-errors", "/crawl-errors.csv",
                        "/crawl-errors?page=abc")) {
                    client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                            HttpResponse.BodyHandlers.discarding());
                }
            }
            return 0;
        } finally {
            deleteTree(dir);
        }
    }

    /** {@code log}'s lines with their trailing microseconds written as nginx writes seconds ({@code 0.000123}). */
    static void writeWithSeconds(Path log, Path to) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            int space = line.lastIndexOf(' ');
            String last = line.substring(space + 1);
            lines.add(last.chars().allMatch(Character::isDigit) && !last.isEmpty()
                    ? line.substring(0, space + 1) + String.format(Locale.ROOT, "%.6f", Long.parseLong(last) / 1e6)
                    : line);
        }
        Files.write(to, lines, StandardCharsets.UTF_8);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
