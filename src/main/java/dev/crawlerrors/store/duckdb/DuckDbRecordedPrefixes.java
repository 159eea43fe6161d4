package dev.crawlerrors.store.duckdb;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which logs the store may have recorded, by the prefix of their keys ({@link
 * dev.crawlerrors.ingest.SourceProgress#prefix()}): a Bloom filter that says "not recorded" for
 * certain and "may be" otherwise. An import of 50,000 new logs asked the store, for each window of
 * 256, which of them it had recorded, and each query read the whole of {@code imports}, growing as
 * the import went: two fifths of the reading thread, for answers that were all "none".
 *
 * <p>Complete once it holds every committed prefix: from the start for a store that recorded none,
 * or once loaded; until then it answers "may be" for anything. Prefixes are added as
 * their commit is done, before they leave what the writer keeps of the uncommitted, so a reader
 * that misses one there finds it here. Its size is fixed when the store opens (16 bits for each
 * prefix recorded then and for 250,000 more, at most {@value #MAX_BITS} bits, 16 MiB): past that
 * it answers "may be" more often, and a query answers instead.
 */
final class DuckDbRecordedPrefixes {

    private static final int HASHES = 4;
    static final int MAX_BITS = 1 << 27;
    private static final int MIN_BITS = 1 << 22;
    private final AtomicLongArray words;
    private final int mask;
    private volatile boolean complete;

    /** A filter sized for a store that holds {@code recorded} logs' progress, complete when it holds none. */
    DuckDbRecordedPrefixes(long recorded) {
        long wanted = Math.max(MIN_BITS, Math.min(MAX_BITS, 16 * (recorded + 250_000)));
        int bits = Integer.highestOneBit((int) Math.min(MAX_BITS, wanted * 2 - 1));
        this.words = new AtomicLongArray(bits / 64);
        this.mask = bits - 1;
        this.complete = recorded == 0;
    }

    /** Whether {@code prefix} may be recorded: always when the filter is not complete. */
    boolean mayHold(String prefix) {
        if (!complete) {
            return true;
        }
        long hash = hash(prefix);
        int h1 = (int) hash;
        int h2 = (int) (hash >>> 32) | 1;
        for (int i = 0; i < HASHES; i++) {
            int bit = (h1 + i * h2) & mask;
            if ((words.get(bit >>> 6) & (1L << bit)) == 0) {
                return false;
            }
        }
        return true;
    }

    /** Notes a committed prefix. */
    void add(String prefix) {
        long hash = hash(prefix);
        int h1 = (int) hash;
        int h2 = (int) (hash >>> 32) | 1;
        for (int i = 0; i < HASHES; i++) {
            int bit = (h1 + i * h2) & mask;
            long flag = 1L << bit;
            int word = bit >>> 6;
            long old;
            while (((old = words.get(word)) & flag) == 0 && !words.compareAndSet(word, old, old | flag)) {
                Thread.onSpinWait();
            }
        }
    }

    /** Whether it holds every committed prefix, and answers "not recorded" for certain. */
    boolean complete() {
        return complete;
    }

    /** Says the filter holds every committed prefix, once {@link #add} was called for each the store had. */
    void loaded() {
        complete = true;
    }

    /** A 64-bit hash of the characters (FNV-1a, then mixed as SplitMix64 finishes), for the double hashing above. */
    static long hash(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * 0x100000001b3L;
        }
        h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
        h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
        return h ^ (h >>> 31);
    }
}
