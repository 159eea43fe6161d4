package dev.crawlerrors.report;

import dev.crawlerrors.sitemap.SitemapUrl;
import dev.crawlerrors.store.SitemapStore;
import dev.crawlerrors.store.StoredSitemap;
import dev.crawlerrors.store.UrlState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The sitemaps' URLs joined with the URLs' states, made for one request of the sitemaps page: each
 * URL a sitemap lists, what the view's crawlers last got from it, and whether the chosen crawler
 * fetched it lately; and the URLs fetched most that no sitemap lists. A URL is matched as the
 * {@code in_sitemap} filter matches a hit: by host and target, by target alone where the log has no
 * host. It holds every sitemap URL once (about 150 bytes each) while the page is made.
 */
final class SitemapCoverage {

    /** One URL some sitemap lists, and what the crawlers made of it. */
    static final class Listed {
        final SitemapUrl url;
        UrlState last;
        boolean recent;

        Listed(SitemapUrl url) {
            this.url = url;
        }
    }

    private final List<StoredSitemap> sitemaps;
    private final List<List<Listed>> bySitemap = new ArrayList<>();
    private final Map<String, Listed> byHostTarget = new HashMap<>();
    /** The listed URLs by target alone, made when a URL of a log without hosts asks. */
    private Map<String, List<Listed>> byTarget;
    private final int offMapMax;
    private final PriorityQueue<UrlState> offMap = new PriorityQueue<>(Comparator.comparingLong(UrlState::hits)
            .thenComparing(UrlState::url, Comparator.reverseOrder()));
    private long newestCrawl = Long.MIN_VALUE;

    /** The URLs of every sitemap {@code store} holds; {@code offMapMax} off-map URLs are kept. */
    SitemapCoverage(SitemapStore store, int offMapMax) {
        this.sitemaps = store.sitemaps();
        this.offMapMax = offMapMax;
        for (StoredSitemap sitemap : sitemaps) {
            List<Listed> urls = new ArrayList<>();
            store.forEachUrl(sitemap.sitemap(), url -> urls.add(byHostTarget.computeIfAbsent(url.host() + ' ' + url.target(),
                    key -> new Listed(url))));
            bySitemap.add(urls);
        }
    }

    List<StoredSitemap> sitemaps() {
        return sitemaps;
    }

    /** The URLs sitemap number {@code i} lists. */
    List<Listed> urls(int i) {
        return bySitemap.get(i);
    }

    /** Every URL some sitemap lists, once. */
    java.util.Collection<Listed> listed() {
        return byHostTarget.values();
    }

    /** Takes what the view's crawlers last got from one URL: a listed URL's state, or a candidate for the off-map list. */
    void viewed(UrlState state) {
        newestCrawl = Math.max(newestCrawl, state.lastCrawled());
        List<Listed> found = find(state);
        if (found.isEmpty()) {
            offMap.add(state);
            if (offMap.size() > offMapMax) {
                offMap.poll();
            }
            return;
        }
        for (Listed listed : found) {
            if (listed.last == null || listed.last.lastCrawled() < state.lastCrawled()) {
                listed.last = state;
            }
        }
    }

    /** Marks the listed URLs the chosen crawler fetched lately. */
    void fetchedRecently(UrlState state) {
        find(state).forEach(listed -> listed.recent = true);
    }

    /** When the view's crawlers last crawled anything, or {@link Long#MIN_VALUE} when nothing. */
    long newestCrawl() {
        return newestCrawl;
    }

    /** The off-map URLs, most hits first. */
    List<UrlState> offMap() {
        List<UrlState> top = new ArrayList<>(offMap);
        top.sort(Comparator.comparingLong(UrlState::hits).reversed().thenComparing(UrlState::url));
        return top;
    }

    private List<Listed> find(UrlState state) {
        if (state.host().isEmpty()) {
            if (byTarget == null) {
                byTarget = new HashMap<>();
                for (Listed listed : byHostTarget.values()) {
                    byTarget.computeIfAbsent(listed.url.target(), key -> new ArrayList<>(1)).add(listed);
                }
            }
            return byTarget.getOrDefault(state.url(), List.of());
        }
        Listed listed = byHostTarget.get(state.host().toLowerCase(Locale.ROOT) + ' ' + state.url());
        return listed == null ? List.of() : List.of(listed);
    }
}
