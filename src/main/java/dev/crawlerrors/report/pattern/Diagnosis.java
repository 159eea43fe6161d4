package dev.crawlerrors.report.pattern;

/**
 * What a pattern's errors most likely mean, in one line.
 *
 * @param kind one of {@code probe}, {@code robots_unavailable}, {@code robots_missing}, {@code robots_redirect},
 *             {@code robots_redirect_host},
 *             {@code sitemap_missing}, {@code site_file_missing}, {@code server_error}, {@code slow},
 *             {@code client_closed}, {@code not_found}, {@code trailing_slash_added}, {@code trailing_slash_removed},
 *             {@code redirect_other_host}, {@code soft_404}, {@code redirect_chain}, {@code redirect},
 *             {@code not_modified}, {@code client_error}, {@code mixed}
 */
public record Diagnosis(String kind, String text) {
}
