package dev.crawlerrors.crawler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * An open-addressing table from agent bytes to a yes/no answer, for one thread. Keys are copied
 * in; when the table is three-quarters full it is emptied rather than grown, which bounds memory
 * on logs with unbounded agent variety while keeping the hot agents (they come straight back).
 */
final class AgentBytesCache {

    private static final int CAPACITY = 1 << 14;
    private static final int MAX_FILL = CAPACITY * 3 / 4;

    private final byte[][] keys = new byte[CAPACITY][];
    private final int[] hashes = new int[CAPACITY];
    private final boolean[] values = new boolean[CAPACITY];
    private int size;

    /** 1 or 0 for a cached answer, -1 when the agent is not cached. */
    int get(byte[] b, int from, int to) {
        int hash = hash(b, from, to);
        int mask = CAPACITY - 1;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            byte[] key = keys[i];
            if (key == null) {
                return -1;
            }
            if (hashes[i] == hash && Arrays.equals(key, 0, key.length, b, from, to)) {
                return values[i] ? 1 : 0;
            }
        }
    }

    void put(byte[] b, int from, int to, boolean value) {
        if (size >= MAX_FILL) {
            Arrays.fill(keys, null);
            size = 0;
        }
        int hash = hash(b, from, to);
        int mask = CAPACITY - 1;
        int i = hash & mask;
        while (keys[i] != null) {
            i = (i + 1) & mask;
        }
        keys[i] = Arrays.copyOfRange(b, from, to);
        hashes[i] = hash;
        values[i] = value;
        size++;
    }

    /**
     * A hash of the whole agent, sixteen bytes a step in two independent lanes: every line pays
     * it, so it multiplies words (the golden-ratio constant, as in Fibonacci hashing) rather than
     * folding byte by byte, and the two lanes' multiplications overlap in the CPU instead of
     * waiting on each other. A rotation in each step carries the high bits of a word down to the
     * low bits that pick the slot; a final mix spreads what is left.
     */
    static int hash(byte[] b, int from, int to) {
        long h1 = (to - from) * GOLDEN;
        long h2 = ~h1;
        int i = from;
        for (; i + 2 * Long.BYTES <= to; i += 2 * Long.BYTES) {
            h1 = Long.rotateLeft(h1 ^ (long) LONGS.get(b, i), 29) * GOLDEN;
            h2 = Long.rotateLeft(h2 ^ (long) LONGS.get(b, i + Long.BYTES), 29) * SECOND;
        }
        for (; i < to; i++) {
            h1 = (h1 ^ b[i]) * GOLDEN;
        }
        long h = h1 ^ Long.rotateLeft(h2, 32);
        h ^= h >>> 33;
        h *= SECOND;
        h ^= h >>> 29;
        return (int) h;
    }

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    /** Another odd constant with well-mixed bits (from the SplitMix64 finaliser). */
    private static final long SECOND = 0xBF58476D1CE4E5B9L;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
}
