package dev.crawlerrors.crawler;

import java.util.Arrays;

/**
 * An open-addressing table from agent bytes to a yes/no answer, for one thread. Keys are copied
 * in; when the table is three-quarters full, or its key bytes fill their array, it is emptied
 * rather than grown, which bounds memory on logs with unbounded agent variety while keeping the
 * hot agents (they come straight back). Agents longer than {@value #MAX_KEY_BYTES} bytes are not
 * cached: {@link #put} ignores them and {@link #get} never finds them.
 *
 * <p>The hash is the caller's ({@code AgentFilter.hash}): the combined parser computes it while it
 * scans the agent, so the agent is not read again to hash it. Keys are still compared byte for
 * byte: equal hashes never make a match.
 *
 * <p>Design: this lookup runs for every line, and nine in ten lines ask about an agent that is
 * here, so its cost is the memory it touches. A slot is one {@code long} holding the key's hash,
 * its length, where its bytes are and the answer; the keys' bytes lie end to end in one array.
 * A hit reads one slot and then the key's bytes in a row, where separate arrays of hashes, keys
 * and answers (and a key array object per agent, scattered over the heap) cost a cache miss
 * each. A slot whose hash or length differs is passed over without touching any key bytes.
 */
final class AgentBytesCache {

    private static final int CAPACITY = 1 << 14;
    private static final int MAX_FILL = CAPACITY * 3 / 4;

    // A slot's bits, high to low: the hash (32), the key's length plus one (11; zero only in an
    // empty slot), the offset of the key's bytes in keyBytes (20), the answer (1).
    private static final int LENGTH_SHIFT = 21;
    private static final int OFFSET_SHIFT = 1;
    private static final int OFFSET_BITS = 20;
    private static final long OFFSET_MASK = (1L << OFFSET_BITS) - 1;
    /** The bits a lookup must find equal: the hash and the length. */
    private static final long KEY_MASK = ~((OFFSET_MASK << OFFSET_SHIFT) | 1L);

    /** The longest agent cached: the length plus one must fit its 11 bits. Real agents are a few hundred bytes. */
    static final int MAX_KEY_BYTES = (1 << (32 - LENGTH_SHIFT)) - 2;
    /** Room for the keys' bytes: what the 20 offset bits address (kept below it, so an offset always fits), about 7,000 agents of 150 bytes. */
    private static final int KEY_BYTES = 1 << OFFSET_BITS;

    private final long[] slots = new long[CAPACITY];
    private final byte[] keyBytes = new byte[KEY_BYTES];
    private int keyBytesUsed;
    private int size;

    /** 1 or 0 for a cached answer, -1 when the agent is not cached; {@code hash} is {@code AgentFilter.hash} of the agent. */
    int get(byte[] b, int from, int to, int hash) {
        int length = to - from;
        if (length > MAX_KEY_BYTES) {
            return -1;
        }
        long key = keyOf(hash, length);
        int mask = CAPACITY - 1;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            long slot = slots[i];
            if (slot == 0) {
                return -1;
            }
            if ((slot & KEY_MASK) == key) {
                int offset = (int) (slot >>> OFFSET_SHIFT & OFFSET_MASK);
                if (Arrays.equals(keyBytes, offset, offset + length, b, from, to)) {
                    return (int) (slot & 1);
                }
            }
        }
    }

    void put(byte[] b, int from, int to, int hash, boolean value) {
        int length = to - from;
        if (length > MAX_KEY_BYTES) {
            return;
        }
        if (size >= MAX_FILL || keyBytesUsed + length >= KEY_BYTES) {
            Arrays.fill(slots, 0);
            keyBytesUsed = 0;
            size = 0;
        }
        int mask = CAPACITY - 1;
        int i = hash & mask;
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        System.arraycopy(b, from, keyBytes, keyBytesUsed, length);
        slots[i] = keyOf(hash, length) | (long) keyBytesUsed << OFFSET_SHIFT | (value ? 1 : 0);
        keyBytesUsed += length;
        size++;
    }

    private static long keyOf(int hash, int length) {
        return (long) hash << 32 | (long) (length + 1) << LENGTH_SHIFT;
    }
}
