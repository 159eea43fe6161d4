package dev.crawlerrors.cli;

import dev.crawlerrors.text.Figures;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine;

/**
 * {@code crawl-errors aot-training} (hidden): the launcher's training run for the JVM's
 * ahead-of-time cache. It does, offline and in a temporary directory, what users do: imports the
 * demo log through the {@code import} command (as Apache writes it, as nginx does, and signed as an agent that signs
 * its requests sends it), then serves it through the
 * {@code serve} command on a loopback port and fetches the report as JSON, HTML and CSV. The JVM records the classes this loads and links (and, from
 * JDK 25, the methods' profiles), so later starts skip that work.
 *
 * <p>With {@code --import-only} it stops after the imports, for a cache that imports alone use: a
 * JDK 25 start loads every class its cache holds, and the report server's (Jetty, Javalin, the
 * templates) are most of them.
 */
final class AotTrainingCommand implements Callable<Integer> {

    boolean importOnly;

    /** The command, bound to this object; hidden from the help, and without help options of its own. */
    CommandSpec spec() {
        CommandSpec spec = CommandSpec.wrapWithoutInspection(this).name("aot-training");
        spec.usageMessage().hidden(true)
                .description("The launcher's training run for the JVM's ahead-of-time cache (offline; writes only to a temporary directory).");
        spec.addOption(CommandSpecs.option("--import-only", null, boolean.class, () -> importOnly, value -> importOnly = value,
                "Train for imports alone: import the demo log, serve nothing.").build());
        return spec;
    }

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
            // The cache keeps the methods' profiles: a branch the training never took is compiled
            // as a trap, and the first line that takes it makes the parser compile again. The demo log
            // writes Apache's %D, GET only, no referer; so the second import reads it as nginx writes
            // it, varied the ways real logs vary (see writeVaried).
            Path nginx = dir.resolve("access-nginx.log");
            writeVaried(demo.log(), nginx);
            status = importer.execute("import", "--db", dir.resolve("nginx.duckdb").toString(), "--dns-server", "none",
                    "--ip-ranges", demo.ipRanges().toString(), nginx.toString());
            if (status != 0) {
                return status;
            }
            // and as many small compressed logs, as CloudFront or a load balancer writes them: a directory
            // of them imported, then imported again (nothing opened), so their path is in the cache too
            Path small = writeSmallLogs(nginx, dir.resolve("small"));
            for (int run = 0; run < 2 && status == 0; run++) {
                status = importer.execute("import", "--db", dir.resolve("small.duckdb").toString(), "--dns-server", "none",
                        "--ip-ranges", demo.ipRanges().toString(), small.toString());
            }
            if (status != 0) {
                return status;
            }
            // and signed as Web Bot Auth agents sign: more lines than an import checks at its end, so the
            // path of those it keeps apart and of those that wait in their hits' rows is in the cache (an
            // import of signed lines loaded and interpreted it at every start). Their signatures are
            // made up: an import of this many checks none.
            Path signed = dir.resolve("access-signed.log");
            Path keys = SignedTrainingLog.write(nginx, signed, dir.resolve("keys"));
            status = importer.execute("import", "--db", dir.resolve("signed.duckdb").toString(), "--dns-server", "none",
                    "--ip-ranges", demo.ipRanges().toString(), "--signature-directories", keys.toString(),
                    "--format", SignedTrainingLog.FORMAT, signed.toString());
            if (status != 0) {
                return status;
            }
            // and as a default import verifies, offline: lists over HTTP and DNS over UDP, to loopback
            // ports where nothing listens, so the HTTP client and dnsjava are in the cache too (a
            // default import loaded them at every start: 0.45 s more CPU than --dns-server none)
            try (ServerSocket tcp = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                 DatagramSocket udp = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
                String noListHost = "http://127.0.0.1:" + tcp.getLocalPort() + "/";
                String noResolver = "127.0.0.1:" + udp.getLocalPort();
                tcp.close();
                udp.close();
                status = importer.execute("import", "--db", dir.resolve("default.duckdb").toString(), "--dns-server", noResolver,
                        "--ip-ranges", noListHost, nginx.toString());
            }
            if (status != 0 || importOnly) {
                return status;
            }
            return serve(demo, discard);
        } finally {
            deleteTree(dir);
        }
    }

    /**
     * Serves the demo store through the {@code serve} command, as a user starts it (its options read,
     * the store opened and checked, the verifier offline), fetches the first pages, JSON first as a
     * start's first request is, and stops it: the path to a start's first page is then in the cache.
     */
    private static int serve(DemoCommand.Demo demo, PrintWriter discard) throws Exception {
        int port;
        String noListHost;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             ServerSocket noList = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
            noListHost = "http://127.0.0.1:" + noList.getLocalPort() + "/";
        }
        ServeCommand serve = new ServeCommand();
        CommandLine serving = new CommandLine(serve.spec()).setOut(discard).setErr(discard);
        int[] status = {0};
        Thread thread = new Thread(() -> status[0] = serving.execute("--db", demo.db().toString(), "--port", Integer.toString(port),
                "--dns-server", "none", "--ip-ranges", noListHost), "training-serve");
        thread.start();
        try {
            HttpClient client = HttpClient.newHttpClient();
            String base = "http://127.0.0.1:" + port;
            long deadline = System.nanoTime() + SERVE_WAIT_NANOS;
            while (!answers(client, base + "/api/crawl-errors?page=1")) {
                if (!thread.isAlive() || System.nanoTime() > deadline) {
                    return thread.isAlive() || status[0] == 0 ? 1 : status[0];
                }
                Thread.sleep(20);
            }
            for (String path : List.of("/crawl-errors?page=1", "/crawl-errors", "/crawl-errors?page=2", "/api/crawl-errors",
                    "/crawl-errors.csv", "/crawl-errors?page=abc")) {
                client.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.discarding());
            }
            return 0;
        } finally {
            serve.stopRequest.countDown();
            thread.join(SERVE_WAIT_NANOS / 1_000_000);
        }
    }

    /** How long the training waits for its serve to answer, and to stop. */
    private static final long SERVE_WAIT_NANOS = 60_000_000_000L;

    private static boolean answers(HttpClient client, String url) throws InterruptedException {
        try {
            return client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false; // not listening yet
        }
    }

    /** A line as the demo log writes it: address, time, request, status, size, referer, agent, microseconds. */
    private static final Pattern DEMO_LINE = Pattern.compile(
            "(\\S+) - - (\\[[^\\]]+\\]) \"(\\S+) (\\S+) (\\S+)\" (\\d{3}) (\\S+) \"([^\"]*)\" \"([^\"]*)\"(?: (\\d+))?");

    /**
     * {@code log}'s lines as nginx writes them, request times in seconds ({@code 0.000123} for
     * Apache's 123 microseconds), and each line but every {@value #VARIANTS}th varied one way in
     * turn: the demo log is GET only, IPv4 only, with sizes, no referer, no escapes, so a parser
     * trained on it alone is recompiled at the first line of another shape (a crawler's HEAD).
     * Lines not in the demo's form are copied as they are.
     */
    static void writeVaried(Path log, Path to) throws IOException {
        List<String> lines = new ArrayList<>();
        int index = 0;
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            Matcher m = DEMO_LINE.matcher(line);
            lines.add(m.matches() ? varied(m, index++ % VARIANTS) : line);
        }
        Files.write(to, lines, StandardCharsets.UTF_8);
    }

    private static final int VARIANTS = 12;

    private static String varied(Matcher m, int variant) {
        String ip = m.group(1);
        String method = m.group(3);
        String url = m.group(4);
        String protocol = m.group(5);
        String size = m.group(7);
        String referer = m.group(8);
        String agent = m.group(9);
        String micros = m.group(10);
        switch (variant) {
            case 1 -> method = "HEAD";
            case 2 -> referer = "https://www.google.com/";
            case 3 -> size = "-";
            case 4 -> method = "POST";
            case 5 -> url += (url.contains("?") ? "&" : "?") + "q=de%20panne";
            case 6 -> agent += " \\\"quoted\\\"";
            case 7 -> micros = null;
            case 8 -> method = "PROPFIND";
            case 9 -> url += "\\x22";
            case 10 -> ip = ip.contains(":") ? ip : "2001:4860:4801:10::" + ip.substring(ip.lastIndexOf('.') + 1);
            case 11 -> protocol = "HTTP/2.0";
            default -> { }
        }
        String time = micros == null ? "" : " " + Figures.fixed(Long.parseLong(micros) / 1e6, 6);
        return ip + " - - " + m.group(2) + " \"" + method + " " + url + " " + protocol + "\" " + m.group(6) + " " + size
                + " \"" + referer + "\" \"" + agent + "\"" + time;
    }

    /** Lines a small log holds in the training: CloudFront's files hold a few dozen. */
    private static final int SMALL_LOG_LINES = 20;

    /** {@code log}'s lines cut into gzipped logs of {@value #SMALL_LOG_LINES} lines in {@code dir}; returns {@code dir}. */
    private static Path writeSmallLogs(Path log, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        for (int from = 0, n = 0; from < lines.size(); from += SMALL_LOG_LINES, n++) {
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(dir.resolve(String.format(Locale.ROOT, "E2TRAIN.2025-05-14-00.b%06d.gz", n))))) {
                for (String line : lines.subList(from, Math.min(lines.size(), from + SMALL_LOG_LINES))) {
                    out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        return dir;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
