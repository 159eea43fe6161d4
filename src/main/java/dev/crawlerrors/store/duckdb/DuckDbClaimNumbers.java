package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.crawler.CrawlerHit;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The number of each claim the store knows, by claim key ({@link CrawlerHit#claimKey}), for the hit
 * writer. A signed line left to be checked later is a claim of its own, whose key ends in its line's
 * id ({@code pending r} and 22 characters, see {@code LoggedSignature}): a serve that settled 100,000
 * of them held each key as a string in a map (some 150 bytes a claim, a third of what those claims
 * held). Such keys are kept here as numbers instead: the id's 132 bits, what comes before it (the
 * address and the crawler, one string for all the claims that share it) and the claim's number, in
 * open-addressed arrays (some 60 bytes a claim). Every other key is kept as given.
 */
final class DuckDbClaimNumbers {

    /** What ends a key kept as numbers: the group of a signed line waiting, then its id's 22 characters. */
    private static final String PENDING = CrawlerHit.GROUP + "pending r";
    private static final int ID_CHARS = 22;
    private static final int TAIL = PENDING.length() + ID_CHARS;
    private static final int EMPTY = 0;

    private final Map<String, Integer> given = new HashMap<>();
    /** Per slot: the id's first 60 bits, its next 60, its last 12, what comes before its group, and the claim (0: free). */
    private long[] high = new long[1024];
    private long[] low = new long[1024];
    private short[] tails = new short[1024];
    private String[] prefixes = new String[1024];
    private int[] numbers = new int[1024];
    private int packed;
    /** Each prefix once, as the claims of one address and crawler share it; the last one met. */
    private final Map<String, String> prefixNames = new HashMap<>();
    private String lastPrefix;
    /** What {@link #decode} found. */
    private long decodedHigh;
    private long decodedLow;
    private short decodedTail;

    /** The number of the claim {@code key} names, or -1 when none is known. */
    int get(String key) {
        if (decode(key)) {
            int slot = find(key);
            if (numbers[slot] != EMPTY) {
                return numbers[slot];
            }
        }
        Integer known = given.get(key);
        return known == null ? -1 : known;
    }

    /**
     * The number of the claim {@code key} names; when none is known, records that it names {@code claim} (a number above
     * 0) and gives -1. One look-up for an import's new claim (a signed line waiting is one).
     */
    int putIfAbsent(String key, int claim) {
        if (claim <= 0) {
            throw new IllegalArgumentException("a claim's number is above 0: " + claim);
        }
        if (!decode(key)) {
            Integer known = given.putIfAbsent(key, claim);
            return known == null ? -1 : known;
        }
        int slot = find(key);
        if (numbers[slot] != EMPTY) {
            return numbers[slot];
        }
        numbers[slot] = claim;
        high[slot] = decodedHigh;
        low[slot] = decodedLow;
        tails[slot] = decodedTail;
        if (lastPrefix == null || !prefixOf(key, lastPrefix)) {
            lastPrefix = prefixNames.computeIfAbsent(key.substring(0, key.length() - TAIL), prefix -> prefix);
        }
        prefixes[slot] = lastPrefix;
        if (++packed * 2 > numbers.length) {
            grow();
        }
        return -1;
    }

    /** The slot of the key last {@linkplain #decode decoded}: where it is, or the free one where it would go. */
    private int find(String key) {
        int slot = slot(decodedHigh, decodedLow);
        while (numbers[slot] != EMPTY && !(high[slot] == decodedHigh && low[slot] == decodedLow && tails[slot] == decodedTail
                && prefixOf(key, prefixes[slot]))) {
            slot = (slot + 1) & (numbers.length - 1);
        }
        return slot;
    }

    /**
     * Whether {@code key} ends in a waiting line's id written as that id is ({@code pending r} and 22 base64url
     * characters); if so its bits are {@link #decodedHigh}, {@link #decodedLow} and {@link #decodedTail} (callers hold
     * the writer's lock).
     */
    private boolean decode(String key) {
        int at = key.length() - TAIL;
        if (at <= 0 || !key.startsWith(PENDING, at)) {
            return false;
        }
        long h = 0;
        long l = 0;
        int t = 0;
        int from = key.length() - ID_CHARS;
        for (int i = 0; i < ID_CHARS; i++) {
            int bits = sextet(key.charAt(from + i));
            if (bits < 0) {
                return false;
            }
            if (i < 10) {
                h = (h << 6) | bits;
            } else if (i < 20) {
                l = (l << 6) | bits;
            } else {
                t = (t << 6) | bits;
            }
        }
        decodedHigh = h;
        decodedLow = l;
        decodedTail = (short) t;
        return true;
    }

    void clear() {
        given.clear();
        prefixNames.clear();
        lastPrefix = null;
        high = new long[1024];
        low = new long[1024];
        tails = new short[1024];
        prefixes = new String[1024];
        numbers = new int[1024];
        packed = 0;
    }

    /** Keys known, for tests: those kept as numbers, and those kept as given. */
    int[] sizes() {
        return new int[] {packed, given.size()};
    }

    private void grow() {
        long[] h = high;
        long[] l = low;
        short[] t = tails;
        String[] p = prefixes;
        int[] n = numbers;
        high = new long[n.length * 2];
        low = new long[n.length * 2];
        tails = new short[n.length * 2];
        prefixes = new String[n.length * 2];
        numbers = new int[n.length * 2];
        for (int i = 0; i < n.length; i++) {
            if (n[i] != EMPTY) {
                int slot = slot(h[i], l[i]);
                while (numbers[slot] != EMPTY) {
                    slot = (slot + 1) & (numbers.length - 1);
                }
                high[slot] = h[i];
                low[slot] = l[i];
                tails[slot] = t[i];
                prefixes[slot] = p[i];
                numbers[slot] = n[i];
            }
        }
    }

    private int slot(long h, long l) {
        long mixed = (h ^ Long.rotateLeft(l, 29)) * 0x9E3779B97F4A7C15L;
        return (int) (mixed >>> 40) & (numbers.length - 1);
    }

    /** Whether what comes before {@code key}'s group is {@code prefix}. */
    private static boolean prefixOf(String key, String prefix) {
        return prefix.length() == key.length() - TAIL && key.startsWith(prefix);
    }

    private static int sextet(char c) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        return c == '-' ? 62 : c == '_' ? 63 : -1;
    }

    @Override
    public String toString() {
        return "DuckDbClaimNumbers" + Arrays.toString(sizes());
    }
}
