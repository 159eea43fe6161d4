package dev.crawlerrors.report;

/**
 * A verified crawler whose latest fetch of a host's {@code /robots.txt} got a 5xx or 429: every page
 * of the report says so while it lasts.
 *
 * @param host the virtual host, or null when the log records none
 * @param text the sentence the banner shows
 */
public record RobotsAlert(String crawler, String host, int status, String timestamp, String text) {
}
