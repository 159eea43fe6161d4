package dev.crawlerrors.report.pattern;

/**
 * What a pattern's errors most likely mean, in one line.
 *
 * @param kind one of {@code server_error}, {@code slow}, {@code not_found}, {@code trailing_slash_added},
 *             {@code trailing_slash_removed}, {@code redirect}, {@code not_modified}, {@code client_error},
 *             {@code mixed}
 */
public record Diagnosis(String kind, String text) {
}
