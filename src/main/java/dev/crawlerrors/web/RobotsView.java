package dev.crawlerrors.web;

import dev.crawlerrors.report.RobotsFetches;
import java.util.List;
import java.util.Map;

/** What the robots.txt page shows: each crawler's fetches of each host's robots.txt, the last first. */
public record RobotsView(RobotsFetches fetches, Map<String, List<String>> query) {

    public Nav nav() {
        return new Nav("robots", new ReportLinks(query, fetches.at()));
    }

    public String fetchesLink(RobotsFetches.Crawler crawler, RobotsFetches.Host host) {
        return new RobotsBanner(List.of()).link(new dev.crawlerrors.report.RobotsAlert(crawler.crawler(), host.host(), 0, null, null));
    }

    public String json() {
        return new ReportLinks(query, fetches.at()).at(ReportLinks.ROBOTS_JSON_PATH);
    }
}
