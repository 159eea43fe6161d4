package dev.crawlerrors.report;

import dev.crawlerrors.report.pattern.ErrorPattern;
import dev.crawlerrors.report.pattern.PatternReport;
import dev.crawlerrors.sitemap.SitemapUrl;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.SitemapStore;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.UrlPattern;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.store.UrlSort;
import dev.crawlerrors.store.UrlState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Patterns pages of views that differ only in {@code in_sitemap} (the default view, {@code =yes} and {@code =no}) made in
 * one walk of the URL states at one snapshot: each view's states now by pattern ({@link PatternStates}) and sitemap counts
 * ({@link PatternSitemaps}), as their own walks make them, with each URL looked up in the sitemaps once. Serve's warm-up
 * walks its views so: one pass over the 1,000,000 URL states of the bench's month instead of six.
 */
public final class PatternWalk {

    /** One view's Patterns page: its patterns and its filter. */
    public record View(PatternReport patterns, HitFilter filter) {
    }

    /** One view's maps by pattern: its states now and, when a sitemap is held, its sitemap counts (else empty). */
    public record Walked(Map<String, PatternStates.Now> now, Map<String, PatternSitemaps.Listed> listed) {
    }

    /** URLs asked of the sitemaps at once. */
    private static final int BATCH = 1_000;

    private final UrlReport urls;
    private final SitemapStore sitemaps;

    public PatternWalk(CrawlErrorReport report, UrlReport urls) {
        this.urls = urls;
        this.sitemaps = report.reader().sitemaps();
    }

    /** Whether views of these filters can be walked at once: equal but for their {@code in_sitemap}. */
    public static boolean together(List<HitFilter> filters) {
        return filters.stream().map(PatternWalk::walked).distinct().count() <= 1;
    }

    /** The URLs a view's pages walk, whatever they list: those of its filter, any status, pattern and sitemap. */
    private static HitFilter walked(HitFilter filter) {
        return filter.withStatuses(List.of()).withUrlPattern(null).withInSitemap(null);
    }

    /**
     * Each view's maps, in the order given, at {@code at} (the newest snapshot when null).
     *
     * @throws IllegalArgumentException when the views cannot be walked at once ({@link #together})
     * @throws StillCountingException   when the URLs' states are being brought up to a large import
     */
    public List<Walked> of(List<View> views, String at) {
        if (!together(views.stream().map(View::filter).toList())) {
            throw new IllegalArgumentException("views that differ in more than in_sitemap");
        }
        int n = views.size();
        List<List<String>> names = new ArrayList<>();
        List<List<UrlPattern>> matchers = new ArrayList<>();
        for (View view : views) {
            List<String> named = new ArrayList<>();
            List<UrlPattern> matching = new ArrayList<>();
            for (ErrorPattern pattern : view.patterns().patterns()) {
                view.patterns().matcher(pattern.pattern()).ifPresent(matcher -> {
                    named.add(pattern.pattern());
                    matching.add(matcher);
                });
            }
            names.add(named);
            matchers.add(matching);
        }
        boolean held = !sitemaps.sitemaps().isEmpty();
        PatternStates.Tally[][] now = new PatternStates.Tally[n][];
        PatternSitemaps.Tally[][] listed = new PatternSitemaps.Tally[n][];
        for (int v = 0; v < n; v++) {
            now[v] = new PatternStates.Tally[names.get(v).size()];
            listed[v] = new PatternSitemaps.Tally[names.get(v).size()];
        }
        List<UrlState> batch = new ArrayList<>(BATCH);
        List<int[]> batchPatterns = new ArrayList<>(BATCH);
        if (names.stream().anyMatch(named -> !named.isEmpty())) {
            Snapshot when = at == null ? urls.newest() : Snapshot.parse(at);
            UrlQuery every = new UrlQuery(walked(views.get(0).filter()), Set.of(), false, false, UrlSort.errors);
            UrlReport.read(() -> {
                urls.urls().forEach(every, when, state -> {
                    if (!state.hadReportedHit()) {
                        return; // no redirect, 304 or error: in no pattern
                    }
                    int[] found = new int[n];
                    boolean any = false;
                    for (int v = 0; v < n; v++) {
                        found[v] = first(matchers.get(v), state.url());
                        any |= found[v] >= 0;
                    }
                    if (any) {
                        batch.add(state);
                        batchPatterns.add(found);
                        if (batch.size() == BATCH) {
                            count(views, held, batch, batchPatterns, now, listed);
                        }
                    }
                });
                return null;
            });
            count(views, held, batch, batchPatterns, now, listed);
        }
        String sitemap = PatternSitemaps.sitemapName(sitemaps.sitemaps());
        List<Walked> walked = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            Map<String, PatternStates.Now> nowByName = new LinkedHashMap<>();
            Map<String, PatternSitemaps.Listed> listedByName = new LinkedHashMap<>();
            for (int p = 0; p < names.get(v).size(); p++) {
                if (now[v][p] != null) {
                    nowByName.put(names.get(v).get(p), now[v][p].now(urls));
                }
                if (listed[v][p] != null) {
                    listedByName.put(names.get(v).get(p), listed[v][p].listed(sitemap, views.get(v).filter().inSitemap() != null));
                }
            }
            walked.add(new Walked(nowByName, listedByName));
        }
        return walked;
    }

    /** The first of {@code matchers} that matches {@code url}, as a URL counts in the first pattern of the page; -1 when none. */
    private static int first(List<UrlPattern> matchers, String url) {
        for (int i = 0; i < matchers.size(); i++) {
            if (matchers.get(i).matches(url)) {
                return i;
            }
        }
        return -1;
    }

    /** Counts a batch of URLs into each view's patterns it matched, asking the sitemaps which of them they list, once. */
    private void count(List<View> views, boolean held, List<UrlState> batch, List<int[]> patterns, PatternStates.Tally[][] now,
            PatternSitemaps.Tally[][] listed) {
        if (batch.isEmpty()) {
            return;
        }
        Set<SitemapUrl> inSitemaps = held ? sitemaps.listed(batch.stream().map(PatternWalk::key).toList()) : Set.of();
        for (int i = 0; i < batch.size(); i++) {
            UrlState state = batch.get(i);
            boolean inSitemap = held && inSitemaps.contains(key(state));
            int[] found = patterns.get(i);
            for (int v = 0; v < views.size(); v++) {
                int p = found[v];
                if (p < 0) {
                    continue;
                }
                Boolean wanted = views.get(v).filter().inSitemap();
                if (wanted == null || wanted == inSitemap) {
                    (now[v][p] == null ? now[v][p] = new PatternStates.Tally() : now[v][p]).add(state);
                }
                if (held) {
                    (listed[v][p] == null ? listed[v][p] = new PatternSitemaps.Tally() : listed[v][p]).add(state, inSitemap);
                }
            }
        }
        batch.clear();
        patterns.clear();
    }

    private static SitemapUrl key(UrlState state) {
        return new SitemapUrl(state.host(), state.url());
    }
}
