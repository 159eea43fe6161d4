package dev.crawlerrors.report.pattern;

/**
 * One URL of a pattern and its error hits.
 *
 * @param exact false when {@code hits} is a floor: the pattern held too many URLs to count each one
 */
public record UrlHits(String url, long hits, boolean exact) {
}
