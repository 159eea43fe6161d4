package dev.crawlerrors.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * The writing and measuring half of {@code bench/follow-latency.sh}: appends crawler lines to a log
 * that a running {@code serve --follow} tails, one {@code write()} each at random intervals, and for
 * each measures the time from the write to the report API ({@code GET /api/crawl-errors}) counting
 * it, asking every {@value #ASK_EVERY_MS} ms. Prints each line's latency, then min, median, p95 and
 * max against the bound (1 s), and beside them the floor of the measurement: how long one
 * API request takes when nothing changed.
 *
 * <p>Run it through the script (which starts the server); by hand:
 * {@code java -cp target/test-classes:target/crawl-errors.jar dev.crawlerrors.bench.FollowLatency LOG BASE_URL [LINES] [SEED]}.
 * Every line is a verified Googlebot error (66.249.66.x, in {@code bench/ip-ranges}), so each one
 * adds exactly one to the report's total.
 */
public final class FollowLatency {

    static final int ASK_EVERY_MS = 10;
    /** Lines written and awaited before measuring: the file appears, its format is detected, the JIT warms. */
    static final int WARM_UP_LINES = 5;
    /** The pause between two lines is drawn from [MIN, MAX) ms: sometimes within one poll, sometimes across several. */
    static final int MIN_PAUSE_MS = 20;
    static final int MAX_PAUSE_MS = 500;
    static final long GIVE_UP_MS = 10_000;
    static final long BOUND_MS = 1_000;

    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT);

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private final URI api;

    private FollowLatency(String base) {
        this.api = URI.create(base + "/api/crawl-errors");
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: FollowLatency LOG BASE_URL [LINES] [SEED]");
            System.exit(2);
        }
        Path log = Path.of(args[0]);
        int lines = args.length > 2 ? Integer.parseInt(args[2]) : 50;
        long seed = args.length > 3 ? Long.parseLong(args[3]) : 20250514L;
        new FollowLatency(args[1]).run(log, lines, new Random(seed));
    }

    private void run(Path log, int lines, Random random) throws Exception {
        try (FileChannel out = FileChannel.open(log, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            long start = total();
            for (int i = 1; i <= WARM_UP_LINES; i++) {
                out.write(line(start + i, random));
            }
            await(start + WARM_UP_LINES, System.nanoTime());
            double[] floor = new double[20];
            for (int i = 0; i < floor.length; i++) {
                long t = System.nanoTime();
                total();
                floor[i] = (System.nanoTime() - t) / 1e6;
            }

            double[] latencies = new double[lines];
            long expected = start + WARM_UP_LINES;
            for (int i = 0; i < lines; i++) {
                Thread.sleep(MIN_PAUSE_MS + random.nextInt(MAX_PAUSE_MS - MIN_PAUSE_MS));
                ByteBuffer line = line(++expected, random);
                long written = System.nanoTime();
                out.write(line);
                latencies[i] = await(expected, written);
                System.out.printf(Locale.ROOT, "line %3d: %7.1f ms%n", i + 1, latencies[i]);
            }
            Arrays.sort(latencies);
            Arrays.sort(floor);
            System.out.printf(Locale.ROOT, "%nwrite() -> row in GET /api/crawl-errors, %d lines, pauses %d-%d ms, asked every %d ms:%n",
                    lines, MIN_PAUSE_MS, MAX_PAUSE_MS, ASK_EVERY_MS);
            System.out.printf(Locale.ROOT, "  min %.1f ms, median %.1f ms, p95 %.1f ms, max %.1f ms (bound %d ms: %s)%n",
                    latencies[0], percentile(latencies, 50), percentile(latencies, 95), latencies[lines - 1], BOUND_MS,
                    latencies[lines - 1] < BOUND_MS ? "all within" : "EXCEEDED");
            System.out.printf(Locale.ROOT, "  floor: one API request takes %.1f ms (median of %d), plus up to %d ms between asks%n",
                    percentile(floor, 50), floor.length, ASK_EVERY_MS);
        }
    }

    /** A verified Googlebot 404 stamped now, as one buffer so it is one write(). */
    private static ByteBuffer line(long n, Random random) {
        String text = "66.249.66." + (1 + random.nextInt(250)) + " - - [" + LOG_TIME.format(ZonedDateTime.now()) + "] \"GET /follow-latency/"
                + n + " HTTP/1.1\" 404 153 \"-\" \"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)\" 0.004\n";
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
    }

    /** Asks the API until its total reaches {@code expected}; the ms since {@code since}. */
    private double await(long expected, long since) throws Exception {
        long deadline = since + GIVE_UP_MS * 1_000_000;
        while (true) {
            long asked = System.nanoTime();
            if (total() >= expected) {
                return (System.nanoTime() - since) / 1e6;
            }
            if (asked - deadline > 0) {
                throw new IllegalStateException("the report did not show line " + expected + " within " + GIVE_UP_MS + " ms");
            }
            long next = asked + ASK_EVERY_MS * 1_000_000L - System.nanoTime();
            if (next > 0) {
                Thread.sleep(next / 1_000_000, (int) (next % 1_000_000));
            }
        }
    }

    private long total() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(api).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + api + " answered " + response.statusCode() + ": " + response.body());
        }
        return json.readTree(response.body()).get("total").asLong();
    }

    /** The nearest-rank percentile of sorted values. */
    private static double percentile(double[] sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }
}
