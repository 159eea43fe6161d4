package dev.crawlerrors.report;

import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.UrlHistory;
import dev.crawlerrors.store.UrlHit;
import dev.crawlerrors.store.UrlKey;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.store.UrlState;
import dev.crawlerrors.store.UrlStateBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Each URL's own page: read from the URL's history as the store keeps it (one read, whatever the
 * store's size), the view's hits to it newest first, each marked where the answer changed, and the
 * crawlers that fetched it.
 */
public final class UrlDetails {

    private final UrlReport report;

    public UrlDetails(UrlReport report) {
        this.report = report;
    }

    /**
     * The page a request asks for: {@code url} (the request target, exactly), {@code host}, the view's
     * filters of its hits, {@code page} and {@code at}.
     *
     * Empty when no crawler hit to the URL is recorded at the snapshot.
     *
     * @throws BadParameterException  when a parameter is missing or bad
     * @throws PageNotFoundException  when the page is past the last
     */
    public java.util.Optional<UrlDetail> page(Map<String, List<String>> query) {
        Map<String, List<String>> rest = new LinkedHashMap<>(query);
        List<String> urls = rest.remove("url");
        if (urls == null || urls.size() != 1 || urls.get(0).isEmpty()) {
            throw new BadParameterException("url", "url must be given once: the request target of the URL whose hits to show,"
                    + " as the URLs page links to it");
        }
        String url = urls.get(0);
        ReportRequest request = ReportParameters.parse(rest, report.zone(), UrlParameters.URL, report.catalog());
        Snapshot at = report.snapshot(request, report.newest());
        HitFilter filter = request.filter();
        UrlKey key = new UrlKey(filter.host(), url);
        java.util.Optional<UrlHistory> found = report.urls().history(key, at);
        if (found.isEmpty()) {
            return java.util.Optional.empty();
        }
        UrlHistory history = found.get();
        List<UrlHit> shown = new ArrayList<>();
        long spoofed = 0;
        for (UrlHit hit : history.hits()) {
            if (UrlQuery.showsHit(filter, hit, hit.verification())) {
                shown.add(hit);
            } else if (hit.verification() == Verification.spoofed) {
                spoofed++;
            }
        }
        int pages = Paging.pages(shown.size());
        if (request.page() > pages) {
            throw new PageNotFoundException(request.page(), pages);
        }
        UrlQuery all = new UrlQuery(filter, Set.of(), false, false, dev.crawlerrors.store.UrlSort.errors);
        UrlState state = new UrlHistory(key, shown).state(all);
        List<UrlDetail.Hit> hits = new ArrayList<>();
        int newest = shown.size() - 1 - (int) Paging.offset(request.page());
        for (int i = newest; i >= 0 && i > newest - Paging.PAGE_SIZE; i--) {
            UrlHit hit = shown.get(i);
            UrlState.State kind = UrlState.State.of(hit.status());
            Integer changedFrom = i > 0 && UrlState.State.of(shown.get(i - 1).status()) != kind ? shown.get(i - 1).status() : null;
            hits.add(new UrlDetail.Hit(hit.id(), report.minute(hit.epochMillis()), hit.status(), kind.name(), changedFrom, hit.crawler(),
                    hit.botType(), hit.ip(), hit.verification().name()));
        }
        return java.util.Optional.of(new UrlDetail(url, key.host().isEmpty() ? null : key.host(), report.zone().getId(), at.token(),
                state == null ? null : report.row(state), shown.size(), request.page(), pages, Paging.PAGE_SIZE, hits, crawlers(shown),
                spoofed));
    }

    /** Each crawler's hits among {@code hits} (in time order), the crawler with most hits first. */
    private List<UrlDetail.Crawler> crawlers(List<UrlHit> hits) {
        Map<String, UrlStateBuilder> states = new LinkedHashMap<>();
        Map<String, String> types = new LinkedHashMap<>();
        for (UrlHit hit : hits) {
            String name = hit.crawler() == null ? "" : hit.crawler();
            states.computeIfAbsent(name, n -> new UrlStateBuilder(0, "", "")).add(hit.epochMillis(), hit.status());
            types.put(name, hit.botType());
        }
        List<UrlDetail.Crawler> crawlers = new ArrayList<>();
        states.forEach((name, builder) -> {
            UrlState s = builder.build();
            crawlers.add(new UrlDetail.Crawler(name, types.get(name), s.hits(), s.errorHits(), s.lastStatus(), report.minute(s.lastCrawled()),
                    s.state().name()));
        });
        crawlers.sort(java.util.Comparator.comparingLong(UrlDetail.Crawler::hits).reversed().thenComparing(UrlDetail.Crawler::crawler));
        return crawlers;
    }
}
