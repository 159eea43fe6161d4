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
     * A hash of the whole agent, eight bytes a step: every line pays it, so it multiplies words
     * (the golden-ratio constant, as in Fibonacci hashing) rather than folding byte by byte.
     */
    private static int hash(byte[] b, int from, int to) {
        long h = (to - from) * GOLDEN;
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            h = (h ^ (long) LONGS.get(b, i)) * GOLDEN;
            h ^= h >>> 29;
        }
        for (; i < to; i++) {
            h = (h ^ b[i]) * GOLDEN;
        }
        return (int) (h ^ (h >>> 32));
    }

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
}
