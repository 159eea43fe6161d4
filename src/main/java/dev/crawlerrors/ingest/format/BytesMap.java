package dev.crawlerrors.ingest.format;

import java.util.Arrays;

/**
 * A map from byte ranges to values, for one thread: what a parser thread remembers of the fields
 * that recur from line to line, looked up by the bytes of the line itself before any string is
 * made. The crawler identifier keeps its answer per agent in one; {@link RecurringText} keeps the
 * strings of agents and addresses in others.
 *
 * <p>Open addressing, with the keys copied in. The hash is the caller's ({@link ByteSearch#hash},
 * which the combined parser computes while it scans the agent, so the agent is not read again to
 * hash it); keys are still compared byte for byte, so equal hashes never make a match. When three
 * quarters full the map is emptied rather than grown, which bounds memory on a log of endless
 * variety while the values that recur come straight back.
 */
public final class BytesMap<V> {

    private final int mask;
    private final int maxFill;
    private final byte[][] keys;
    private final int[] hashes;
    private final Object[] values;
    private int size;

    /** @param capacity a power of two */
    public BytesMap(int capacity) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
        }
        mask = capacity - 1;
        maxFill = capacity * 3 / 4;
        keys = new byte[capacity][];
        hashes = new int[capacity];
        values = new Object[capacity];
    }

    /** The value kept for the bytes {@code b[from, to)}, or null; {@code hash} is {@link ByteSearch#hash} of them. */
    @SuppressWarnings("unchecked")
    public V get(byte[] b, int from, int to, int hash) {
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            byte[] key = keys[i];
            if (key == null) {
                return null;
            }
            if (hashes[i] == hash && Arrays.equals(key, 0, key.length, b, from, to)) {
                return (V) values[i];
            }
        }
    }

    /** Keeps {@code value} (not null) for bytes that {@link #get} found no value for. */
    public void put(byte[] b, int from, int to, int hash, V value) {
        if (size >= maxFill) {
            Arrays.fill(keys, null);
            Arrays.fill(values, null);
            size = 0;
        }
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
