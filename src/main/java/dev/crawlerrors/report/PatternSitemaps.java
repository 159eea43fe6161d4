package dev.crawlerrors.report;

import dev.crawlerrors.report.pattern.Diagnosis;
import dev.crawlerrors.report.pattern.ErrorPattern;
import dev.crawlerrors.report.pattern.PatternReport;
import dev.crawlerrors.sitemap.SitemapUrl;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.SitemapStore;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StoredSitemap;
import dev.crawlerrors.store.UrlPattern;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.store.UrlSort;
import dev.crawlerrors.store.UrlState;
import dev.crawlerrors.text.Figures;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How many of each pattern's URLs (those of the view with an error hit: a 3xx, 4xx or 5xx) a sitemap lists ("96 of these 110 URLs are in the sitemap"), and the diagnosis that
 * puts the sitemap first: a sitemap that lists URLs the site redirects lists the non-canonical form;
 * a sitemap that lists URLs answering 404, 410 or 5xx lists pages that are not there.
 */
public final class PatternSitemaps {

    /**
     * One pattern's URLs and how many a sitemap lists; an example listed URL that redirects now (null
     * when none) and its status, and the statuses of listed URLs broken now (404, 410, 5xx) with one example.
     */
    public record Listed(long urls, long inSitemap, String text, String redirected, int redirectStatus, String broken,
            List<Integer> brokenStatuses) {
    }

    /** URLs asked of the sitemaps at once. */
    private static final int BATCH = 1_000;

    private final UrlReport urls;
    private final SitemapStore sitemaps;

    public PatternSitemaps(CrawlErrorReport report, UrlReport urls) {
        this.urls = urls;
        this.sitemaps = report.reader().sitemaps();
    }

    /** The sitemaps held, newest read of each. */
    public List<StoredSitemap> held() {
        return sitemaps.sitemaps();
    }

    /** Each pattern's URLs in sitemaps, by its text, for the page's view at {@code at}; empty when no sitemap is held. */
    public Map<String, Listed> of(PatternReport patterns, HitFilter filter, String at) {
        Map<String, Listed> found = new LinkedHashMap<>();
        if (patterns.patterns().isEmpty() || sitemaps.sitemaps().isEmpty()) {
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
        Snapshot when = at == null ? urls.newest() : Snapshot.parse(at);
        UrlQuery every = new UrlQuery(filter.withStatuses(List.of()).withUrlPattern(null).withInSitemap(null), Set.of(), false, false,
                UrlSort.errors);
        Tally[] tallies = new Tally[names.size()];
        List<UrlState> batch = new ArrayList<>(BATCH);
        List<Integer> batchPatterns = new ArrayList<>(BATCH);
        UrlReport.read(() -> {
            urls.urls().forEach(every, when, state -> {
                if (state.errorHits() + state.redirects() + state.notModified() == 0) {
                    return; // never an error hit (3xx, 4xx, 5xx): in no pattern
                }
                for (int i = 0; i < matchers.size(); i++) {
                    if (matchers.get(i).matches(state.url())) {
                        batch.add(state);
                        batchPatterns.add(i);
                        if (batch.size() == BATCH) {
                            count(batch, batchPatterns, tallies);
                        }
                        return;
                    }
                }
            });
            return null;
        });
        count(batch, batchPatterns, tallies);
        String sitemap = sitemapName(sitemaps.sitemaps());
        for (int i = 0; i < names.size(); i++) {
            if (tallies[i] != null) {
                found.put(names.get(i), tallies[i].listed(sitemap, filter.inSitemap() != null));
            }
        }
        return found;
    }

    private void count(List<UrlState> batch, List<Integer> patterns, Tally[] tallies) {
        if (batch.isEmpty()) {
            return;
        }
        Set<SitemapUrl> listed = sitemaps.listed(batch.stream().map(PatternSitemaps::key).toList());
        for (int i = 0; i < batch.size(); i++) {
            int p = patterns.get(i);
            (tallies[p] == null ? tallies[p] = new Tally() : tallies[p]).add(batch.get(i), listed.contains(key(batch.get(i))));
        }
        batch.clear();
        patterns.clear();
    }

    private static SitemapUrl key(UrlState state) {
        return new SitemapUrl(state.host(), state.url());
    }

    /** The sitemap as a sentence names it: its file's name when one is held ({@code sitemap.xml}), else "a sitemap". */
    static String sitemapName(List<StoredSitemap> held) {
        if (held.size() != 1) {
            return "a sitemap";
        }
        String given = held.get(0).sitemap();
        try {
            String path = given.contains("://") ? URI.create(given).getPath() : given;
            String name = path == null ? "" : path.substring(path.replace('\\', '/').lastIndexOf('/') + 1);
            return name.isEmpty() ? given : name;
        } catch (IllegalArgumentException e) {
            return given;
        }
    }

    /**
     * The diagnosis a pattern shows when a sitemap lists its URLs: broken ones (404, 410, 5xx) marked
     * first, then a redirect named as the sitemap listing the non-canonical form; {@code own} otherwise.
     */
    public static Diagnosis diagnosis(Listed listed, Diagnosis own, List<StoredSitemap> held) {
        if (listed == null || listed.inSitemap() == 0) {
            return own;
        }
        String sitemap = sitemapName(held);
        if (listed.broken() != null) {
            String codes = String.join(", ", listed.brokenStatuses().stream().map(String::valueOf).toList());
            return new Diagnosis("sitemap_broken", sitemap + " lists " + listed.broken() + ", which answers " + codes
                    + ": a page the site itself asks crawlers for is not there; restore it or take it out of the sitemap. " + own.text());
        }
        if (listed.redirected() != null) {
            String target = finalForm(listed.redirected(), own);
            return new Diagnosis("sitemap_redirect", sitemap + " lists " + listed.redirected() + "; the site redirects it ("
                    + listed.redirectStatus() + ")" + (target == null ? ": list the address it ends at." : " to " + target + ": list the final form."));
        }
        return own;
    }

    /** Where a redirect of {@code url} ends, when the pattern's own diagnosis knows: the slash added or removed. */
    private static String finalForm(String url, Diagnosis own) {
        int query = url.indexOf('?');
        String path = query < 0 ? url : url.substring(0, query);
        String rest = query < 0 ? "" : url.substring(query);
        if (own.kind().equals("trailing_slash_added") && !path.endsWith("/")) {
            return path + "/" + rest;
        }
        if (own.kind().equals("trailing_slash_removed") && path.endsWith("/") && path.length() > 1) {
            return path.substring(0, path.length() - 1) + rest;
        }
        return null;
    }

    /** One pattern's URLs, counted. */
    static final class Tally {
        long urls;
        long inSitemap;
        String redirected;
        int redirectStatus;
        String broken;
        final java.util.TreeSet<Integer> brokenStatuses = new java.util.TreeSet<>();

        void add(UrlState state, boolean listed) {
            urls++;
            if (!listed) {
                return;
            }
            inSitemap++;
            int status = state.lastStatus();
            if (status == 404 || status == 410 || status >= 500) {
                brokenStatuses.add(status);
                if (broken == null || state.url().compareTo(broken) < 0) {
                    broken = state.url();
                }
            } else if (state.state() == UrlState.State.redirected && (redirected == null || state.url().compareTo(redirected) < 0)) {
                redirected = state.url();
                redirectStatus = status;
            }
        }

        /**
         * What a sitemap lists of these URLs, in words; under {@code in_sitemap=} ({@code filtered}) the pattern's URLs
         * listed or not are counted (what the diagnosis is about), which the words say: "of these" read as the view's.
         */
        Listed listed(String sitemap, boolean filtered) {
            String where = sitemap.equals("a sitemap") ? "a sitemap" : "the sitemap";
            String text = urls == 1 ? "this URL is " + (inSitemap == 1 ? "in " + where : "in no sitemap")
                    : Figures.grouped(inSitemap) + (filtered ? " of all " + Figures.grouped(urls) + " URLs of this pattern, listed or not, are in "
                    : " of these " + Figures.grouped(urls) + " URLs are in ") + where;
            return new Listed(urls, inSitemap, text, redirected, redirectStatus, broken, List.copyOf(brokenStatuses));
        }
    }
}
