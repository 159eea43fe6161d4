package dev.crawlerrors.ingest;

import java.util.Arrays;

/**
 * One string for each distinct field value that recurs from line to line, for one parser (one
 * thread): a crawler's agent and its addresses come back thousands of times in a log.
 *
 * <p>Why: every crawler hit used to carry strings of its own, built from the line's bytes, which the
 * crawler identifier then hashed again, the store encoded back into bytes, and the garbage collector
 * copied while the hit waited in a batch (an agent is some 130 bytes). A shared string is hashed
 * once ({@code String} keeps its hash), and the store encodes it once ({@code DuckDbHitStore}
 * remembers the bytes of the strings it met, by identity).
 *
 * <p>An open-addressing table keyed by the bytes, with the caller's hash; equal hashes never make a
 * match, the bytes are compared. When it is three-quarters full it is emptied rather than grown,
 * which bounds memory on a log with endless variety while the recurring values come straight back.
 */
final class RecurringText {

    private final int mask;
    private final int maxFill;
    private final byte[][] keys;
    private final int[] hashes;
    private final String[] texts;
    private int size;

    /** @param capacity a power of two */
    RecurringText(int capacity) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
        }
        mask = capacity - 1;
        maxFill = capacity * 3 / 4;
        keys = new byte[capacity][];
        hashes = new int[capacity];
        texts = new String[capacity];
    }

    /**
     * The text of {@code b[from, to)} as {@link LogText#text} makes it (the servers' backslash
     * escapes undone), the same string for the same bytes.
     *
     * @param hash {@link ByteSearch#hash} of the bytes
     */
    String text(byte[] b, int from, int to, int hash) {
        int i = hash & mask;
        for (byte[] key; (key = keys[i]) != null; i = (i + 1) & mask) {
            if (hashes[i] == hash && Arrays.equals(key, 0, key.length, b, from, to)) {
                return texts[i];
            }
        }
        String text = LogText.text(b, from, to);
        if (size >= maxFill) {
            Arrays.fill(keys, null);
            Arrays.fill(texts, null);
            size = 0;
            i = hash & mask;
        }
        keys[i] = Arrays.copyOfRange(b, from, to);
        hashes[i] = hash;
        texts[i] = text;
        size++;
        return text;
    }
}
