package dev.crawlerrors.store;

import java.util.Arrays;

/**
 * A set of longs in one array (open addressing, linear probing), for sets of millions of numbers
 * that a {@code HashSet<Long>} would keep as as many objects: 16 bytes a number at most. Not
 * thread-safe. {@link Long#MIN_VALUE} cannot be held (it marks an empty slot).
 */
public final class LongSet {

    private static final long EMPTY = Long.MIN_VALUE;
    private long[] slots = new long[1024];
    private int size;

    public LongSet() {
        Arrays.fill(slots, EMPTY);
    }

    /** Adds {@code value}; true when it was not there. */
    public boolean add(long value) {
        if (size * 2 >= slots.length) {
            grow();
        }
        int mask = slots.length - 1;
        int i = spread(value) & mask;
        while (slots[i] != EMPTY) {
            if (slots[i] == value) {
                return false;
            }
            i = (i + 1) & mask;
        }
        slots[i] = value;
        size++;
        return true;
    }

    public boolean contains(long value) {
        int mask = slots.length - 1;
        int i = spread(value) & mask;
        while (slots[i] != EMPTY) {
            if (slots[i] == value) {
                return true;
            }
            i = (i + 1) & mask;
        }
        return false;
    }

    public int size() {
        return size;
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        Arrays.fill(slots, EMPTY);
        size = 0;
        for (long value : old) {
            if (value != EMPTY) {
                add(value);
            }
        }
    }

    private static int spread(long value) {
        long h = value * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 32);
    }
}
