package dev.crawlerrors.report;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.report.pattern.PatternText;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StatusRange;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads a report request's query parameters, the same for HTML, JSON and CSV. Every bad value is
 * a {@link BadParameterException} that names the parameter, the value and what it accepts.
 *
 * <ul>
 *   <li>{@code page}: a whole number from 1; absent means 1
 *   <li>{@code status}: a code ({@code 404}) or a class ({@code 4xx}); repeatable or comma-separated
 *   <li>{@code bot}: a bot type, or {@code all} for every type (without it the report leaves out the
 *       types {@link BotType#shownByDefault} says); {@code verification}: a verdict; both repeatable
 *   <li>{@code crawler}: a crawler's name, in any case; repeatable
 *   <li>{@code from}, {@code to}: {@code YYYY-MM-DD} or {@code YYYY-MM-DDTHH:MM} in the display zone,
 *       both inclusive at the precision given
 *   <li>{@code url}: a path prefix; {@code host}: a virtual host; {@code crawler}: a crawler's name, repeatable
 *   <li>{@code pattern}: a URL pattern from the patterns page, such as {@code /{city}/{street}}
 *   <li>{@code in_sitemap}: {@code yes} for the hits of URLs a sitemap lists, {@code no} for the others
 *   <li>{@code at}: the snapshot a page belongs to, as page links carry it (every page and format)
 * </ul>
 *
 * A filter given empty (as a form sends a field left blank) is not given. A parameter the page does
 * not take is refused, so that a misspelt filter ({@code stauts=404}) is not silently ignored, and so
 * is a status below the report's error threshold: {@code status=200} would be labelled error hits.
 */
public final class ReportParameters {

    private static final int MAX_PAGE = Integer.MAX_VALUE;
    /** {@code bot=all}: every bot type, also those the report leaves out by default. */
    public static final String ALL = "all";
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm");

    /** The filters every page of the report takes, in the order the filter bar shows them. */
    public static final List<String> FILTERS = List.of("status", "bot", "crawler", "verification", "from", "to", "url", "host", "pattern",
            "in_sitemap");
    /** What the report (HTML, JSON, CSV) takes: its filters, the page and the snapshot. */
    public static final Set<String> REPORT = names(List.of("page"), FILTERS, List.of("at"));
    /** What the patterns page takes: the filters and the snapshot. */
    public static final Set<String> PATTERNS = names(List.of(), FILTERS, List.of("at"));
    /** What the overview takes: the filters, the length of its time buckets and the snapshot. */
    public static final Set<String> OVERVIEW = names(List.of(), FILTERS, List.of("interval", "at"));
    /** Statuses below this are not errors: the report lists none of them. */
    private static final int ERROR_THRESHOLD = StatusRange.ERRORS.low();

    private ReportParameters() {
    }

    /** What {@code crawler=} values are checked against when no catalog is given: the built-in one, read once. */
    private static final class BuiltInNames {
        static final CrawlerCatalog CATALOG = CrawlerCatalog.builtIn();
    }

    /** Parses the parameters of one report request (HTML, JSON or CSV), {@code crawler} names against the built-in catalog. */
    public static ReportRequest parse(Map<String, List<String>> query, ZoneId zone) {
        return parse(query, zone, REPORT);
    }

    /** Parses the parameters of one request to a page that takes {@code accepted}, {@code crawler} names against the built-in catalog. */
    public static ReportRequest parse(Map<String, List<String>> query, ZoneId zone, Set<String> accepted) {
        return parse(query, zone, accepted, BuiltInNames.CATALOG);
    }

    /**
     * Parses the parameters of one request to a page that takes {@code accepted}.
     *
     * @param catalog what {@code crawler} names are checked against: a crawler's name, or a family's ({@link CrawlerCatalog#namesFor})
     * @throws BadParameterException naming the first parameter that is not accepted or has a bad value
     */
    public static ReportRequest parse(Map<String, List<String>> query, ZoneId zone, Set<String> accepted, CrawlerCatalog catalog) {
        for (Map.Entry<String, List<String>> parameter : query.entrySet()) {
            String name = parameter.getKey();
            // "?page=2&", "?&page=2": an empty piece between the '&'s names no parameter
            boolean nothing = name.isEmpty() && parameter.getValue().stream().allMatch(String::isEmpty);
            if (!accepted.contains(name) && !nothing) {
                throw unknown(name, accepted);
            }
        }
        int page = page(single(query, "page"));
        List<StatusRange> statuses = new ArrayList<>();
        for (String value : values(query, "status")) {
            statuses.add(status(value));
        }
        Set<BotType> bots = EnumSet.noneOf(BotType.class);
        for (String value : values(query, "bot")) {
            if (value.trim().equals(ALL)) {
                bots.addAll(HitFilter.ALL_BOT_TYPES);
            } else {
                bots.add(enumValue(BotType.class, "bot", value, ALL));
            }
        }
        Set<String> crawlers = new LinkedHashSet<>();
        // a crawler's name may hold a comma ("Slurp, Inc."): a value is split only when it is no name whole
        for (String value : query.getOrDefault("crawler", List.of())) {
            if (!value.isBlank()) {
                crawlers.addAll(crawlers(value, catalog));
            }
        }
        Set<Verification> verifications = EnumSet.noneOf(Verification.class);
        for (String value : values(query, "verification")) {
            verifications.add(enumValue(Verification.class, "verification", value));
        }
        Instant from = time("from", single(query, "from"), zone, false);
        Instant to = time("to", single(query, "to"), zone, true);
        if (from != null && to != null && !from.isBefore(to)) {
            throw new BadParameterException("to", "to must not be before from; got from=" + single(query, "from")
                    + " and to=" + single(query, "to"));
        }
        String url = single(query, "url");
        if (url != null && !url.startsWith("/")) {
            throw new BadParameterException("url", "url must be a path prefix starting with '/'; got '" + url + "'");
        }
        String host = single(query, "host");
        String pattern = single(query, "pattern");
        if (pattern != null) {
            checkPattern(pattern);
        }
        String interval = single(query, "interval");
        if (interval != null && !INTERVALS.contains(interval)) {
            throw new BadParameterException("interval", "interval must be one of " + String.join(", ", INTERVALS) + "; got '" + interval + "'");
        }
        HitFilter filter = new HitFilter(statuses, bots, verifications, from, to, url, host, crawlers, null,
                inSitemap(single(query, "in_sitemap")));
        return new ReportRequest(filter, page, pattern, interval, snapshot(single(query, "at")));
    }

    /** {@code in_sitemap=yes|no}: whether the hits shown are of URLs a sitemap lists; null when not asked. */
    private static Boolean inSitemap(String value) {
        if (value == null) {
            return null;
        }
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "yes" -> Boolean.TRUE;
            case "no" -> Boolean.FALSE;
            default -> throw new BadParameterException("in_sitemap", "in_sitemap must be yes (URLs a sitemap lists) or no (URLs none"
                    + " lists); got '" + value + "'");
        };
    }

    /** The lengths of the overview's time buckets. */
    public static final List<String> INTERVALS = List.of("hour", "day", "week");

    private static void checkPattern(String pattern) {
        try {
            PatternText.structural(pattern);
        } catch (IllegalArgumentException e) {
            // a request target that is not a path is a pattern of its own: the patterns page links to it as it is
            if (pattern.isEmpty() || pattern.startsWith("/")) {
                throw new BadParameterException("pattern", "pattern must be a URL pattern from the patterns page; " + e.getMessage());
            }
        }
    }

    private static BadParameterException unknown(String name, Set<String> accepted) {
        String guess = accepted.stream().filter(known -> distance(known, name.toLowerCase()) <= 2)
                .min((a, b) -> Integer.compare(distance(a, name), distance(b, name))).map(known -> " (did you mean " + known + "?)").orElse("");
        return new BadParameterException(name, "unknown parameter '" + name + "'" + guess + "; this page takes "
                + String.join(", ", accepted));
    }

    /** Levenshtein distance, for the guess at a misspelt parameter (short names only). */
    private static int distance(String a, String b) {
        if (Math.abs(a.length() - b.length()) > 2 || b.length() > 40) {
            return Integer.MAX_VALUE;
        }
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    static Set<String> names(List<String> first, List<String> then, List<String> last) {
        Set<String> names = new LinkedHashSet<>(first);
        names.addAll(then);
        names.addAll(last);
        return Collections.unmodifiableSet(names);
    }

    /** The snapshot a page link carried, or null for the newest. */
    private static Snapshot snapshot(String value) {
        if (value == null) {
            return null;
        }
        Snapshot at = Snapshot.parse(value);
        if (at == null) {
            throw new BadParameterException("at", "at must be the snapshot a report link carries, such as 1234567.89; got '"
                    + value + "' (leave it out for the newest report)");
        }
        return at;
    }

    /**
     * The crawlers {@code value} names: one name or family (which may hold a comma), else names
     * separated by commas. A name no crawler has is a bad value, and the message offers the names
     * that hold it.
     */
    private static List<String> crawlers(String value, CrawlerCatalog catalog) {
        List<String> whole = catalog.namesFor(value.trim());
        if (!whole.isEmpty()) {
            return whole;
        }
        List<String> names = new ArrayList<>();
        for (String part : value.split(",", -1)) {
            List<String> named = catalog.namesFor(part.trim());
            if (named.isEmpty()) {
                throw new BadParameterException("crawler", "crawler must be the name of a crawler this tool knows"
                        + choices(catalog.namesLike(part)) + "; got '" + part + "'");
            }
            names.addAll(named);
        }
        return names;
    }

    /** The names a person may have meant, a few of them: or where to find them all. */
    private static String choices(List<String> like) {
        if (like.isEmpty()) {
            return " (crawl-errors crawlers lists them)";
        }
        int shown = Math.min(like.size(), 8);
        return ", such as " + String.join(", ", like.subList(0, shown))
                + (like.size() > shown ? " and " + (like.size() - shown) + " more (crawl-errors crawlers lists them)" : "");
    }

    static int page(String value) {
        if (value == null) {
            return 1;
        }
        boolean digits = !value.isEmpty() && value.length() <= 10 && value.chars().allMatch(c -> c >= '0' && c <= '9');
        long number = digits ? Long.parseLong(value) : -1;
        if (number < 1 || number > MAX_PAGE) {
            throw new BadParameterException("page", "page must be a whole number from 1 to " + MAX_PAGE + "; got '" + value + "'");
        }
        return (int) number;
    }

    private static StatusRange status(String value) {
        StatusRange range = statusRange(value);
        if (range.low() < ERROR_THRESHOLD) {
            throw new BadParameterException("status", "status must be an error status, " + ERROR_THRESHOLD
                    + " or above (such as 404, 3xx or 5xx): the report lists error hits only; got '" + value + "'");
        }
        return range;
    }

    /** A status or a class of them, whatever the report's threshold (the URLs page lists URLs answering 200 too). */
    static StatusRange statusRange(String value) {
        String v = value.trim().toLowerCase();
        if (v.length() == 3 && v.charAt(0) >= '1' && v.charAt(0) <= '5') {
            if (v.endsWith("xx")) {
                int low = (v.charAt(0) - '0') * 100;
                return new StatusRange(low, low + 99);
            }
            if (v.chars().allMatch(Character::isDigit)) {
                int code = Integer.parseInt(v);
                return new StatusRange(code, code);
            }
        }
        throw new BadParameterException("status",
                "status must be an HTTP status such as 404 or a class such as 4xx (300-599); got '" + value + "'");
    }

    private static <E extends Enum<E>> E enumValue(Class<E> type, String parameter, String value, String... alsoAccepted) {
        try {
            return Enum.valueOf(type, value.trim());
        } catch (IllegalArgumentException e) {
            List<String> names = new ArrayList<>(Arrays.stream(type.getEnumConstants()).map(Enum::name).toList());
            names.addAll(List.of(alsoAccepted));
            throw new BadParameterException(parameter, parameter + " must be one of " + String.join(", ", names) + "; got '" + value + "'");
        }
    }

    /**
     * A local date or date-time in {@code zone}. {@code from} is the start of what it names; {@code to}
     * is the end (exclusive), so {@code to=2025-10-26} includes that whole day.
     */
    private static Instant time(String parameter, String value, ZoneId zone, boolean end) {
        if (value == null) {
            return null;
        }
        try {
            if (value.length() == 10) {
                LocalDate day = LocalDate.parse(value);
                return (end ? day.plusDays(1) : day).atStartOfDay(zone).toInstant();
            }
            LocalDateTime minute = LocalDateTime.parse(value, MINUTE);
            return (end ? minute.plusMinutes(1) : minute).atZone(zone).toInstant();
        } catch (DateTimeParseException e) {
            throw new BadParameterException(parameter, parameter
                    + " must be a local date YYYY-MM-DD or date-time YYYY-MM-DDTHH:MM (time zone " + zone + "); got '" + value + "'");
        } catch (DateTimeException e) {
            throw new BadParameterException(parameter, parameter + " is out of range; got '" + value + "'");
        }
    }

    /** The one value of {@code name}, or null; a filter left empty is not given (a page number must be one). */
    private static String single(Map<String, List<String>> query, String name) {
        List<String> values = query.getOrDefault(name, List.of());
        if (!name.equals("page")) {
            values = values.stream().filter(v -> !v.isEmpty()).toList();
        }
        if (values.size() > 1) {
            throw new BadParameterException(name, name + " may be given once; got " + values.size() + " values");
        }
        return values.isEmpty() ? null : values.get(0);
    }

    /** Every value of a repeatable filter, each also read as a comma-separated list; empty ones are not given. */
    private static List<String> values(Map<String, List<String>> query, String name) {
        List<String> out = new ArrayList<>();
        for (String value : query.getOrDefault(name, List.of())) {
            for (String part : value.split(",", -1)) {
                if (!part.isBlank()) {
                    out.add(part);
                }
            }
        }
        return out;
    }
}
