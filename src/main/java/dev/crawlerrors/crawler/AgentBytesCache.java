package dev.crawlerrors.crawler;

import java.util.Arrays;

/**
 * An open-addressing table from agent bytes to a yes/no answer, for one thread. Keys are copied
 * in; when the table is three-quarters full it is emptied rather than grown, which bounds memory
 * on logs with unbounded agent variety while keeping the hot agents (they come straight back).
 *
 * <p>The hash is the caller's ({@code AgentFilter.hash}): the combined parser computes it while it
 * scans the agent, so the agent is not read again to hash it. Keys are still compared byte for
 * byte: equal hashes never make a match.
 */
final class AgentBytesCache {

    private static final int CAPACITY = 1 << 14;
    private static final int MAX_FILL = CAPACITY * 3 / 4;

    private final byte[][] keys = new byte[CAPACITY][];
    private final int[] hashes = new int[CAPACITY];
    private final boolean[] values = new boolean[CAPACITY];
    private int size;

    /** 1 or 0 for a cached answer, -1 when the agent is not cached; {@code hash} is {@code AgentFilter.hash} of the agent. */
    int get(byte[] b, int from, int to, int hash) {
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

    void put(byte[] b, int from, int to, int hash, boolean value) {
        if (size >= MAX_FILL) {
            Arrays.fill(keys, null);
            size = 0;
        }
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
}
