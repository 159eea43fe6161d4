package dev.crawlerrors.alert;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * robots.txt not answered as it should be: a crawler family's latest fetch of {@code /robots.txt} on
 * a host got a status not in {@code ok} (by default anything but 200 and 304). Google stops crawling
 * a site whose robots.txt answers 5xx; a 404 lets every crawler everywhere. Resolved by the next
 * fetch that gets an ok status.
 */
record RobotsTxtRule(String name, String family, String severity, Set<Integer> ok) implements AlertRule {

    static final String KIND = "robots-txt";
    static final Set<Integer> DEFAULT_OK = Set.of(200, 304);

    RobotsTxtRule {
        ok = Set.copyOf(ok);
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public Duration window() {
        return Duration.ZERO;
    }

    @Override
    public List<Firing> firing(CrawlCounts counts, long now, ZoneId zone) {
        List<Firing> firing = new ArrayList<>();
        for (CrawlCounts.RobotsFetch fetch : counts.robots()) {
            if (!covers(fetch.family()) || ok.contains(fetch.status())) {
                continue;
            }
            String host = fetch.host() == null || fetch.host().isEmpty() ? null : fetch.host();
            String summary = fetch.crawler() + " got " + fetch.status() + " for /robots.txt" + (host == null ? "" : " on " + host) + " at "
                    + ReportLink.minute(fetch.millis(), zone) + ": " + meaning(fetch.status());
            ReportLink link = new ReportLink().with("url", "/robots.txt").with("crawler", fetch.crawler());
            if (fetch.status() >= 300) {
                link.with("status", Integer.toString(fetch.status())); // the report shows no status below its errors'
            }
            if (host != null) {
                link.with("host", host);
            }
            link.from(fetch.millis(), zone);
            firing.add(new Firing(key(fetch.family(), host == null ? "" : host), labels("family", fetch.family(), "host", host), summary, link));
        }
        return firing;
    }

    /** What a robots.txt status means to a crawler. */
    static String meaning(int status) {
        if (status >= 500 || status == 429) {
            return "Google stops crawling a site whose robots.txt answers 5xx or 429";
        }
        if (status == 404 || status == 410) {
            return "crawlers find no rules there and crawl everything";
        }
        if (status >= 400) {
            return "crawlers treat a robots.txt they may not read as no rules at all";
        }
        if (status >= 300) {
            return "crawlers follow a few redirects for robots.txt, then treat it as missing";
        }
        return "not the answer robots.txt is expected to get";
    }
}
