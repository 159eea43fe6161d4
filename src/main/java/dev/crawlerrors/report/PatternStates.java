package dev.crawlerrors.report;

import dev.crawlerrors.report.pattern.Diagnosis;
import dev.crawlerrors.report.pattern.ErrorPattern;
import dev.crawlerrors.report.pattern.PatternReport;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.UrlPattern;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.store.UrlSort;
import dev.crawlerrors.store.UrlState;
import dev.crawlerrors.text.Figures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What each pattern of the patterns page is now: how many of its URLs (those of the view with a hit
 * the report lists: a redirect, a 304 or an error, as the pattern's own hits are) are broken, redirected, ok and fixed, from the URLs' kept states at the page's snapshot
 * ("24 URLs, 21 still 404, 3 fixed since 2025-05-14T10:02"), and the diagnosis a pattern whose URLs
 * are all fixed gets instead of its errors' ("fixed: ..."). A URL counts in the first pattern that
 * matches it, in the page's order, as its error hits do.
 */
public final class PatternStates {

    /**
     * What one pattern's URLs are now; {@code fixedSince} the latest of their fixes, null when none
     * is fixed; {@code byClass} their hits by status class ({@link CrawlBudget#CLASSES}): where the
     * crawl budget spent on them went.
     */
    public record Now(long urls, long broken, long redirected, long ok, long fixed, String fixedSince, String text,
            Map<String, Long> byClass) {
    }

    private final UrlReport urls;

    public PatternStates(UrlReport urls) {
        this.urls = urls;
    }

    /** Each pattern's state now, by its text, for the page's view ({@code filter}) at {@code at}. */
    public Map<String, Now> of(PatternReport patterns, HitFilter filter, String at) {
        Map<String, Now> found = new LinkedHashMap<>();
        if (patterns.patterns().isEmpty()) {
            return found;
        }
        List<String> names = new ArrayList<>();
        List<UrlPattern> matchers = new ArrayList<>();
        for (ErrorPattern pattern : patterns.patterns()) {
            patterns.matcher(pattern.pattern()).ifPresent(matcher -> {
                names.add(pattern.pattern());
                matchers.add(matcher);
            });
        }
        Snapshot snapshot = at == null ? null : Snapshot.parse(at);
        Snapshot when = snapshot == null ? urls.newest() : snapshot;
        UrlQuery every = new UrlQuery(filter.withStatuses(List.of()).withUrlPattern(null), Set.of(), false, false, UrlSort.errors);
        Tally[] tallies = new Tally[names.size()];
        UrlReport.read(() -> {
            urls.urls().forEach(every, when, state -> {
                if (!state.hadReportedHit()) {
                    return;
                }
                for (int i = 0; i < matchers.size(); i++) {
                    if (matchers.get(i).matches(state.url())) {
                        (tallies[i] == null ? tallies[i] = new Tally() : tallies[i]).add(state);
                        return;
                    }
                }
            });
            return null;
        });
        for (int i = 0; i < names.size(); i++) {
            if (tallies[i] != null) {
                found.put(names.get(i), tallies[i].now(urls));
            }
        }
        return found;
    }

    /** The diagnosis a pattern shows: "fixed: ..." when every URL of it that had an error answers ok since, else its own. */
    public static Diagnosis diagnosis(ErrorPattern pattern, Now now) {
        if (now == null || now.fixed() == 0 || now.fixed() != now.urls()) {
            return pattern.diagnosis();
        }
        return new Diagnosis("fixed", "fixed: " + (now.urls() == 1 ? "its URL has" : "all " + Figures.grouped(now.urls()) + " of its URLs have")
                + " answered 2xx or 304 to every fetch since " + now.fixedSince() + ", after their last error");
    }

    /** One pattern's URLs, counted. */
    static final class Tally {
        long urls;
        long redirected;
        long ok;
        long fixed;
        long fixedSince = UrlState.NONE;
        final Map<Integer, Long> broken = new TreeMap<>();
        final long[] classes = new long[5];

        void add(UrlState state) {
            urls++;
            classes[0] += state.ok();
            classes[1] += state.notModified();
            classes[2] += state.redirects();
            classes[3] += state.clientErrors();
            classes[4] += state.serverErrors();
            switch (state.state()) {
                case broken -> broken.merge(state.lastStatus(), 1L, Long::sum);
                case redirected -> redirected++;
                case ok -> ok++;
            }
            if (state.fixed()) {
                fixed++;
                fixedSince = Math.max(fixedSince, state.fixedSince());
            }
        }

        Now now(UrlReport report) {
            long brokenNow = broken.values().stream().mapToLong(Long::longValue).sum();
            String since = fixed == 0 ? null : report.minute(fixedSince);
            List<String> parts = new ArrayList<>();
            parts.add(Figures.counted(urls, "URL"));
            if (brokenNow > 0) {
                parts.add(Figures.grouped(brokenNow) + " still " + (broken.size() == 1 ? broken.keySet().iterator().next().toString()
                        : "broken (" + String.join(", ", broken.keySet().stream().map(String::valueOf).toList()) + ")"));
            }
            if (redirected > 0) {
                parts.add(Figures.grouped(redirected) + " redirected now");
            }
            if (fixed > 0) {
                parts.add(Figures.grouped(fixed) + " fixed since " + since);
            }
            long okNotFixed = ok - fixed;
            if (okNotFixed > 0) {
                parts.add(Figures.grouped(okNotFixed) + " ok now");
            }
            Map<String, Long> byClass = new LinkedHashMap<>();
            for (int c = 0; c < classes.length; c++) {
                byClass.put(CrawlBudget.CLASSES.get(c), classes[c]);
            }
            return new Now(urls, brokenNow, redirected, ok, fixed, since, String.join(", ", parts), byClass);
        }
    }
}
