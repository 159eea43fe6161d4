package dev.crawlerrors.report;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Longs in blocks of {@value #BLOCK_ROWS}: each block's values as offsets from its least one, in the fewest
 * bytes (0 to 8) that hold the largest divided by their common factor (a log's times in whole seconds, its
 * durations in whole milliseconds), little-endian, read as one long, masked and multiplied back: the held rows'
 * columns ({@link DefaultViewRows}), a few bytes a row where an int each took four.
 */
final class PackedLongs {

    /** Rows of a block. */
    static final int BLOCK_BITS = 16;
    static final int BLOCK_ROWS = 1 << BLOCK_BITS;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long[] MASKS = new long[9];

    static {
        for (int w = 1; w < 8; w++) {
            MASKS[w] = (1L << (8 * w)) - 1;
        }
        MASKS[8] = -1L;
    }

    private final long[] bases;
    private final long[] scales;
    private final byte[] widths;
    private final byte[][] blocks;

    PackedLongs(long[] bases, long[] scales, byte[] widths, byte[][] blocks) {
        this.bases = bases;
        this.scales = scales;
        this.widths = widths;
        this.blocks = blocks;
    }

    long get(int i) {
        int b = i >>> BLOCK_BITS;
        int w = widths[b];
        return bases[b] + ((long) LONGS.get(blocks[b], (i & (BLOCK_ROWS - 1)) * w) & MASKS[w]) * scales[b];
    }

    /** The values of block {@code b} into {@code into}, {@code n} of them. */
    void unpack(int b, long[] into, int n) {
        read(b << BLOCK_BITS, n, into);
    }

    /**
     * Values {@code from} to {@code from + n - 1}, all of one block, into {@code into}: the block's width, base
     * and scale read once, where {@link #get} reads them for each value (a scan of the held rows reads a few
     * columns of hundreds of thousands of rows; value by value it took some 15 ns a row).
     */
    void read(int from, int n, long[] into) {
        int b = from >>> BLOCK_BITS;
        if (n > 0 && ((from + n - 1) >>> BLOCK_BITS) != b) {
            throw new IllegalArgumentException("values " + from + " to " + (from + n - 1) + " are not of one block");
        }
        int w = widths[b];
        long mask = MASKS[w];
        long base = bases[b];
        long scale = scales[b];
        byte[] block = blocks[b];
        int at = (from & (BLOCK_ROWS - 1)) * w;
        if (scale == 1) {
            for (int k = 0; k < n; k++, at += w) {
                into[k] = base + ((long) LONGS.get(block, at) & mask);
            }
        } else {
            for (int k = 0; k < n; k++, at += w) {
                into[k] = base + ((long) LONGS.get(block, at) & mask) * scale;
            }
        }
    }

    /** Block {@code b} packed again from {@code n} new values. */
    void repack(int b, long[] values, int n) {
        pack(values, n, bases, scales, widths, blocks, b);
    }

    /** {@code n} values packed as one block, appended to {@code bases}, {@code widths} and {@code blocks} at {@code b}. */
    static long pack(long[] values, int n, long[] bases, long[] scales, byte[] widths, byte[][] blocks, int b) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int k = 0; k < n; k++) {
            min = Math.min(min, values[k]);
            max = Math.max(max, values[k]);
        }
        long range = n == 0 ? 0 : max - min; // read unsigned: a range past a long's wraps and comes back
        // the offsets' common factor (a log's times in whole seconds, its durations in whole milliseconds)
        long scale = 0;
        for (int k = 0; k < n && scale != 1 && range > 0; k++) {
            scale = gcd(scale, values[k] - min);
        }
        scale = range > 0 ? Math.max(1, scale) : 1;
        range /= scale;
        int w = (64 - Long.numberOfLeadingZeros(range) + 7) / 8;
        byte[] block = new byte[n * w + 8]; // a long read at the last value's place stays inside
        for (int k = 0; k < n; k++) {
            long offset = range > 0 && scale > 1 ? (values[k] - min) / scale : values[k] - min;
            int at = k * w;
            for (int j = 0; j < w; j++) {
                block[at + j] = (byte) (offset >>> (8 * j));
            }
        }
        bases[b] = n == 0 ? 0 : min;
        scales[b] = scale;
        widths[b] = (byte) w;
        blocks[b] = block;
        return block.length + 16L;
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    long bytes() {
        long sum = 17L * bases.length;
        for (byte[] block : blocks) {
            sum += block.length + 16;
        }
        return sum;
    }

    /** A column being filled, a block at a time. */
    static final class Builder {
        private final long[] bases;
        private final long[] scales;
        private final byte[] widths;
        private final byte[][] blocks;
        private final long[] staging;
        private int staged;
        private int block;

        Builder(int size) {
            int n = (size + BLOCK_ROWS - 1) >>> BLOCK_BITS;
            bases = new long[n];
            scales = new long[n];
            widths = new byte[n];
            blocks = new byte[n][];
            staging = new long[Math.max(1, Math.min(size, BLOCK_ROWS))];
        }

        /** Adds a value; the bytes its block took when it filled one, else 0. */
        long add(long value) {
            staging[staged++] = value;
            return staged == staging.length ? flush() : 0;
        }

        long flush() {
            if (staged == 0) {
                return 0;
            }
            long bytes = pack(staging, staged, bases, scales, widths, blocks, block++);
            staged = 0;
            return bytes;
        }

        PackedLongs packed() {
            return new PackedLongs(bases, scales, widths, blocks);
        }
    }
}
