package dev.crawlerrors.bench;

import static dev.crawlerrors.bench.BenchWords.CITIES;
import static dev.crawlerrors.bench.BenchWords.DESKTOP;
import static dev.crawlerrors.bench.BenchWords.INSPECTION;
import static dev.crawlerrors.bench.BenchWords.MONTHS;
import static dev.crawlerrors.bench.BenchWords.SECTIONS;
import static dev.crawlerrors.bench.BenchWords.SMARTPHONE;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.SplittableRandom;

/**
 * Benchmark data for the read side: a month of crawler traffic in nginx {@code combined} with a
 * request time, every line a crawler's error hit (the report's rows), in time order. Run:
 *
 * <pre>
 * java -cp target/test-classes:target/crawl-errors.jar dev.crawlerrors.bench.ReadBenchLog LINES DIR [SERVERS]
 * </pre>
 *
 * writes {@code DIR/month.log} (every line) and, with SERVERS > 1, the same lines split into
 * {@code DIR/server-1.log} ... by the server that took each request, each in time order: imported one
 * after another, they make a store whose hits are not in time order.
 *
 * <p>Googlebot Smartphone and Desktop from 66.249.64.0/19 (the IP list in {@code bench/ip-ranges}),
 * about one in fifty Google-InspectionTool, one in a thousand an impostor outside the block; URLs of
 * a street-information site with a long tail of pages; statuses 301/304/308 (three in four), 404
 * (one in five), 410, 500 and 503. Deterministic: the same arguments give the same bytes.
 */
public final class ReadBenchLog {

    private static final long SEED = 20261001L;

    private ReadBenchLog() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: ReadBenchLog LINES DIR [SERVERS]");
            System.exit(2);
        }
        long lines = Long.parseLong(args[0]);
        Path dir = Files.createDirectories(Path.of(args[1]));
        int servers = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        write(lines, dir, servers);
    }

    static void write(long lines, Path dir, int servers) throws IOException {
        SplittableRandom random = new SplittableRandom(SEED);
        // a month: 2026-10-01 to 2026-10-31, in +02:00
        long start = LocalDate.of(2026, 10, 1).toEpochDay() * 86_400_000L - 2 * 3_600_000L;
        long gap = 31L * 86_400_000L / lines;
        OutputStream all = new BufferedOutputStream(Files.newOutputStream(dir.resolve("month.log")), 1 << 20);
        OutputStream[] parts = new OutputStream[servers > 1 ? servers : 0];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = new BufferedOutputStream(Files.newOutputStream(dir.resolve("server-" + (i + 1) + ".log")), 1 << 20);
        }
        StringBuilder sb = new StringBuilder(400);
        long t = start;
        for (long n = 0; n < lines; n++) {
            t += random.nextLong(gap * 2 + 1);
            sb.setLength(0);
            line(sb, random, t);
            byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
            all.write(bytes);
            if (parts.length > 0) {
                parts[random.nextInt(parts.length)].write(bytes);
            }
        }
        all.close();
        for (OutputStream part : parts) {
            part.close();
        }
    }

    private static void line(StringBuilder sb, SplittableRandom random, long millis) {
        int kind = random.nextInt(1000);
        String ip;
        String agent;
        if (kind == 0) {
            ip = "203.0.113." + random.nextInt(1, 255);
            agent = DESKTOP;
        } else if (kind < 20) {
            ip = "66.249." + (64 + random.nextInt(32)) + "." + random.nextInt(1, 255);
            agent = INSPECTION;
        } else {
            ip = "66.249." + (64 + random.nextInt(32)) + "." + random.nextInt(1, 255);
            agent = kind < 600 ? SMARTPHONE : DESKTOP;
        }
        int shape = random.nextInt(100);
        String city = CITIES[random.nextInt(CITIES.length)];
        String url;
        int status;
        if (shape < 40) {
            url = "/" + city + "/straat-" + random.nextInt(40_000);
            status = 308;
        } else if (shape < 60) {
            url = "/" + city + "/straat-" + random.nextInt(40_000) + "/";
            status = 304;
        } else if (shape < 75) {
            url = "/" + city + "/straat-" + random.nextInt(40_000) + "/" + SECTIONS[random.nextInt(SECTIONS.length)];
            status = random.nextInt(10) == 0 ? 301 : 308;
        } else if (shape < 95) {
            url = "/" + city + "/straten/" + (char) ('a' + random.nextInt(26));
            status = 404;
        } else if (shape < 98) {
            url = "/zoeken?q=" + random.nextInt(100_000);
            status = 410;
        } else {
            url = "/" + city + "/kaart";
            status = random.nextBoolean() ? 500 : 503;
        }
        long local = millis + 2 * 3_600_000L;
        long day = Math.floorDiv(local, 86_400_000L);
        LocalDate date = LocalDate.ofEpochDay(day);
        long ms = Math.floorMod(local, 86_400_000L);
        sb.append(ip).append(" - - [");
        two(sb, date.getDayOfMonth());
        sb.append('/').append(MONTHS[date.getMonthValue() - 1]).append('/').append(date.getYear()).append(':');
        two(sb, (int) (ms / 3_600_000));
        sb.append(':');
        two(sb, (int) (ms / 60_000 % 60));
        sb.append(':');
        two(sb, (int) (ms / 1000 % 60));
        sb.append(" +0200] \"GET ").append(url).append(" HTTP/1.1\" ").append(status).append(" 0 \"-\" \"").append(agent)
                .append("\" 0.").append(String.format("%03d", random.nextInt(status >= 500 ? 999 : 30))).append('\n');
    }

    private static void two(StringBuilder sb, int n) {
        if (n < 10) {
            sb.append('0');
        }
        sb.append(n);
    }
}
