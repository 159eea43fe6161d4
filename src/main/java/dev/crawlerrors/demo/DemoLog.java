package dev.crawlerrors.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The bundled demo: one day of a multi-city street-information site's access log (Apache
 * {@code combined} with {@code %D}), generated deterministically so that the report reproduces the
 * page the specification observed:
 *
 * <ul>
 *   <li>{@value #ERROR_HITS} verified crawler error hits, so page 3 holds the last 26 rows;
 *   <li>street pages answer 308 without a trailing slash and 304 with one, with and without a
 *       section (parkeren, mobiliteit, bedrijven, scholen); letter indexes {@code /{city}/straten/{letter}} 404;
 *   <li>every crawler address in one block (66.249.66.0/24); most durations 0.1-0.3 ms with one
 *       burst of 3-17 ms;
 *   <li>two Google-InspectionTool requests for {@code /{city}/parkeren} in the same minute from two addresses;
 * </ul>
 *
 * mixed with what the report must leave out: people (including their own 404s and redirects),
 * crawler requests that succeeded, Bingbot's successful requests, and a Googlebot impostor from
 * outside Google's block. The demo's IP lists ({@link #IP_LISTS}) are marked as demo data.
 */
public final class DemoLog {

    public static final int ERROR_HITS = 226;
    /** The demo's IP lists (Google's, Bing's), each a resource under {@code /demo/}. */
    static final List<String> IP_LISTS = List.of("common-crawlers.json", "bingbot.json");

    public static final List<String> CITIES = List.of("antwerp", "ghent", "bruges", "leuven", "vilvoorde");
    public static final List<String> SECTIONS = List.of("parkeren", "mobiliteit", "bedrijven", "scholen");
    /** The demo site's URL template, which names the placeholders of its URL patterns as the specification does. */
    public static final String URL_NAMES = "/{city}/{street}/{section}";

    private static final long SEED = 20250514L;
    private static final ZoneOffset SITE_OFFSET = ZoneOffset.ofHours(2);
    private static final Instant DAY_START = ZonedDateTime.of(2025, 5, 14, 0, 0, 0, 0, SITE_OFFSET).toInstant();
    private static final DateTimeFormatter LOG_TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT).withZone(SITE_OFFSET);

    /** How the error hits divide over the URL shapes; the sum is {@link #ERROR_HITS}. */
    private static final int STREET_308 = 110;
    private static final int STREET_SLASH_304 = 40;
    private static final int SECTION_308 = 30;
    private static final int SECTION_SLASH_304 = 20;
    private static final int LETTER_404 = 24;
    private static final int INSPECTION_308 = 2;
    private static final int BURST_LENGTH = 18;

    private static final int CRAWLER_200 = 420;
    private static final int BINGBOT_200 = 60;
    private static final int HUMAN = 3_000;
    private static final int IMPOSTOR = 14;

    static final String GOOGLEBOT_SMARTPHONE = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 "
            + "(KHTML, like Gecko) Chrome/136.0.7103.92 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    static final String GOOGLEBOT_DESKTOP = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    static final String INSPECTION_TOOL = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 "
            + "(KHTML, like Gecko) Chrome/136.0.7103.92 Mobile Safari/537.36 (compatible; Google-InspectionTool/1.0;)";
    static final String BINGBOT = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
    private static final List<String> BROWSERS = List.of(
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Safari/605.1.15",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Mobile/15E148 Safari/604.1",
            "Mozilla/5.0 (X11; Linux x86_64; rv:138.0) Gecko/20100101 Firefox/138.0",
            "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Mobile Safari/537.36");

    private static final List<List<String>> STREETS = List.of(
            List.of("meir", "groenplaats", "de-keyserlei", "nationalestraat", "kammenstraat", "frankrijklei", "italielei"),
            List.of("veldstraat", "korenmarkt", "graslei", "sint-pietersnieuwstraat", "kouter", "overpoortstraat"),
            List.of("steenstraat", "markt", "zuidzandstraat", "langestraat", "ezelstraat", "noordzandstraat"),
            List.of("bondgenotenlaan", "naamsestraat", "tiensestraat", "diestsestraat", "brusselsestraat", "parijsstraat"),
            List.of("leuvensestraat", "grote-markt", "mechelsestraat", "schaarbeeklei", "nowelei"));

    private final Random random = new Random(SEED);
    private final List<Line> lines = new ArrayList<>();

    private DemoLog() {
    }

    /** The demo log's lines, in time order. */
    public static List<String> lines() {
        DemoLog demo = new DemoLog();
        demo.generate();
        return demo.lines.stream().sorted(Comparator.comparingLong(Line::second)).map(Line::text).toList();
    }

    /** Writes the demo log. */
    public static void write(Writer out) throws IOException {
        for (String line : lines()) {
            out.write(line);
            out.write('\n');
        }
    }

    /**
     * Writes the demo's own IP lists (demo data) into {@code dir} under their published names:
     * Google's, which the report's rows are verified by, and Bing's, so that the demo's Bingbot is
     * verified too rather than reported as a list that could not be read.
     */
    public static void writeIpLists(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (String name : IP_LISTS) {
            try (InputStream in = DemoLog.class.getResourceAsStream("/demo/" + name)) {
                if (in == null) {
                    throw new IOException("/demo/" + name + " is missing from the jar");
                }
                Files.write(dir.resolve(name), in.readAllBytes());
            }
        }
    }

    /** The host the demo's sitemap names (the demo's log records none). */
    public static final String SITE = "https://www.example.be";

    /**
     * Writes the demo site's sitemap (sitemaps.org XML): each city's page, and each street and its
     * sections in the form without the final slash, which the site redirects (308) to the form with
     * it: the mistake the sitemaps page and the patterns' diagnosis point out.
     */
    public static void writeSitemap(Writer out) throws IOException {
        out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for (int city = 0; city < CITIES.size(); city++) {
            out.write("  <url><loc>" + SITE + "/" + CITIES.get(city) + "/</loc></url>\n");
            for (String street : STREETS.get(city)) {
                String path = "/" + CITIES.get(city) + "/" + street;
                out.write("  <url><loc>" + SITE + path + "</loc></url>\n");
                for (String section : SECTIONS) {
                    out.write("  <url><loc>" + SITE + path + "/" + section + "</loc></url>\n");
                }
            }
        }
        out.write("</urlset>\n");
    }

    private void generate() {
        List<Line> errors = new ArrayList<>();
        for (int i = 0; i < STREET_308; i++) {
            errors.add(crawlerError("/" + cityStreet(), 308));
        }
        for (int i = 0; i < STREET_SLASH_304; i++) {
            errors.add(crawlerError("/" + cityStreet() + "/", 304));
        }
        for (int i = 0; i < SECTION_308; i++) {
            errors.add(crawlerError("/" + cityStreet() + "/" + pick(SECTIONS), 308));
        }
        for (int i = 0; i < SECTION_SLASH_304; i++) {
            errors.add(crawlerError("/" + cityStreet() + "/" + pick(SECTIONS) + "/", 304));
        }
        for (int i = 0; i < LETTER_404; i++) {
            errors.add(crawlerError("/" + pick(CITIES) + "/straten/" + (char) ('a' + random.nextInt(26)), 404));
        }
        errors.sort(Comparator.comparingLong(Line::second));
        // one burst of slow responses among consecutive error hits, the rest 0.1-0.3 ms
        int burstStart = errors.size() / 3;
        for (int i = 0; i < errors.size(); i++) {
            Line line = errors.get(i);
            boolean burst = i >= burstStart && i < burstStart + BURST_LENGTH;
            long micros = burst ? 3_000 + random.nextInt(14_001) : 100 + random.nextInt(201);
            lines.add(line.withMicros(micros));
        }
        // the inspection tool checks a city's parking page from two addresses in the same minute
        String city = CITIES.get(random.nextInt(CITIES.size()));
        long minute = 14 * 3600 + 7 * 60;
        lines.add(line(minute + 12, "66.249.66.201", "GET", "/" + city + "/parkeren", 308, 0, INSPECTION_TOOL, 100 + random.nextInt(201)));
        lines.add(line(minute + 41, "66.249.66.202", "GET", "/" + city + "/parkeren", 308, 0, INSPECTION_TOOL, 100 + random.nextInt(201)));

        for (int i = 0; i < CRAWLER_200; i++) {
            String url = random.nextBoolean() ? "/" + cityStreet() + "/" : "/" + cityStreet() + "/" + pick(SECTIONS) + "/";
            lines.add(line(second(), googleAddress(), "GET", url, 200, 4_000 + random.nextInt(20_000), googleAgent(), 2_000 + random.nextInt(30_000)));
        }
        for (int i = 0; i < BINGBOT_200; i++) {
            lines.add(line(second(), "157.55.39." + (10 + random.nextInt(40)), "GET", "/" + cityStreet() + "/", 200,
                    4_000 + random.nextInt(20_000), BINGBOT, 2_000 + random.nextInt(30_000)));
        }
        for (int i = 0; i < IMPOSTOR; i++) {
            lines.add(line(second(), "203.0.113.7", "GET", "/" + pick(CITIES) + "/straten/" + (char) ('a' + random.nextInt(26)),
                    404, 153, GOOGLEBOT_DESKTOP, 200 + random.nextInt(300)));
        }
        for (int i = 0; i < HUMAN; i++) {
            lines.add(human());
        }
    }

    private Line crawlerError(String url, int status) {
        return line(second(), googleAddress(), "GET", url, status, 0, googleAgent(), 0);
    }

    private Line human() {
        int kind = random.nextInt(100);
        String url;
        int status;
        if (kind < 70) {
            url = "/" + cityStreet() + "/";
            status = 200;
        } else if (kind < 80) {
            url = "/" + cityStreet();
            status = 308;
        } else if (kind < 88) {
            url = "/" + cityStreet() + "/";
            status = 304;
        } else if (kind < 95) {
            url = "/" + pick(CITIES) + "/straten/" + (char) ('a' + random.nextInt(26));
            status = 404;
        } else {
            url = "/static/app.css?v=" + (1 + random.nextInt(9));
            status = 200;
        }
        String address = random.nextInt(4) == 0
                ? "2001:db8:" + Integer.toHexString(1 + random.nextInt(200)) + "::" + Integer.toHexString(1 + random.nextInt(4000))
                : "198.51.100." + (1 + random.nextInt(250));
        return line(second(), address, "GET", url, status, status == 200 ? 3_000 + random.nextInt(40_000) : 0,
                pick(BROWSERS), 1_000 + random.nextInt(80_000));
    }

    private Line line(long second, String ip, String method, String url, int status, int bytes, String agent, long micros) {
        return new Line(second, ip, method, url, status, bytes, agent, micros);
    }

    private String cityStreet() {
        int city = random.nextInt(CITIES.size());
        return CITIES.get(city) + "/" + pick(STREETS.get(city));
    }

    private String googleAddress() {
        // a handful of addresses in one block, so the same address recurs
        return "66.249.66." + (1 + random.nextInt(12) * 7);
    }

    private String googleAgent() {
        return random.nextInt(5) == 0 ? GOOGLEBOT_DESKTOP : GOOGLEBOT_SMARTPHONE;
    }

    private long second() {
        return random.nextInt(24 * 3600);
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    private record Line(long second, String ip, String method, String url, int status, int bytes, String agent, long micros) {

        Line withMicros(long value) {
            return new Line(second, ip, method, url, status, bytes, agent, value);
        }

        String text() {
            String time = LOG_TIME.format(DAY_START.plusSeconds(second));
            String size = status == 304 ? "-" : Integer.toString(bytes);
            return ip + " - - [" + time + "] \"" + method + " " + url + " HTTP/1.1\" " + status + " " + size
                    + " \"-\" \"" + agent + "\" " + micros;
        }
    }
}
