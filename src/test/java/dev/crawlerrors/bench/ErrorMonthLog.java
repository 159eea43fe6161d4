package dev.crawlerrors.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Benchmark data for the read side: a month of crawler traffic that got error responses, as nginx
 * logs it ({@code combined} with a trailing {@code $request_time}), in time order, every line a
 * crawler hit with a status of 300 or more, so N lines are N error hits in the store. Run:
 *
 * <pre>
 * mvn -q test-compile
 * java -cp target/test-classes:target/crawl-errors.jar dev.crawlerrors.bench.ErrorMonthLog 10000000 /tmp/month.log [SEED]
 * </pre>
 *
 * <p>Googlebot (smartphone and desktop, from 66.249.64.0/19, most of the traffic), Bingbot, GPTBot
 * and Applebot from the blocks of {@code bench/ip-ranges/} (verified), AhrefsBot and SemrushBot
 * (no list: unverified), and one line in a hundred a Googlebot impostor (spoofed, left out of the
 * default view). 2025-05-01 to 2025-05-30 (+0200), about four lines a second; most errors are 404s.
 * The same seed always gives the same bytes.
 */
public final class ErrorMonthLog {

    private static final long START = Instant.parse("2025-04-30T22:00:00Z").getEpochSecond();
    private static final long SECONDS = 30L * 86_400;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT)
            .withZone(ZoneOffset.ofHours(2));
    private static final int[] STATUSES = {301, 302, 304, 304, 404, 404, 404, 404, 404, 404, 404, 404, 404, 410, 410, 500, 500, 503, 503,
        308};
    private static final String[] CITIES = {"antwerpen", "gent", "brugge", "leuven", "mechelen", "hasselt", "kortrijk", "oostende",
        "aalst", "genk", "brussel", "namur", "liege", "charleroi"};
    private static final String[] STREETS = {"kerkstraat", "molenweg", "stationsplein", "marktlaan", "schooldreef", "lindenlei",
        "beukenhof", "eikenpad", "hoogstraat", "nieuwe-kaai", "oudweg", "zandstraat", "koningslaan", "bosdreef", "veldstraat"};
    private static final String GOOGLEBOT_SMARTPHONE = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36"
            + " (KHTML, like Gecko) Chrome/137.0.7151.68 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    private static final String GOOGLEBOT_DESKTOP = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1;"
            + " +http://www.google.com/bot.html) Chrome/137.0.7151.68 Safari/537.36";
    /** Agent, first three octets (null: Google's /19), share in percent. */
    private static final String[][] CRAWLERS = {
        {GOOGLEBOT_SMARTPHONE, null, "40"},
        {GOOGLEBOT_DESKTOP, null, "20"},
        {"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "157.55.39.", "12"},
        {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", "20.171.207.", "8"},
        {"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15"
                + " (Applebot/0.1; +http://www.apple.com/go/applebot)", "17.241.219.", "5"},
        {"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)", "54.36.148.", "9"},
        {"Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)", "85.208.96.", "5"},
        {GOOGLEBOT_SMARTPHONE, "45.148.10.", "1"},
    };

    private ErrorMonthLog() {
    }

    public static void main(String[] args) throws IOException {
        long lines = Long.parseLong(args[0]);
        Path file = Path.of(args[1]);
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 20250501L;
        long started = System.nanoTime();
        write(file, lines, seed);
        System.err.printf(Locale.ROOT, "ErrorMonthLog: %,d lines (seed %d) in %.2f s%n", lines, seed, (System.nanoTime() - started) / 1e9);
    }

    static void write(Path file, long lines, long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        int[] pick = new int[100];
        int p = 0;
        for (int c = 0; c < CRAWLERS.length; c++) {
            for (int k = 0; k < Integer.parseInt(CRAWLERS[c][2]); k++) {
                pick[p++] = c;
            }
        }
        byte[][] agents = new byte[CRAWLERS.length][];
        for (int c = 0; c < CRAWLERS.length; c++) {
            agents[c] = ("\"-\" \"" + CRAWLERS[c][0] + "\" ").getBytes(StandardCharsets.US_ASCII);
        }
        long lastSecond = -1;
        byte[] time = null;
        StringBuilder line = new StringBuilder(128);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            for (long i = 0; i < lines; i++) {
                long second = START + i * SECONDS / lines;
                if (second != lastSecond) {
                    time = (" - - [" + TIME.format(Instant.ofEpochSecond(second)) + "] \"").getBytes(StandardCharsets.US_ASCII);
                    lastSecond = second;
                }
                int c = pick[random.nextInt(100)];
                line.setLength(0);
                if (CRAWLERS[c][1] == null) {
                    int host = random.nextInt(8192);
                    line.append("66.249.").append(64 + host / 256).append('.').append(host % 256);
                } else {
                    line.append(CRAWLERS[c][1]).append(1 + random.nextInt(254));
                }
                ascii(out, line);
                out.write(time);
                line.setLength(0);
                line.append(random.nextInt(20) == 0 ? "HEAD /" : "GET /").append(CITIES[random.nextInt(CITIES.length)]).append('/')
                        .append(STREETS[random.nextInt(STREETS.length)]).append('/').append(random.nextInt(400));
                if (random.nextInt(4) == 0) {
                    line.append("?page=").append(random.nextInt(30));
                }
                line.append(" HTTP/1.1\" ").append(STATUSES[random.nextInt(STATUSES.length)]).append(' ').append(random.nextInt(60_000))
                        .append(' ');
                ascii(out, line);
                out.write(agents[c]);
                int millis = random.nextInt(2_000);
                line.setLength(0);
                line.append(millis / 1000).append('.').append((char) ('0' + millis / 100 % 10)).append((char) ('0' + millis / 10 % 10))
                        .append((char) ('0' + millis % 10)).append('\n');
                ascii(out, line);
            }
        }
    }

    private static void ascii(OutputStream out, CharSequence text) throws IOException {
        for (int i = 0; i < text.length(); i++) {
            out.write(text.charAt(i));
        }
    }
}
