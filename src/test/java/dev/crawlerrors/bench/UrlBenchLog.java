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
 * Benchmark data for the URL side: a month of crawler traffic (nginx {@code combined} with a request
 * time), every line a crawler's hit, 200s included, over a fixed number of distinct URLs, in time
 * order. Run:
 *
 * <pre>
 * java -cp target/test-classes:target/crawl-errors.jar dev.crawlerrors.bench.UrlBenchLog HITS URLS FILE
 * </pre>
 *
 * Each URL has a history of its own, drawn once from its number: always ok (200, 304), always
 * redirected (301, 308), always broken (404, 410), fixed (404 or 500 until a day of the month, 200
 * after), a regression (200 until a day, 503 or 404 after), or flapping (200 and 503 at random).
 * Crawlers: Googlebot Smartphone and Desktop (66.249.64.0/19), Bingbot (157.55.39.0/24), GPTBot
 * (20.171.207.0/24), a few Google-InspectionTool, and one hit in 500 a Googlebot impostor (spoofed).
 * Every crawler fetches {@code /robots.txt} now and then; it answers 503 for an hour on the 20th.
 * URLs are drawn with a long tail (a few are fetched thousands of times, most a few times), so that
 * nearly every one of URLS is fetched in a month of HITS lines. Deterministic.
 */
public final class UrlBenchLog {

    private static final long SEED = 20261130L;
    private static final String BING = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
    private static final String GPT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
    static final long DAY = 86_400_000L;
    /** The month: 2026-10-01 to 2026-10-31, written in +02:00. */
    static final long START = LocalDate.of(2026, 10, 1).toEpochDay() * DAY - 2 * 3_600_000L;
    static final int DAYS = 31;

    private UrlBenchLog() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: UrlBenchLog HITS URLS FILE");
            System.exit(2);
        }
        write(Long.parseLong(args[0]), Integer.parseInt(args[1]), Path.of(args[2]));
    }

    static void write(long hits, int urls, Path file) throws IOException {
        SplittableRandom random = new SplittableRandom(SEED);
        long gap = DAYS * DAY / hits;
        StringBuilder sb = new StringBuilder(400);
        long t = START;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            for (long n = 0; n < hits; n++) {
                t += random.nextLong(gap * 2 + 1);
                sb.setLength(0);
                line(sb, random, t, urls);
                out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    /** A URL's number: half the hits go to the first twentieth of the URLs, the rest to any. */
    private static int urlNumber(SplittableRandom random, int urls) {
        return random.nextBoolean() ? random.nextInt(Math.max(1, urls / 20)) : random.nextInt(urls);
    }

    /** URL number {@code n} as a path: {@code /city/straat-N}, with sections and trailing slashes. */
    static String path(int n) {
        String city = CITIES[n % CITIES.length];
        int street = n / CITIES.length;
        return switch (Math.floorMod(n * 7919, 10)) {
            case 0, 1, 2, 3 -> "/" + city + "/straat-" + street;
            case 4, 5 -> "/" + city + "/straat-" + street + "/";
            case 6, 7, 8 -> "/" + city + "/straat-" + street + "/" + SECTIONS[street % SECTIONS.length];
            default -> "/" + city + "/straten/" + street;
        };
    }

    /** The status URL number {@code n} answers at {@code millis}, by the history its number gives it. */
    static int status(int n, long millis, SplittableRandom random) {
        int history = Math.floorMod(n * 104_729 + 17, 100);
        long turn = START + (3 + Math.floorMod(n * 31, DAYS - 6)) * DAY + Math.floorMod(n * 7, 24) * 3_600_000L;
        if (history < 70) {
            return random.nextInt(4) == 0 ? 304 : 200;
        } else if (history < 78) {
            return history % 2 == 0 ? 301 : 308;
        } else if (history < 86) {
            return history % 3 == 0 ? 410 : 404;
        } else if (history < 92) {
            return millis < turn ? (history % 2 == 0 ? 404 : 500) : 200;
        } else if (history < 97) {
            return millis < turn ? 200 : (history % 2 == 0 ? 503 : 404);
        }
        return random.nextBoolean() ? 200 : 503;
    }

    private static void line(StringBuilder sb, SplittableRandom random, long millis, int urls) {
        int kind = random.nextInt(1000);
        String ip;
        String agent;
        if (kind < 2) {
            ip = "203.0.113." + random.nextInt(1, 255);
            agent = DESKTOP;
        } else if (kind < 12) {
            ip = "66.249." + (64 + random.nextInt(32)) + "." + random.nextInt(1, 255);
            agent = INSPECTION;
        } else if (kind < 112) {
            ip = "157.55.39." + random.nextInt(1, 255);
            agent = BING;
        } else if (kind < 162) {
            ip = "20.171.207." + random.nextInt(1, 255);
            agent = GPT;
        } else {
            ip = "66.249." + (64 + random.nextInt(32)) + "." + random.nextInt(1, 255);
            agent = kind < 800 ? SMARTPHONE : DESKTOP;
        }
        String url;
        int status;
        if (random.nextInt(2000) == 0) {
            url = "/robots.txt";
            long local = millis - START;
            status = local >= 19 * DAY + 10 * 3_600_000L && local < 19 * DAY + 11 * 3_600_000L ? 503 : 200;
        } else {
            int n = urlNumber(random, urls);
            url = path(n);
            status = status(n, millis, random);
        }
        long local = millis + 2 * 3_600_000L;
        LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(local, DAY));
        long ms = Math.floorMod(local, DAY);
        sb.append(ip).append(" - - [");
        two(sb, date.getDayOfMonth());
        sb.append('/').append(MONTHS[date.getMonthValue() - 1]).append('/').append(date.getYear()).append(':');
        two(sb, (int) (ms / 3_600_000));
        sb.append(':');
        two(sb, (int) (ms / 60_000 % 60));
        sb.append(':');
        two(sb, (int) (ms / 1000 % 60));
        sb.append(" +0200] \"GET ").append(url).append(" HTTP/1.1\" ").append(status).append(' ')
                .append(status == 200 ? 5000 + random.nextInt(40_000) : 0).append(" \"-\" \"").append(agent)
                .append("\" 0.").append(String.format("%03d", random.nextInt(status >= 500 ? 999 : 120))).append('\n');
    }

    private static void two(StringBuilder sb, int n) {
        if (n < 10) {
            sb.append('0');
        }
        sb.append(n);
    }
}
