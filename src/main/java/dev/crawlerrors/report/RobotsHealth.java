package dev.crawlerrors.report;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.UrlHistory;
import dev.crawlerrors.store.UrlHit;
import dev.crawlerrors.store.UrlQuery;
import dev.crawlerrors.text.Threads;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * robots.txt health: what each crawler got for {@code /robots.txt} on each host, read from that
 * URL's history as the store keeps it, and the alerts the report's pages show while a verified
 * crawler's latest fetch of it got a 5xx or 429 (a search engine stops crawling a site whose
 * robots.txt answers so).
 */
public final class RobotsHealth {

    public static final String ROBOTS = "/robots.txt";
    /** Fetches listed per crawler and host, the newest. */
    static final int FETCHES_SHOWN = 100;
    /** What the robots.txt report takes. */
    public static final Set<String> PARAMETERS = Set.of("crawler", "bot", "verification", "host", "at");

    private final UrlReport report;
    private final CrawlerCatalog catalog;
    /** The alerts of the last snapshot asked about: every page asks, most at the same snapshot. */
    private volatile Map.Entry<Snapshot, List<RobotsAlert>> lastAlerts;
    /** Set while the alerts are read for a page that did not wait for them. */
    private final AtomicBoolean reading = new AtomicBoolean();

    /** robots.txt's fetches in {@code report}'s store, the alerts naming the operators of its catalog's crawlers. */
    public RobotsHealth(UrlReport report) {
        this.report = report;
        this.catalog = report.catalog();
    }

    /** The fetches of robots.txt a request asks about: its crawlers, bot types, verdicts and host, at its snapshot. */
    public RobotsFetches fetches(Map<String, List<String>> query) {
        ReportRequest request = ReportParameters.parse(query, report.zone(), PARAMETERS, report.catalog());
        Snapshot at = report.snapshot(request, report.newest());
        HitFilter filter = request.filter();
        Map<String, Map<String, List<UrlHit>>> byCrawler = new TreeMap<>();
        Map<String, String> types = new LinkedHashMap<>();
        for (UrlHistory history : report.urls().histories(ROBOTS, at)) {
            if (filter.host() != null && !filter.host().equals(history.key().host())) {
                continue;
            }
            for (UrlHit hit : history.hits()) {
                if (UrlQuery.showsHit(filter, hit, hit.verification())) {
                    String crawler = hit.crawler() == null ? "" : hit.crawler();
                    byCrawler.computeIfAbsent(crawler, c -> new TreeMap<>()).computeIfAbsent(history.key().host(), h -> new ArrayList<>())
                            .add(hit);
                    types.put(crawler, hit.botType());
                }
            }
        }
        List<RobotsFetches.Crawler> crawlers = new ArrayList<>();
        byCrawler.forEach((crawler, hosts) -> {
            List<RobotsFetches.Host> each = new ArrayList<>();
            hosts.forEach((host, hits) -> each.add(host(host, hits)));
            crawlers.add(new RobotsFetches.Crawler(crawler, types.get(crawler), each));
        });
        return new RobotsFetches(RobotsFetches.TITLE, report.zone().getId(), at.token(), crawlers);
    }

    private RobotsFetches.Host host(String host, List<UrlHit> hits) {
        Map<Integer, Long> statuses = new TreeMap<>();
        Map<String, Map<Integer, Long>> days = new TreeMap<>();
        for (UrlHit hit : hits) {
            statuses.merge(hit.status(), 1L, Long::sum);
            days.computeIfAbsent(report.minute(hit.epochMillis()).substring(0, 10), d -> new TreeMap<>()).merge(hit.status(), 1L, Long::sum);
        }
        List<RobotsFetches.Fetch> fetches = new ArrayList<>();
        for (int i = hits.size() - 1; i >= 0 && fetches.size() < FETCHES_SHOWN; i--) {
            fetches.add(fetch(hits.get(i)));
        }
        List<RobotsFetches.Day> byDay = new ArrayList<>();
        days.forEach((day, counts) -> byDay.add(new RobotsFetches.Day(day, counts)));
        return new RobotsFetches.Host(host.isEmpty() ? null : host, hits.size(), statuses, fetch(hits.get(hits.size() - 1)), byDay, fetches);
    }

    private RobotsFetches.Fetch fetch(UrlHit hit) {
        return new RobotsFetches.Fetch(hit.id(), report.minute(hit.epochMillis()), hit.status(), hit.ip(), hit.verification().name());
    }

    /**
     * The alerts at the newest snapshot, or at {@code at}: for each verified crawler and host, when
     * its latest verified fetch of robots.txt got a 5xx or 429.
     */
    public List<RobotsAlert> alerts(Snapshot at) {
        Snapshot when = at == null ? report.newest() : at;
        Map.Entry<Snapshot, List<RobotsAlert>> kept = lastAlerts;
        if (kept != null && kept.getKey().equals(when)) {
            return kept.getValue();
        }
        Map<String, UrlHit> latest = new TreeMap<>();
        Map<String, String> hostOf = new LinkedHashMap<>();
        for (UrlHistory history : report.urls().histories(ROBOTS, when)) {
            for (UrlHit hit : history.hits()) {
                if (hit.verification() == Verification.verified && hit.crawler() != null) {
                    String key = hit.crawler() + "\n" + history.key().host();
                    latest.put(key, hit); // in time order: the last one stays
                    hostOf.put(key, history.key().host());
                }
            }
        }
        List<RobotsAlert> alerts = new ArrayList<>();
        latest.forEach((key, hit) -> {
            if (hit.status() >= 500 || hit.status() == 429) {
                String host = hostOf.get(key);
                alerts.add(new RobotsAlert(hit.crawler(), host.isEmpty() ? null : host, hit.status(), report.minute(hit.epochMillis()),
                        text(hit, host)));
            }
        });
        alerts.sort(Comparator.comparing(RobotsAlert::timestamp).reversed());
        List<RobotsAlert> found = List.copyOf(alerts);
        lastAlerts = Map.entry(when, found);
        return found;
    }

    /**
     * The alerts at the newest snapshot if they are read already; else empty, and they are read on a
     * thread of their own for the pages after: a serve's first page, shown while its hits are still
     * counted, does not wait for robots.txt's fetches (the first read of URL histories reads every
     * claim's crawler and address, about a second on a 10M-hit store).
     */
    public Optional<List<RobotsAlert>> alertsIfRead() {
        Map.Entry<Snapshot, List<RobotsAlert>> kept = lastAlerts;
        if (kept != null && kept.getKey().equals(report.newest())) {
            return Optional.of(kept.getValue());
        }
        if (reading.compareAndSet(false, true)) {
            Threads.startDaemon("robots-alerts", () -> {
                try {
                    alerts(null);
                } catch (RuntimeException e) {
                    // the next page that waits for them reads them again, and says what failed
                } finally {
                    reading.set(false);
                }
            });
        }
        return Optional.empty();
    }

    /** "Googlebot Smartphone got 503 for /robots.txt at 2025-05-14T10:02: Google stops crawling a site whose robots.txt answers 5xx." */
    private String text(UrlHit hit, String host) {
        String operator = catalog.crawler(hit.crawler()).map(Crawler::operator).orElse(null);
        String consequence = operator == null || operator.isBlank()
                ? "crawlers stop or slow down on a site whose robots.txt answers 5xx or 429"
                : operator + " stops crawling a site whose robots.txt answers 5xx or 429, until it answers again";
        return hit.crawler() + " got " + hit.status() + " for " + ROBOTS + (host.isEmpty() ? "" : " on " + host) + " at "
                + report.minute(hit.epochMillis()) + ": " + consequence + ".";
    }
}
