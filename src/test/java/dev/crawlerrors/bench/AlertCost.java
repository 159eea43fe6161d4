package dev.crawlerrors.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The measuring half of {@code bench/alert-cost.sh}: what {@code serve}'s built-in alerts cost while a
 * followed log grows at a steady rate, and how soon an alert reaches a webhook. Each round runs
 * {@code ./crawl-errors serve --follow} twice, with 100 rules and a loopback webhook ({@code --alerts})
 * and without, in alternating order; each run gets BenchLog's lines stamped with the time they are
 * written, 1/100 of a second's worth every 10 ms, and, every {@value #PROBE_EVERY_MS} ms, a verified
 * Googlebot's {@code /robots.txt} fetch that answered 500, then one that answered 200. Over the
 * measured seconds (after a warm-up) it reads the server's CPU time from {@code /proc} and, with
 * alerts on, the time from each probe's {@code write()} to its alert (firing, then resolved) reaching
 * the webhook. Prints each run, the per-round CPU ratio on/off, the latencies, and peak RSS.
 *
 * <p>By hand: {@code java -cp target/test-classes:target/crawl-errors.jar dev.crawlerrors.bench.AlertCost
 * WORKDIR [ROUNDS] [RATE] [WARMUP_S] [MEASURE_S]}, from the repository root.
 */
public final class AlertCost {

    static final long PROBE_EVERY_MS = 3_000;
    static final long GIVE_UP_MS = 15_000;
    static final long BOUND_MS = 5_000;
    static final int RULES = 100;
    private static final String PROBE = "LatencyProbe";
    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT);
    private static final String GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    private static final long TICKS = 100; // USER_HZ, what /proc/PID/stat counts in

    record Run(String mode, double cpuSeconds, double seconds, long peakRssKb, long written, String lag, List<Double> latencies) {
    }

    record Received(String status, long nanos) {
    }

    private final Path work;
    private final int rate;
    private final int warmUp;
    private final int measure;
    private final List<byte[]> lines;
    private final LinkedBlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private final HttpServer receiver;
    private final ObjectMapper json = new ObjectMapper();

    private AlertCost(Path work, int rate, int warmUp, int measure) throws IOException {
        this.work = work;
        this.rate = rate;
        this.warmUp = warmUp;
        this.measure = measure;
        this.lines = benchLines(Math.min(rate * (warmUp + measure), 1_000_000));
        this.receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        receiver.createContext("/", exchange -> {
            long at = System.nanoTime();
            JsonNode body = json.readTree(exchange.getRequestBody());
            for (JsonNode alert : body.path("alerts")) {
                if (alert.path("labels").path("alertname").asText().equals(PROBE)) {
                    received.add(new Received(alert.path("status").asText(), at));
                }
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: AlertCost WORKDIR [ROUNDS] [RATE] [WARMUP_S] [MEASURE_S]");
            System.exit(2);
        }
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int rate = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
        int warmUp = args.length > 3 ? Integer.parseInt(args[3]) : 15;
        int measure = args.length > 4 ? Integer.parseInt(args[4]) : 30;
        AlertCost bench = new AlertCost(Path.of(args[0]), rate, warmUp, measure);
        try {
            bench.run(rounds);
        } finally {
            bench.receiver.stop(0);
        }
    }

    private void run(int rounds) throws Exception {
        Path rules = writeRules();
        System.out.printf(Locale.ROOT, "%d rules (%s), %,d lines/s, warm-up %d s, measured %d s, %d rounds alternating%n",
                RULES, rules, rate, warmUp, measure, rounds);
        List<Run> on = new ArrayList<>();
        List<Run> off = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            boolean onFirst = round % 2 == 1;
            for (boolean alerts : onFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
                Run run = serveRun(round, alerts ? rules : null);
                (alerts ? on : off).add(run);
                System.out.printf(Locale.ROOT, "round %d alerts %-3s: CPU %6.2f s in %5.1f s (%.2f cores), peak RSS %,d KB, %,d lines, lag %s%s%n",
                        round + 1, run.mode(), run.cpuSeconds(), run.seconds(), run.cpuSeconds() / run.seconds(), run.peakRssKb(),
                        run.written(), run.lag(), alerts ? ", " + run.latencies().size() + " alerts timed" : "");
            }
        }
        double[] ratios = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            ratios[i] = on.get(i).cpuSeconds() / off.get(i).cpuSeconds();
        }
        System.out.printf(Locale.ROOT, "%nCPU, alerts on / off, per round: %s; median %.3f (target 1.05)%n",
                Arrays.stream(ratios).mapToObj(r -> String.format(Locale.ROOT, "%.3f", r)).toList(), median(ratios));
        System.out.printf(Locale.ROOT, "CPU-s medians: off %.2f, on %.2f; peak RSS max: off %,d KB, on %,d KB%n",
                median(off.stream().mapToDouble(Run::cpuSeconds).toArray()), median(on.stream().mapToDouble(Run::cpuSeconds).toArray()),
                off.stream().mapToLong(Run::peakRssKb).max().orElse(0), on.stream().mapToLong(Run::peakRssKb).max().orElse(0));
        double[] latencies = on.stream().flatMap(r -> r.latencies().stream()).mapToDouble(Double::doubleValue).sorted().toArray();
        if (latencies.length > 0) {
            System.out.printf(Locale.ROOT, "write() -> alert at the webhook, %d alerts (firing and resolved): min %.0f ms, median %.0f ms, "
                            + "p95 %.0f ms, max %.0f ms (target %d ms: %s)%n", latencies.length, latencies[0], percentile(latencies, 50),
                    percentile(latencies, 95), latencies[latencies.length - 1], BOUND_MS,
                    latencies[latencies.length - 1] <= BOUND_MS ? "all within" : "EXCEEDED");
        }
    }

    /** One {@code serve --follow} run, with the rules in {@code rules} or (null) without alerts. */
    private Run serveRun(int round, Path rules) throws Exception {
        String mode = rules == null ? "off" : "on";
        Path dir = Files.createDirectories(work.resolve("round-" + (round + 1) + "-" + mode));
        Path log = dir.resolve("access.log");
        Files.createFile(log);
        List<String> command = new ArrayList<>(List.of("./crawl-errors", "serve", "--follow", log.toString(), "--db",
                dir.resolve("hits.duckdb").toString(), "--dns-server", "none", "--ip-ranges", "bench/ip-ranges", "--port", "0",
                "--timezone", "UTC"));
        if (rules != null) {
            command.addAll(List.of("--alerts", rules.toString()));
        }
        Path output = dir.resolve("serve.out");
        Process serve = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            String base = awaitServing(serve, output);
            received.clear();
            Feeder feeder = new Feeder(log);
            Thread feeding = Thread.ofPlatform().name("feeder").daemon().start(feeder); // a failed run ends the JVM
            long fed = System.nanoTime();
            Thread.sleep(warmUp * 1000L);
            long cpu0 = cpuTicks(serve.pid());
            long t0 = System.nanoTime();
            long end = t0 + measure * 1_000_000_000L;
            List<Double> latencies = new ArrayList<>();
            boolean failing = true;
            while (System.nanoTime() + PROBE_EVERY_MS * 1_000_000 < end) {
                long slot = System.nanoTime();
                long written = feeder.probe(failing ? 500 : 200);
                if (rules != null) {
                    double ms = awaitAlert(failing ? "firing" : "resolved", written);
                    latencies.add(ms);
                    System.out.printf(Locale.ROOT, "  probe at %5.1f s after the feed began (%s): %,6.0f ms, load %s%n",
                            (written - fed) / 1e9, failing ? "firing" : "resolved", ms, loadAverage());
                }
                failing = !failing;
                long rest = slot + PROBE_EVERY_MS * 1_000_000 - System.nanoTime();
                if (rest > 0) {
                    TimeUnit.NANOSECONDS.sleep(rest);
                }
            }
            long rest = end - System.nanoTime();
            if (rest > 0) {
                TimeUnit.NANOSECONDS.sleep(rest);
            }
            long cpu1 = cpuTicks(serve.pid());
            double seconds = (System.nanoTime() - t0) / 1e9;
            feeder.stop();
            feeding.join();
            String lag = lag(base);
            long rss = peakRssKb(serve.pid());
            return new Run(mode, (cpu1 - cpu0) / (double) TICKS, seconds, rss, feeder.written(), lag, latencies);
        } finally {
            serve.destroy();
            if (!serve.waitFor(30, TimeUnit.SECONDS)) {
                serve.destroyForcibly();
            }
        }
    }

    /** The machine's 1-minute load average, to read a slow alert against. */
    private static String loadAverage() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    }

    /** Waits for the probe's alert of {@code status}; the ms since {@code since}. */
    private double awaitAlert(String status, long since) throws InterruptedException {
        long deadline = since + GIVE_UP_MS * 1_000_000;
        while (true) {
            Received got = received.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (got == null) {
                throw new IllegalStateException("no " + status + " " + PROBE + " alert within " + GIVE_UP_MS + " ms");
            }
            if (got.status().equals(status) && got.nanos() - since > 0) {
                return (got.nanos() - since) / 1e6;
            }
        }
    }

    /** Appends BenchLog's lines at {@code rate} a second, stamped now, and the probes between them. */
    private final class Feeder implements Runnable {
        private final FileChannel out;
        private volatile boolean running = true;
        private long written;

        Feeder(Path log) throws IOException {
            this.out = FileChannel.open(log, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        }

        @Override
        public void run() {
            long start = System.nanoTime();
            int next = 0;
            try (out) {
                while (running) {
                    long due = (System.nanoTime() - start) * rate / 1_000_000_000L;
                    if (due > written) {
                        byte[] stamp = LOG_TIME.format(ZonedDateTime.now(ZoneOffset.UTC)).getBytes(StandardCharsets.US_ASCII);
                        ByteBuffer batch = ByteBuffer.allocate((int) (due - written) * 600);
                        for (; written < due && batch.remaining() > 600; written++) {
                            byte[] line = lines.get(next);
                            next = (next + 1) % lines.size();
                            int open = indexOf(line, (byte) '[');
                            batch.put(line, 0, open + 1).put(stamp).put(line, open + 1 + stamp.length, line.length - open - 1 - stamp.length);
                        }
                        write(batch.flip());
                    }
                    Thread.sleep(10);
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }

        /** Writes one verified Googlebot fetch of /robots.txt answered {@code status}; when it was written. */
        long probe(int status) throws IOException {
            String line = "66.249.66.7 - - [" + LOG_TIME.format(ZonedDateTime.now(ZoneOffset.UTC)) + "] \"GET /robots.txt HTTP/1.1\" "
                    + status + " 0 \"-\" \"" + GOOGLEBOT + "\" 0.001\n";
            ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.US_ASCII));
            long at = System.nanoTime();
            write(bytes);
            return at;
        }

        private synchronized void write(ByteBuffer bytes) throws IOException {
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
        }

        void stop() {
            running = false;
        }

        long written() {
            return written;
        }
    }

    /** 100 rules of the four kinds over the crawler families, the probe's robots-txt rule among them, and the webhook. */
    private Path writeRules() throws IOException {
        String[] families = {"Google", "Microsoft", "OpenAI", "Apple", "Ahrefs", "Yandex", "Amazon", "Anthropic", "Baidu", "Coc Coc",
            "Common Crawl", "DuckDuckGo", "Huawei", "Mistral AI", "Mojeek", "Naver", "Perplexity", "Qwant", "SISTRIX", "Seznam", "Sogou",
            "Yahoo", "other"};
        StringBuilder text = new StringBuilder("# bench/alert-cost.sh: " + RULES + " rules\n");
        text.append("robots-txt name=").append(PROBE).append(" family=Google\n");
        int n = 1;
        for (int i = 0; i < 25; i++) {
            String family = "\"" + families[i % families.length] + "\"";
            text.append("new-pattern name=NewPattern").append(i).append(" min-hits=").append(3 + i).append(" window=").append(5 + i).append("m\n");
            text.append("server-error-burst name=Burst").append(i).append(" family=").append(family).append(" min-hits=").append(5 + i)
                    .append(" window=").append(1 + i % 10).append("m\n");
            text.append("error-rate-jump name=RateJump").append(i).append(" family=").append(family).append(" window=").append(10 + i)
                    .append("m factor=").append(2 + i % 4).append(" min-rate=5% min-hits=50 min-baseline-hits=200\n");
            if (i > 0) {
                text.append("robots-txt name=Robots").append(i).append(" family=").append(family).append('\n');
            }
            n += i > 0 ? 4 : 3;
        }
        if (n != RULES) {
            throw new IllegalStateException(n + " rules written, not " + RULES);
        }
        text.append("webhook http://127.0.0.1:").append(receiver.getAddress().getPort()).append("/alerts\n");
        return Files.writeString(work.resolve("alerts.conf"), text);
    }

    /** BenchLog's first {@code count} lines, but its fetches of /robots.txt (the probe's alone decide the probe's alert). */
    private static List<byte[]> benchLines(int count) {
        byte[] all = BenchLog.generate(count);
        List<byte[]> out = new ArrayList<>(count);
        byte[] robots = "/robots.txt".getBytes(StandardCharsets.US_ASCII);
        for (int from = 0, nl; from < all.length; from = nl + 1) {
            nl = indexOf(all, (byte) '\n', from);
            if (nl < 0) {
                break;
            }
            byte[] line = Arrays.copyOfRange(all, from, nl + 1);
            if (indexOf(line, robots) < 0 && indexOf(line, (byte) '[') >= 0) {
                out.add(line);
            }
        }
        return out;
    }

    private static String awaitServing(Process serve, Path output) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline) {
            String printed = Files.readString(output);
            int at = printed.indexOf("Serving the report at ");
            if (at >= 0) {
                String rest = printed.substring(at + "Serving the report at ".length());
                return rest.substring(0, rest.indexOf("/crawl-errors"));
            }
            if (!serve.isAlive()) {
                throw new IllegalStateException("serve stopped:\n" + printed);
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("serve did not start within 120 s:\n" + Files.readString(output));
    }

    /** The followed log's import lag as /metrics says it. */
    private static String lag(String base) throws Exception {
        var http = java.net.http.HttpClient.newHttpClient();
        String metrics = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/metrics")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        return metrics.lines().filter(l -> l.startsWith("crawl_errors_follow_lag_seconds{")).map(l -> l.substring(l.lastIndexOf(' ') + 1) + " s")
                .findFirst().orElse("?");
    }

    private static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
    }

    private static long peakRssKb(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream().filter(l -> l.startsWith("VmHWM:"))
                .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", ""))).findFirst().orElse(0);
    }

    private static int indexOf(byte[] bytes, byte b) {
        return indexOf(bytes, b, 0);
    }

    private static int indexOf(byte[] bytes, byte b, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static int indexOf(byte[] bytes, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= bytes.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (bytes[i + j] != part[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The nearest-rank percentile of sorted values. */
    private static double percentile(double[] sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }
}
