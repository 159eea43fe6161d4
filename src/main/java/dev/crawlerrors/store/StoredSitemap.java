package dev.crawlerrors.store;

import java.time.Instant;

/** A sitemap the store holds: its name as given ({@code --sitemap}), when its newest copy was read, and how many URLs it lists. */
public record StoredSitemap(String sitemap, Instant readAt, long urls) {
}
