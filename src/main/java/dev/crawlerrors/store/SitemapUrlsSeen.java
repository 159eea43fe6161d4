package dev.crawlerrors.store;

import dev.crawlerrors.sitemap.SitemapUrl;

/**
 * The URLs one read of a sitemap has listed so far, as 64-bit hashes of host and target in a
 * {@link LongSet} (16 bytes a URL at most, where a set of the URLs themselves held some 150): a
 * read of a million URLs keeps each once without holding them. Two URLs whose hashes collide (about
 * one chance in 30 million at a million URLs) count as one.
 */
public final class SitemapUrlsSeen {

    private final LongSet hashes = new LongSet();

    /** Notes {@code url}; true when it was not seen before. */
    public boolean add(SitemapUrl url) {
        long hash = hash(url.host(), 0xcbf29ce484222325L);
        hash = hash(url.target(), (hash ^ ' ') * 0x100000001b3L);
        hash = (hash ^ (hash >>> 30)) * 0xbf58476d1ce4e5b9L;
        hash = (hash ^ (hash >>> 27)) * 0x94d049bb133111ebL;
        hash ^= hash >>> 31;
        return hashes.add(hash == Long.MIN_VALUE ? 0 : hash);
    }

    /** How many URLs were seen, each once. */
    public int size() {
        return hashes.size();
    }

    /** FNV-1a over {@code text}'s characters, from {@code h}. */
    private static long hash(String text, long h) {
        for (int i = 0; i < text.length(); i++) {
            h = (h ^ text.charAt(i)) * 0x100000001b3L;
        }
        return h;
    }
}
