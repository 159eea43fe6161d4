package dev.crawlerrors.bench;

import static dev.crawlerrors.bench.BenchWords.CITIES;
import static dev.crawlerrors.bench.BenchWords.MONTHS;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Benchmark data: a deterministic nginx {@code combined} access log with a trailing
 * {@code $request_time} (seconds, millisecond resolution), as a busy street-information site would
 * write it. Run:
 *
 * <pre>
 * mvn -q test-compile
 * java -cp target/test-classes:target/crawl-errors.jar dev.crawlerrors.bench.BenchLog 1000000 /tmp/bench.log [SEED]
 * </pre>
 *
 * <p>About nine lines in ten are people: tens of thousands of visitors on many IPv4 and some IPv6
 * addresses, each with its own browser agent out of about two thousand realistic ones (Chrome,
 * Edge, Safari, Firefox, Samsung Internet, in-app browsers, plus the odd curl, uptime monitor,
 * link previewer and empty agent), pages and their assets, searches, redirects, 404s, a few 5xx,
 * referers from the site itself and from search engines, and the junk every server sees (TLS
 * handshakes on port 80, empty connections). About one line in ten is a crawler: Googlebot
 * Smartphone and Desktop, Googlebot-Image, GoogleOther and Google-InspectionTool from
 * 66.249.64.0/19 (a few from Google's IPv6 block), Bingbot from 157.55.39.0/24, GPTBot, Applebot,
 * and crawlers this tool does not know (AhrefsBot, SemrushBot, YandexBot, meta-externalagent).
 * About one line in five hundred is a Googlebot impostor from an address outside Google's blocks.
 * Timestamps never decrease, about a day per million lines.
 *
 * <p>The IP lists that cover the crawler blocks used here are {@code bench/ip-ranges/} (benchmark
 * data, not the operators' lists). Design: every fixed piece of text is encoded once; a line is
 * assembled into a byte buffer with hand-written number formatting, so five million lines take
 * seconds, not minutes. The same seed always gives the same bytes.
 */
public final class BenchLog {

    public static final long SEED = 20250514L;

    /** The site's UTC offset, as the log writes it. */
    private static final int OFFSET_SECONDS = 2 * 3600;
    private static final byte[] OFFSET = bytes(" +0200] \"");
    /** 2025-05-14T00:00:00+02:00. */
    private static final long START_EPOCH_SECOND = LocalDate.of(2025, 5, 14).toEpochDay() * 86_400 - OFFSET_SECONDS;
    /** Mean gap between lines: about a million lines a day. */
    private static final int MEAN_GAP_MILLIS = 86;

    private static final String SITE = "https://www.straatinfo.test";

    // ---- site structure ---------------------------------------------------------------------

    private static final String[] STREET_FIRST = {"kerk", "molen", "stations", "markt", "school", "linden", "beuken",
        "eiken", "hoog", "nieuw", "oud", "zand", "brouwers", "koning", "bos", "dorp", "veld", "water", "sint-jans", "kasteel"};
    private static final String[] STREET_LAST = {"straat", "laan", "plein", "weg", "dreef", "lei", "steenweg", "kaai", "hof", "pad"};
    private static final String[] SECTIONS = {"parkeren", "mobiliteit", "bedrijven", "scholen", "geschiedenis", "foto"};
    private static final String[] SEARCH_WORDS = {"parkeren", "markt", "school", "bakker", "apotheek", "station",
        "zwembad", "bibliotheek", "gemeentehuis", "caf%C3%A9", "stra%C3%9Fe", "kerk", "post", "huisarts"};
    private static final String[] ASSETS = {"/static/app.3f9a1c.js", "/static/vendor.88b2e0.js", "/static/app.c41d7e.css",
        "/static/fonts/inter-var.woff2", "/favicon.ico", "/static/img/logo.svg", "/static/img/sprite.png",
        "/manifest.webmanifest", "/apple-touch-icon.png"};
    private static final String[] PROBES = {"/wp-login.php", "/.env", "/xmlrpc.php", "/wp-admin/setup-config.php",
        "/.git/config", "/phpmyadmin/index.php", "/vendor/phpunit/phpunit/src/Util/PHP/eval-stdin.php", "/admin/.env"};

    // ---- agents -----------------------------------------------------------------------------

    private static final String GOOGLEBOT_SMARTPHONE = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36"
            + " (KHTML, like Gecko) Chrome/%s Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    private static final String GOOGLEBOT_DESKTOP_NEW = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1;"
            + " +http://www.google.com/bot.html) Chrome/%s Safari/537.36";
    private static final String GOOGLEBOT_DESKTOP = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    private static final String GOOGLEBOT_IMAGE = "Googlebot-Image/1.0";
    private static final String GOOGLE_OTHER = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36"
            + " (KHTML, like Gecko) Chrome/%s Mobile Safari/537.36 (compatible; GoogleOther)";
    private static final String INSPECTION_TOOL = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36"
            + " (KHTML, like Gecko) Chrome/%s Mobile Safari/537.36 (compatible; Google-InspectionTool/1.0;)";
    private static final String[] GOOGLE_CHROME = {"136.0.7103.92", "137.0.7151.55", "137.0.7151.68"};
    private static final String[] BINGBOT = {
        "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 7_0 like Mac OS X) AppleWebKit/537.51.1 (KHTML, like Gecko) Version/7.0 Mobile/11A465"
                + " Safari/9537.53 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"};
    private static final String GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
    private static final String APPLEBOT = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko)"
            + " Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)";
    private static final String AHREFSBOT = "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)";
    private static final String SEMRUSHBOT = "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)";
    private static final String YANDEXBOT = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)";
    private static final String META_AGENT = "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)";

    /** First octets of human IPv4 addresses: public space outside every crawler block used here (17, 20, 66, 157). */
    private static final int[] HUMAN_FIRST_OCTETS = {2, 5, 31, 37, 46, 62, 77, 78, 79, 81, 82, 84, 86, 87, 88, 89, 91, 92, 94,
        95, 109, 141, 176, 178, 185, 188, 193, 194, 195, 212, 213, 217, 24, 50, 68, 71, 73, 76, 98, 99, 104, 107, 108, 173, 174};
    private static final String[] HUMAN_V6_PREFIXES = {"2a02:a03f:", "2a02:1810:", "2a01:cb00:", "2a01:e0a:", "2001:1c00:",
        "2a02:1812:", "2600:1700:", "2a0a:a540:"};

    private static final int VISITORS = 40_000;
    private static final int CRAWLER_ADDRESSES = 256;

    private final SplittableRandom random;
    private final OutputStream out;
    private final byte[] buf = new byte[1 << 16];
    private int pos;

    // visitors: an address and the agent of their browser
    private final byte[][] visitorIp = new byte[VISITORS][];
    private final byte[][] visitorAgent = new byte[VISITORS][];
    private final boolean[] visitorHttp2 = new boolean[VISITORS];

    private final byte[][] streets;
    private final byte[][] cities = encode(CITIES);
    private final byte[][] sections = encode(SECTIONS);
    private final byte[][] searchWords = encode(SEARCH_WORDS);
    private final byte[][] assets = encode(ASSETS);
    private final byte[][] probes = encode(PROBES);

    private final byte[][] googleIps = new byte[CRAWLER_ADDRESSES][];
    private final byte[][] googleV6Ips = new byte[16][];
    private final byte[][] bingIps = new byte[64][];
    private final byte[][] gptIps = new byte[32][];
    private final byte[][] appleIps = new byte[32][];
    private final byte[][] ahrefsIps = new byte[32][];
    private final byte[][] semrushIps = new byte[32][];
    private final byte[][] yandexIps = new byte[16][];
    private final byte[][] metaIps = new byte[16][];
    private final byte[][] impostorIps = new byte[24][];

    private final byte[][] googlebotSmartphone = chromeVariants(GOOGLEBOT_SMARTPHONE);
    private final byte[][] googlebotDesktop;
    private final byte[][] googleOther = chromeVariants(GOOGLE_OTHER);
    private final byte[][] inspectionTool = chromeVariants(INSPECTION_TOOL);
    private final byte[][] bingbot = encode(BINGBOT);
    private final byte[] googlebotImage = bytes(GOOGLEBOT_IMAGE);
    private final byte[] gptbot = bytes(GPTBOT);
    private final byte[] applebot = bytes(APPLEBOT);
    private final byte[] ahrefsbot = bytes(AHREFSBOT);
    private final byte[] semrushbot = bytes(SEMRUSHBOT);
    private final byte[] yandexbot = bytes(YANDEXBOT);
    private final byte[] metaAgent = bytes(META_AGENT);
    private final byte[] dash = bytes("-");
    private final byte[] site = bytes(SITE);

    // the clock: epoch millis, and the 20 bytes dd/MMM/yyyy:HH:mm:ss of the current second
    private long millis = START_EPOCH_SECOND * 1000;
    private long second = Long.MIN_VALUE;
    private long day = Long.MIN_VALUE;
    private final byte[] time = new byte[20];

    /** What was written, by kind, for checking an import against. */
    private final long[] counts = new long[Kind.values().length];

    /** Line kinds, for the summary on standard error. */
    enum Kind {
        HUMAN, JUNK, GOOGLEBOT_SMARTPHONE, GOOGLEBOT_DESKTOP, GOOGLEBOT_IMAGE, GOOGLE_OTHER, GOOGLE_INSPECTION_TOOL,
        BINGBOT, GPTBOT, APPLEBOT, AHREFSBOT, SEMRUSHBOT, YANDEXBOT, META_EXTERNALAGENT, GOOGLEBOT_IMPOSTOR
    }

    private BenchLog(long seed, OutputStream out) {
        this.random = new SplittableRandom(seed);
        this.out = out;
        List<byte[]> names = new ArrayList<>();
        for (String first : STREET_FIRST) {
            for (String last : STREET_LAST) {
                names.add(bytes(first + last));
            }
        }
        this.streets = names.toArray(byte[][]::new);
        byte[][] desktop = chromeVariants(GOOGLEBOT_DESKTOP_NEW);
        this.googlebotDesktop = new byte[desktop.length + 1][];
        System.arraycopy(desktop, 0, googlebotDesktop, 0, desktop.length);
        googlebotDesktop[desktop.length] = bytes(GOOGLEBOT_DESKTOP);
        addresses();
        visitors();
    }

    /**
     * {@code BenchLog LINES OUT [SEED]}: writes {@code LINES} lines to {@code OUT} ({@code -} for
     * standard output) and a summary of what it wrote to standard error.
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: BenchLog LINES OUT [SEED]   (OUT '-' is standard output; SEED defaults to " + SEED + ")");
            System.exit(2);
        }
        long lines = Long.parseLong(args[0].replace("_", ""));
        long seed = args.length == 3 ? Long.parseLong(args[2]) : SEED;
        long started = System.nanoTime();
        long[] counts;
        if (args[1].equals("-")) {
            counts = write(lines, seed, System.out);
            System.out.flush();
        } else {
            try (OutputStream file = Files.newOutputStream(Path.of(args[1]))) {
                counts = write(lines, seed, file);
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "BenchLog: %,d lines (seed %d) in %.2f s (%,.0f lines/s):", lines, seed, seconds, lines / seconds));
        for (Kind kind : Kind.values()) {
            sb.append(String.format(Locale.ROOT, " %s %,d", kind.name().toLowerCase(Locale.ROOT), counts[kind.ordinal()]));
        }
        System.err.println(sb);
    }

    /** Writes {@code lines} lines to {@code out} (not closed); returns the count of each {@link Kind}. */
    public static long[] write(long lines, long seed, OutputStream out) throws IOException {
        BenchLog log = new BenchLog(seed, out);
        for (long i = 0; i < lines; i++) {
            log.line();
            if (log.pos > log.buf.length - 4096) {
                log.flush();
            }
        }
        log.flush();
        return log.counts.clone();
    }

    /** {@code lines} lines with the default seed, in memory. */
    public static byte[] generate(int lines) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(lines * 260);
        try {
            write(lines, SEED, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    // ---- one line ---------------------------------------------------------------------------

    private void line() {
        millis += random.nextInt(2 * MEAN_GAP_MILLIS + 1);
        int roll = random.nextInt(10_000);
        if (roll < 20) {
            impostor();
        } else if (roll < 1_020) {
            crawler();
        } else if (roll < 1_025) {
            junk();
        } else {
            human();
        }
    }

    private void human() {
        counts[Kind.HUMAN.ordinal()]++;
        // a few busy visitors (offices, carrier NAT), a long tail of occasional ones
        int v = random.nextInt(random.nextInt(VISITORS) + 1);
        head(visitorIp[v]);
        int kind = random.nextInt(100);
        int status;
        long size;
        int refKind;
        boolean head = false;
        if (kind < 45) {
            // a page
            int s = random.nextInt(1000);
            if (s < 16) {
                method("POST");
                put("/api/feedback");
                status = s < 14 ? 204 : 422;
                size = 0;
            } else {
                head = s < 30;
                method(head ? "HEAD" : "GET");
                page();
                status = s < 800 ? 200 : s < 880 ? 304 : s < 920 ? 301 : s < 940 ? 308 : s < 993 ? 404 : s < 997 ? 500 : 503;
                size = status == 200 ? 8_000 + random.nextInt(60_000) : status == 404 ? 4_217 : status >= 500 ? 497 : status == 304 ? 0 : 162;
            }
            refKind = random.nextInt(100);
        } else if (kind < 90) {
            // an asset of the page just seen
            method("GET");
            if (random.nextInt(4) == 0) {
                put("/static/img/streets/");
                putInt(1 + random.nextInt(40_000));
                put(".webp");
                size = 12_000 + random.nextInt(240_000);
            } else {
                put(assets[random.nextInt(assets.length)]);
                size = 900 + random.nextInt(180_000);
            }
            status = random.nextInt(5) == 0 ? 304 : 200;
            if (status == 304) {
                size = 0;
            }
            refKind = 100; // the page
        } else if (kind < 97) {
            // a search, sometimes paged
            method("GET");
            put("/zoeken?q=");
            put(searchWords[random.nextInt(searchWords.length)]);
            if (random.nextBoolean()) {
                put('+');
                put(cities[random.nextInt(cities.length)]);
            }
            if (random.nextInt(4) == 0) {
                put("&page=");
                putInt(2 + random.nextInt(8));
            }
            status = 200;
            size = 5_000 + random.nextInt(30_000);
            refKind = 100;
        } else {
            // a JSON API call from the page's script
            method("GET");
            put("/api/streets?city=");
            put(cities[random.nextInt(cities.length)]);
            put("&prefix=");
            put((char) ('a' + random.nextInt(26)));
            status = random.nextInt(50) == 0 ? 429 : 200;
            size = status == 200 ? 300 + random.nextInt(9_000) : 52;
            refKind = 100;
        }
        put(visitorHttp2[v] ? " HTTP/2.0\" " : " HTTP/1.1\" ");
        tail(status, head ? 0 : size);
        humanReferer(refKind);
        put(" \"");
        put(visitorAgent[v]);
        put('"');
        requestTime(status, kind < 45 ? 5 : 0);
    }

    private void crawler() {
        int roll = random.nextInt(1000);
        byte[] ip;
        byte[] agent;
        Kind kind;
        if (roll < 400) {
            kind = Kind.GOOGLEBOT_SMARTPHONE;
            ip = googleIp();
            agent = googlebotSmartphone[random.nextInt(googlebotSmartphone.length)];
        } else if (roll < 520) {
            kind = Kind.GOOGLEBOT_DESKTOP;
            ip = googleIp();
            agent = googlebotDesktop[random.nextInt(googlebotDesktop.length)];
        } else if (roll < 560) {
            kind = Kind.GOOGLEBOT_IMAGE;
            ip = googleIp();
            agent = googlebotImage;
        } else if (roll < 590) {
            kind = Kind.GOOGLE_OTHER;
            ip = googleIp();
            agent = googleOther[random.nextInt(googleOther.length)];
        } else if (roll < 600) {
            kind = Kind.GOOGLE_INSPECTION_TOOL;
            ip = googleIp();
            agent = inspectionTool[random.nextInt(inspectionTool.length)];
        } else if (roll < 750) {
            kind = Kind.BINGBOT;
            ip = bingIps[random.nextInt(bingIps.length)];
            agent = bingbot[random.nextInt(bingbot.length)];
        } else if (roll < 800) {
            kind = Kind.GPTBOT;
            ip = gptIps[random.nextInt(gptIps.length)];
            agent = gptbot;
        } else if (roll < 830) {
            kind = Kind.APPLEBOT;
            ip = appleIps[random.nextInt(appleIps.length)];
            agent = applebot;
        } else if (roll < 910) {
            kind = Kind.AHREFSBOT;
            ip = ahrefsIps[random.nextInt(ahrefsIps.length)];
            agent = ahrefsbot;
        } else if (roll < 960) {
            kind = Kind.SEMRUSHBOT;
            ip = semrushIps[random.nextInt(semrushIps.length)];
            agent = semrushbot;
        } else if (roll < 980) {
            kind = Kind.YANDEXBOT;
            ip = yandexIps[random.nextInt(yandexIps.length)];
            agent = yandexbot;
        } else {
            kind = Kind.META_EXTERNALAGENT;
            ip = metaIps[random.nextInt(metaIps.length)];
            agent = metaAgent;
        }
        counts[kind.ordinal()]++;
        head(ip);
        method(random.nextInt(100) == 0 ? "HEAD" : "GET");
        int status;
        long size;
        int what = random.nextInt(1000);
        if (kind == Kind.GOOGLEBOT_IMAGE) {
            put("/static/img/streets/");
            putInt(1 + random.nextInt(40_000));
            put(".webp");
            status = what < 900 ? 200 : what < 960 ? 304 : 404;
            size = status == 200 ? 12_000 + random.nextInt(240_000) : status == 404 ? 4_217 : 0;
        } else if (what < 15) {
            put("/robots.txt");
            status = 200;
            size = 312;
        } else if (what < 30) {
            put("/sitemap-");
            put(cities[random.nextInt(cities.length)]);
            put(".xml");
            status = 200;
            size = 40_000 + random.nextInt(200_000);
        } else {
            page();
            status = what < 760 ? 200 : what < 830 ? 304 : what < 870 ? 301 : what < 900 ? 308 : what < 980 ? 404
                    : what < 985 ? 410 : what < 995 ? 503 : 500;
            size = status == 200 ? 8_000 + random.nextInt(60_000) : status == 404 || status == 410 ? 4_217
                    : status >= 500 ? 497 : status == 304 ? 0 : 162;
        }
        put(" HTTP/1.1\" ");
        tail(status, size);
        put("\"-\" \"");
        put(agent);
        put('"');
        requestTime(status, 3);
    }

    private void impostor() {
        counts[Kind.GOOGLEBOT_IMPOSTOR.ordinal()]++;
        head(impostorIps[random.nextInt(impostorIps.length)]);
        method("GET");
        int status;
        long size;
        if (random.nextInt(3) == 0) {
            put(probes[random.nextInt(probes.length)]);
            status = 404;
            size = 4_217;
        } else {
            page();
            status = random.nextInt(10) == 0 ? 404 : 200;
            size = status == 200 ? 8_000 + random.nextInt(60_000) : 4_217;
        }
        put(" HTTP/1.1\" ");
        tail(status, size);
        put("\"-\" \"");
        put(random.nextInt(3) == 0 ? googlebotDesktop[googlebotDesktop.length - 1] : googlebotSmartphone[0]);
        put('"');
        requestTime(status, 0);
    }

    /** What every public server sees: TLS on port 80 and connections that never sent a request. */
    private void junk() {
        counts[Kind.JUNK.ordinal()]++;
        head(visitorIp[random.nextInt(VISITORS)]);
        if (random.nextBoolean()) {
            put("\\x16\\x03\\x01\\x02\\x00\\x01\\x00\\x01\\xFC\\x03\\x03\" 400 157 \"-\" \"-\" 0.");
            put3(random.nextInt(40));
        } else {
            put("-\" 400 0 \"-\" \"-\" 0.000");
        }
        put('\n');
    }

    /** {@code IP - - [time +0200] "}. */
    private void head(byte[] ip) {
        put(ip);
        put(" - - [");
        clock();
        put(time);
        put(OFFSET);
    }

    private void method(String method) {
        put(method);
        put(' ');
    }

    /** A content page path. */
    private void page() {
        int city = random.nextInt(random.nextInt(cities.length) + 1);
        int shape = random.nextInt(100);
        put('/');
        put(cities[city]);
        if (shape < 8) {
            put("/straten/");
            put((char) ('a' + random.nextInt(26)));
            return;
        }
        put('/');
        put(streets[random.nextInt(streets.length)]);
        if (shape < 40) {
            put('/');
        } else if (shape < 70) {
            put('/');
            put(sections[random.nextInt(sections.length)]);
            put('/');
        } else if (shape < 80) {
            put('/');
            put(sections[random.nextInt(sections.length)]);
        } else if (shape < 95) {
            // no trailing slash: the site redirects, whatever status the caller logs
        } else {
            put("/?utm_source=newsletter&utm_medium=email&utm_campaign=week");
            putInt(1 + random.nextInt(52));
        }
    }

    /** {@code status size }. */
    private void tail(int status, long size) {
        putInt(status);
        put(' ');
        putLong(size);
        put(' ');
    }

    private void humanReferer(int kind) {
        put('"');
        if (kind == 100) {
            // an asset or a call made by a page of the site
            put(site);
            put('/');
            put(cities[random.nextInt(cities.length)]);
            put('/');
            put(streets[random.nextInt(streets.length)]);
            put('/');
        } else if (kind < 35) {
            put(dash);
        } else if (kind < 70) {
            put(site);
            put('/');
            put(cities[random.nextInt(cities.length)]);
            put('/');
        } else if (kind < 88) {
            put("https://www.google.com/");
        } else if (kind < 91) {
            put("https://www.bing.com/");
        } else if (kind < 93) {
            put("https://duckduckgo.com/");
        } else if (kind < 96) {
            put("https://www.facebook.com/");
        } else {
            put("android-app://com.google.android.googlequicksearchbox/");
        }
        put('"');
    }

    /** {@code " s.mmm\n"}: nginx {@code $request_time}; {@code slowPerMille} of requests take 0.5-4 s. */
    private void requestTime(int status, int slowPerMille) {
        int ms;
        if (random.nextInt(1000) < slowPerMille) {
            ms = 500 + random.nextInt(3_500);
        } else if (status == 304 || status == 301 || status == 308 || status == 204) {
            ms = random.nextInt(3);
        } else {
            ms = random.nextInt(4) == 0 ? random.nextInt(4) : 5 + random.nextInt(random.nextInt(300) + 1);
        }
        put(' ');
        putInt(ms / 1000);
        put('.');
        put3(ms % 1000);
        put('\n');
    }

    // ---- the clock --------------------------------------------------------------------------

    /** Brings {@link #time} up to {@link #millis}, rewriting only what changed. */
    private void clock() {
        long localSecond = Math.floorDiv(millis, 1000) + OFFSET_SECONDS;
        if (localSecond == second) {
            return;
        }
        second = localSecond;
        long d = Math.floorDiv(localSecond, 86_400);
        if (d != day) {
            day = d;
            LocalDate date = LocalDate.ofEpochDay(d);
            two(time, 0, date.getDayOfMonth());
            time[2] = '/';
            byte[] month = MONTHS[date.getMonthValue() - 1].getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(month, 0, time, 3, 3);
            time[6] = '/';
            int year = date.getYear();
            two(time, 7, year / 100);
            two(time, 9, year % 100);
            time[11] = ':';
            time[14] = ':';
            time[17] = ':';
        }
        int s = (int) Math.floorMod(localSecond, 86_400);
        two(time, 12, s / 3600);
        two(time, 15, s / 60 % 60);
        two(time, 18, s % 60);
    }

    private static void two(byte[] b, int at, int value) {
        b[at] = (byte) ('0' + value / 10);
        b[at + 1] = (byte) ('0' + value % 10);
    }

    // ---- the population ---------------------------------------------------------------------

    private void addresses() {
        for (int i = 0; i < googleIps.length; i++) {
            // Googlebot's 66.249.64.0/19, clustered the way it is in practice
            int third = 64 + (i < 160 ? random.nextInt(4) + 2 : random.nextInt(32));
            googleIps[i] = bytes("66.249." + third + "." + (1 + random.nextInt(254)));
        }
        for (int i = 0; i < googleV6Ips.length; i++) {
            googleV6Ips[i] = bytes("2001:4860:4801:10::" + Integer.toHexString(1 + random.nextInt(0xfff)));
        }
        fill(bingIps, "157.55.39.", 1, 254);
        fill(gptIps, "20.171.207.", 1, 254);
        fill(appleIps, "17.241.219.", 1, 254);
        fill(ahrefsIps, "54.36.148.", 1, 254);
        fill(semrushIps, "185.191.171.", 1, 254);
        fill(yandexIps, "5.255.231.", 1, 254);
        fill(metaIps, "57.141.0.", 1, 254);
        for (int i = 0; i < impostorIps.length; i++) {
            // hosting ranges, never a crawler block
            String[] blocks = {"45.148.10.", "193.32.162.", "103.152.220.", "91.92.246.", "2a0b:4140:"};
            String block = blocks[i % blocks.length];
            impostorIps[i] = bytes(block.indexOf(':') >= 0
                    ? block + Integer.toHexString(1 + random.nextInt(0xffff)) + "::" + Integer.toHexString(1 + random.nextInt(0xff))
                    : block + (1 + random.nextInt(254)));
        }
    }

    private void fill(byte[][] ips, String prefix, int low, int high) {
        for (int i = 0; i < ips.length; i++) {
            ips[i] = bytes(prefix + (low + random.nextInt(high - low + 1)));
        }
    }

    private byte[] googleIp() {
        return random.nextInt(50) == 0 ? googleV6Ips[random.nextInt(googleV6Ips.length)] : googleIps[random.nextInt(googleIps.length)];
    }

    private void visitors() {
        byte[][] agents = humanAgents();
        for (int i = 0; i < VISITORS; i++) {
            String ip;
            if (random.nextInt(100) < 12) {
                ip = HUMAN_V6_PREFIXES[random.nextInt(HUMAN_V6_PREFIXES.length)] + hex16() + ":" + hex16() + ":" + hex16()
                        + ":" + hex16() + ":" + hex16() + ":" + hex16();
            } else {
                ip = HUMAN_FIRST_OCTETS[random.nextInt(HUMAN_FIRST_OCTETS.length)] + "." + random.nextInt(256) + "."
                        + random.nextInt(256) + "." + (1 + random.nextInt(254));
            }
            visitorIp[i] = bytes(ip);
            // popular agents (the current Chrome on Windows and Android, Safari on iPhone) come first
            visitorAgent[i] = agents[random.nextInt(random.nextInt(agents.length) + 1)];
            visitorHttp2[i] = random.nextInt(10) < 7;
        }
    }

    private String hex16() {
        return Integer.toHexString(random.nextInt(0x10000));
    }

    /** About two thousand distinct browser and tool agents, the most common first. */
    private byte[][] humanAgents() {
        List<String> list = new ArrayList<>();
        String[] androids = {"K", "SM-S918B", "SM-A546B", "Pixel 8", "Pixel 7a", "SM-G991B", "2201117TG", "CPH2581", "SM-A156B"};
        String[] windows = {"Windows NT 10.0; Win64; x64", "Windows NT 10.0; WOW64", "Windows NT 6.1; Win64; x64"};
        String[] macs = {"Macintosh; Intel Mac OS X 10_15_7", "Macintosh; Intel Mac OS X 10_15_6", "Macintosh; Intel Mac OS X 14_5"};
        for (int chrome = 137; chrome >= 109; chrome--) {
            for (String os : windows) {
                list.add("Mozilla/5.0 (" + os + ") AppleWebKit/537.36 (KHTML, like Gecko) Chrome/" + chrome + ".0.0.0 Safari/537.36");
            }
            for (String device : androids) {
                for (int android = 15; android >= 10; android--) {
                    list.add("Mozilla/5.0 (Linux; Android " + android + "; " + device + ") AppleWebKit/537.36 (KHTML, like Gecko) Chrome/"
                            + chrome + ".0.0.0 Mobile Safari/537.36");
                }
            }
            for (String os : macs) {
                list.add("Mozilla/5.0 (" + os + ") AppleWebKit/537.36 (KHTML, like Gecko) Chrome/" + chrome + ".0.0.0 Safari/537.36");
            }
            list.add("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/" + chrome + ".0.0.0 Safari/537.36");
            for (int build = 0; build < 3; build++) {
                list.add("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/" + chrome
                        + ".0.0.0 Safari/537.36 Edg/" + chrome + ".0." + (3000 + chrome * 7 + build * 13) + "." + (40 + build * 11));
            }
        }
        for (int major = 18; major >= 15; major--) {
            for (int minor = 6; minor >= 0; minor--) {
                String ios = major + "_" + minor;
                String version = major + "." + minor;
                list.add("Mozilla/5.0 (iPhone; CPU iPhone OS " + ios + " like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/"
                        + version + " Mobile/15E148 Safari/604.1");
                list.add("Mozilla/5.0 (iPad; CPU OS " + ios + " like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/"
                        + version + " Mobile/15E148 Safari/604.1");
                list.add("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/"
                        + version + " Safari/605.1.15");
                list.add("Mozilla/5.0 (iPhone; CPU iPhone OS " + ios + " like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148"
                        + " [FBAN/FBIOS;FBAV/" + (480 + minor) + ".0.0.40.108;FBBV/6" + major + "00" + minor + ";FBDV/iPhone15,3;FBMD/iPhone;"
                        + "FBSN/iOS;FBSV/" + major + "." + minor + ";FBSS/3;FBCR/;FBID/phone;FBLC/nl_BE;FBOP/80]");
                list.add("Mozilla/5.0 (iPhone; CPU iPhone OS " + ios + " like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/"
                        + (130 + minor) + ".0.6723.90 Mobile/15E148 Safari/604.1");
            }
        }
        for (int firefox = 139; firefox >= 115; firefox--) {
            list.add("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:" + firefox + ".0) Gecko/20100101 Firefox/" + firefox + ".0");
            list.add("Mozilla/5.0 (X11; Linux x86_64; rv:" + firefox + ".0) Gecko/20100101 Firefox/" + firefox + ".0");
            list.add("Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:" + firefox + ".0) Gecko/20100101 Firefox/" + firefox + ".0");
            list.add("Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:" + firefox + ".0) Gecko/20100101 Firefox/" + firefox + ".0");
            list.add("Mozilla/5.0 (Android 14; Mobile; rv:" + firefox + ".0) Gecko/" + firefox + ".0 Firefox/" + firefox + ".0");
        }
        for (int samsung = 28; samsung >= 20; samsung--) {
            for (String device : new String[] {"SM-S918B", "SM-A546B", "SM-G991B", "SM-A256B"}) {
                list.add("Mozilla/5.0 (Linux; Android 14; SAMSUNG " + device + ") AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/"
                        + samsung + ".0 Chrome/" + (100 + samsung) + ".0.0.0 Mobile Safari/537.36");
            }
        }
        // tools and previewers no crawler catalog names; rare, so at the end
        for (String tool : new String[] {"curl/8.5.0", "curl/7.88.1", "python-requests/2.32.3", "Go-http-client/1.1",
            "Wget/1.21.4", "okhttp/4.12.0", "Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)",
            "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "WhatsApp/2.24.12.78 A",
            "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
            "Apache-HttpClient/4.5.14 (Java/17.0.11)", "-"}) {
            list.add(tool);
        }
        return encode(list.toArray(String[]::new));
    }

    private byte[][] chromeVariants(String template) {
        byte[][] variants = new byte[GOOGLE_CHROME.length][];
        for (int i = 0; i < variants.length; i++) {
            variants[i] = bytes(template.replace("%s", GOOGLE_CHROME[i]));
        }
        return variants;
    }

    // ---- output -----------------------------------------------------------------------------

    private void put(byte[] b) {
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
    }

    private void put(String ascii) {
        for (int i = 0, n = ascii.length(); i < n; i++) {
            buf[pos++] = (byte) ascii.charAt(i);
        }
    }

    private void put(char c) {
        buf[pos++] = (byte) c;
    }

    private void putInt(int value) {
        putLong(value);
    }

    private void putLong(long value) {
        if (value < 0) {
            buf[pos++] = '-';
            value = -value;
        }
        int start = pos;
        do {
            buf[pos++] = (byte) ('0' + value % 10);
            value /= 10;
        } while (value > 0);
        for (int i = start, j = pos - 1; i < j; i++, j--) {
            byte t = buf[i];
            buf[i] = buf[j];
            buf[j] = t;
        }
    }

    /** Three digits, zero-padded. */
    private void put3(int value) {
        buf[pos++] = (byte) ('0' + value / 100);
        buf[pos++] = (byte) ('0' + value / 10 % 10);
        buf[pos++] = (byte) ('0' + value % 10);
    }

    private void flush() throws IOException {
        out.write(buf, 0, pos);
        pos = 0;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[][] encode(String[] values) {
        byte[][] out = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            out[i] = bytes(values[i]);
        }
        return out;
    }
}
