package dev.crawlerrors.store;

/**
 * A URL as its state is kept: its virtual host ({@code ""} when the log records none) and its
 * request target, and the number both engines keep it under ({@link #number()}).
 */
public record UrlKey(String host, String url) {

    public UrlKey {
        host = host == null ? "" : host;
    }

    /** The number of this URL: {@link #number(String, String)}. */
    public long number() {
        return number(host, url);
    }

    /**
     * The number a URL is kept under: a 63-bit hash of its host's and target's characters (FNV-1a
     * over UTF-16 units, then MurmurHash3's finaliser), the same in every engine and every run, so that a URL's
     * history is found by a number and URLs of as many error hits are listed in one order
     * everywhere. Two URLs of one number (one chance in some 10^13 for a million URLs) would share
     * a history.
     */
    public static long number(String host, String url) {
        long h = 0xcbf29ce484222325L;
        h = mix(h, host == null ? "" : host);
        h = (h ^ 0xffff) * 0x100000001b3L; // a unit no text has (U+FFFF is a noncharacter), between host and target
        h = mix(h, url);
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h >>> 1;
    }

    private static long mix(long h, String text) {
        for (int i = 0; i < text.length(); i++) {
            h = (h ^ text.charAt(i)) * 0x100000001b3L;
        }
        return h;
    }
}
