package dev.crawlerrors.crawler;

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

    private static int hash(byte[] b, int from, int to) {
        int h = to - from;
        for (int i = from; i < to; i++) {
            h = 31 * h + b[i];
        }
        return h ^ (h >>> 16);
    }
}
