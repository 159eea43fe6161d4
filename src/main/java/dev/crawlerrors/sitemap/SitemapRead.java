package dev.crawlerrors.sitemap;

import java.time.Instant;
import java.util.List;

/**
 * What one {@code --sitemap} came to: the URLs its files list (duplicates kept once), how many files
 * were read, and the warnings of what was cut off or skipped (each one sentence naming the file).
 *
 * @param given    the sitemap as the user gave it (a path or a URL)
 * @param readAt   when its read ended
 * @param urls     every URL listed, each once, in the order first read
 * @param files    the files read: sitemaps, indexes and robots.txt
 * @param warnings what was read anyway or left out, in plain words
 */
public record SitemapRead(String given, Instant readAt, List<SitemapUrl> urls, int files, List<String> warnings) {
}
