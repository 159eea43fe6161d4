package dev.crawlerrors.report;

import java.util.List;
import java.util.Map;

/**
 * What each crawler got for {@code /robots.txt}, per host, as {@code /api/crawl-errors/robots}
 * returns it: its fetches newest first, their statuses by day, and the last one.
 */
public record RobotsFetches(String title, String timeZone, String at, List<Crawler> crawlers) {

    public static final String TITLE = "Crawler Crawl Errors: robots.txt";

    /** One crawler's fetches of robots.txt, per host. */
    public record Crawler(String crawler, String botType, List<Host> hosts) {
    }

    /**
     * One crawler's fetches of one host's robots.txt.
     *
     * @param host     the virtual host, or null when the log records none
     * @param statuses its fetches by status
     * @param byDay    its fetches by local day and status, oldest first
     * @param fetches  the newest fetches, newest first (at most {@link RobotsHealth#FETCHES_SHOWN})
     */
    public record Host(String host, long total, Map<Integer, Long> statuses, Fetch last, List<Day> byDay, List<Fetch> fetches) {
    }

    /** One day's fetches by status. */
    public record Day(String day, Map<Integer, Long> statuses) {
    }

    /** One fetch: when, what it got, from where, and whether the address is the crawler's. */
    public record Fetch(long id, String timestamp, int status, String ip, String verification) {
    }
}
