package dev.crawlerrors.report;

import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.UrlSort;
import dev.crawlerrors.store.UrlState;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a request to the URLs page (HTML, JSON, CSV): the report's parameters ({@link ReportParameters}),
 * {@code status} of any class (a URL's last status: {@code status=200} lists the URLs that answer
 * 200 now), and its own:
 * <ul>
 *   <li>{@code state}: {@code broken}, {@code redirected}, {@code ok} or {@code all}; repeatable</li>
 *   <li>{@code fixed=true}: only fixed URLs; {@code inconsistent=true}: only those whose answers flapped</li>
 *   <li>{@code sort}: {@code errors} (the default), {@code last_error}, {@code first_error} or {@code last_crawled}</li>
 * </ul>
 * With none of {@code state}, {@code fixed} and {@code inconsistent}, the page lists the URLs broken now.
 */
public final class UrlParameters {

    /** The URLs page's own parameters, after the report's filters. */
    public static final List<String> OWN = List.of("state", "fixed", "inconsistent", "sort");
    /** What the URLs page takes. */
    public static final Set<String> URLS = ReportParameters.names(List.of("page"), ReportParameters.FILTERS,
            List.of("state", "fixed", "inconsistent", "sort", "at"));
    /** What a URL's own page takes: the URL and its host, the filters of its hits, the page and the snapshot. */
    public static final Set<String> URL = ReportParameters.names(List.of("url", "host"), List.of("crawler", "bot", "verification", "from",
            "to"), List.of("page", "at"));
    private static final String ALL = "all";

    private UrlParameters() {
    }

    /**
     * Parses a request to the URLs page.
     *
     * @throws BadParameterException naming the first parameter that is not accepted or has a bad value
     */
    public static UrlRequest parse(Map<String, List<String>> query, ZoneId zone, dev.crawlerrors.crawler.CrawlerCatalog catalog) {
        Map<String, List<String>> rest = new LinkedHashMap<>(query);
        List<StatusRange> statuses = new ArrayList<>();
        for (String value : values(rest.remove("status"))) {
            statuses.add(ReportParameters.statusRange(value));
        }
        Set<UrlState.State> states = EnumSet.noneOf(UrlState.State.class);
        List<String> stateValues = values(rest.remove("state"));
        for (String value : stateValues) {
            if (value.equals(ALL)) {
                states.addAll(EnumSet.allOf(UrlState.State.class));
            } else {
                states.add(choice(UrlState.State.class, "state", value, ALL));
            }
        }
        Boolean fixed = flag(rest.remove("fixed"), "fixed");
        Boolean inconsistent = flag(rest.remove("inconsistent"), "inconsistent");
        List<String> sortValues = values(rest.remove("sort"));
        if (sortValues.size() > 1) {
            throw new BadParameterException("sort", "sort may be given once; got " + sortValues.size() + " values");
        }
        UrlSort sort = sortValues.isEmpty() ? UrlSort.errors : choice(UrlSort.class, "sort", sortValues.get(0));
        ReportRequest report = ReportParameters.parse(rest, zone, URLS, catalog);
        if (stateValues.isEmpty() && fixed == null && inconsistent == null) {
            states.add(UrlState.State.broken); // the default: what is broken now
        }
        if (states.containsAll(EnumSet.allOf(UrlState.State.class))) {
            states.clear();
        }
        HitFilter filter = report.filter().withStatuses(statuses);
        return new UrlRequest(new ReportRequest(filter, report.page(), report.pattern(), null, report.at()), states,
                Boolean.TRUE.equals(fixed), Boolean.TRUE.equals(inconsistent), sort);
    }

    private static Boolean flag(List<String> given, String name) {
        List<String> values = values(given);
        if (values.isEmpty()) {
            return null;
        }
        if (values.size() > 1 || !(values.get(0).equals("true") || values.get(0).equals("false"))) {
            throw new BadParameterException(name, name + " must be true or false, once; got '" + String.join(",", values) + "'");
        }
        return Boolean.parseBoolean(values.get(0));
    }

    private static <E extends Enum<E>> E choice(Class<E> type, String parameter, String value, String... also) {
        try {
            return Enum.valueOf(type, value);
        } catch (IllegalArgumentException e) {
            List<String> names = new ArrayList<>(Arrays.stream(type.getEnumConstants()).map(Enum::name).toList());
            names.addAll(List.of(also));
            throw new BadParameterException(parameter, parameter + " must be one of " + String.join(", ", names) + "; got '" + value + "'");
        }
    }

    /** A repeatable parameter's values, each also read as a comma-separated list, blanks left out. */
    private static List<String> values(List<String> given) {
        List<String> out = new ArrayList<>();
        if (given != null) {
            for (String value : given) {
                for (String part : value.split(",", -1)) {
                    if (!part.isBlank()) {
                        out.add(part.trim());
                    }
                }
            }
        }
        return out;
    }
}
