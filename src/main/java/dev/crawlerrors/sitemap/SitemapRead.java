package dev.crawlerrors.sitemap;

import java.time.Instant;
import java.util.List;

/**
 * What one {@code --sitemap} came to: how many URLs its files list (duplicates counted once; the URLs
 * themselves went to a {@link SitemapSink} as they were read), how many files were read, and the warnings of what was cut off or skipped (each one sentence naming the file).
 *
 * @param given    the sitemap as the user gave it (a path or a URL)
 * @param readAt   when its read ended
 * @param urls     the URLs listed, each counted once
 * @param files    the files read: sitemaps, indexes and robots.txt
 * @param warnings what was read anyway or left out, in plain words
 */
public record SitemapRead(String given, Instant readAt, int urls, int files, List<String> warnings) {
}
