package dev.crawlerrors.crawler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * An open-addressing table from agent bytes to a yes/no answer, for one thread. Keys are copied
 * in; when the table is three-quarters full (or its key bytes fill their array) it is emptied
 * rather than grown, which bounds memory on logs with unbounded agent variety while keeping the
 * hot agents (they come straight back).
 *
 * <p>Layout: every parsed line asks, and a table of a few thousand agents does not stay in the
 * nearest caches, so a lookup is laid out to touch as few cache lines as possible: one
 * {@code long} per slot (the hash and where the key is), and the key's length, answer and bytes
 * side by side in one shared array. Separate arrays of hashes, key arrays and answers cost a
 * cache miss each. Keys are still compared byte for byte: equal hashes never make a match.
 */
final class AgentBytesCache {

    private static final int CAPACITY = 1 << 14;
    private static final int MAX_FILL = CAPACITY * 3 / 4;
    /** Room for the keys: a site's few thousand agents of a few hundred bytes each. */
    private static final int KEY_BYTES = 1 << 20;
    /** An entry's length (4 bytes) and answer (1 byte) before its key bytes. */
    private static final int HEADER = 5;

    /** Per slot: the key's hash in the high half, where its entry starts in {@link #entries} plus one in the low half; 0 is empty. */
    private final long[] slots = new long[CAPACITY];
    /** The entries back to back: the key's length, the answer (1 or 0), the key's bytes. */
    private final byte[] entries = new byte[KEY_BYTES];
    private int used;
    private int size;

    /** 1 or 0 for a cached answer, -1 when the agent is not cached. */
    int get(byte[] b, int from, int to, int hash) {
        int mask = CAPACITY - 1;
        int length = to - from;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            long slot = slots[i];
            if (slot == 0) {
                return -1;
            }
            if ((int) (slot >>> 32) == hash) {
                int at = (int) slot - 1;
                if ((int) INTS.get(entries, at) == length
                        && Arrays.equals(entries, at + HEADER, at + HEADER + length, b, from, to)) {
                    return entries[at + 4];
                }
            }
        }
    }

    void put(byte[] b, int from, int to, int hash, boolean value) {
        int length = to - from;
        if (HEADER + length > KEY_BYTES) {
            return; // never an agent, and not worth the table
        }
        if (size >= MAX_FILL || used + HEADER + length > KEY_BYTES) {
            Arrays.fill(slots, 0);
            size = 0;
            used = 0;
        }
        int mask = CAPACITY - 1;
        int i = hash & mask;
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        int at = used;
        INTS.set(entries, at, length);
        entries[at + 4] = (byte) (value ? 1 : 0);
        System.arraycopy(b, from, entries, at + HEADER, length);
        used += HEADER + length;
        slots[i] = (long) hash << 32 | (at + 1);
        size++;
    }

    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
}
