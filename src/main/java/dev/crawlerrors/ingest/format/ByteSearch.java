package dev.crawlerrors.ingest.format;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finds bytes in a line eight at a time. The parser's time goes mostly into looking for the next
 * quote, space or newline; testing a whole 64-bit word per step (the "has zero byte" trick from
 * Hacker's Delight, 6-1) instead of one byte per step is what makes it keep up with the disk.
 *
 * <p>For a word {@code x}, {@code (x - 0x01..01) & ~x & 0x80..80} is non-zero exactly when some byte
 * of {@code x} is zero; the lowest set bit marks the first such byte (borrows only disturb bytes
 * above it). XOR with the wanted byte repeated turns "equals c" into "is zero".
 */
public final class ByteSearch {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    private ByteSearch() {
    }

    /** The first index of {@code c} in {@code b[from, to)}, or -1. */
    public static int indexOf(byte[] b, int from, int to, byte c) {
        long pattern = (c & 0xFFL) * ONES;
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long found = zeroBytes((long) LONGS.get(b, i) ^ pattern);
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    /** The first index of {@code c1} or {@code c2} in {@code b[from, to)}, or -1. */
    public static int indexOfEither(byte[] b, int from, int to, byte c1, byte c2) {
        long pattern1 = (c1 & 0xFFL) * ONES;
        long pattern2 = (c2 & 0xFFL) * ONES;
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long word = (long) LONGS.get(b, i);
            long found = zeroBytes(word ^ pattern1) | zeroBytes(word ^ pattern2);
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] == c1 || b[i] == c2) {
                return i;
            }
        }
        return -1;
    }

    static long zeroBytes(long x) {
        return (x - ONES) & ~x & HIGHS;
    }

    /** The little-endian word at {@code b[i, i + 8)}. */
    static long word(byte[] b, int i) {
        return (long) LONGS.get(b, i);
    }

    /**
     * A hash of {@code b[from, to)}, the one {@link AgentFilter#hash} promises: its bytes taken as
     * little-endian words from {@code from}, the last one zero-padded, each folded in with
     * {@link #mixWord}, then {@link #finish}ed with the length. It is defined word by word so that a
     * parser can fold the words in while it reads them looking for a field's end (see
     * {@code LogText.closingQuoteInLine}) and get the same value without a second pass.
     */
    static int hash(byte[] b, int from, int to) {
        long h = HASH_SEED;
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            h = mixWord(h, word(b, i));
        }
        int rest = to - i;
        if (rest > 0) {
            long last;
            if (to >= Long.BYTES) {
                // the word that ends at to, shifted down: the rest's bytes, zero-padded
                last = word(b, to - Long.BYTES) >>> (Long.SIZE - 8 * rest);
            } else {
                last = 0;
                for (int k = to - 1; k >= i; k--) {
                    last = last << 8 | (b[k] & 0xFF);
                }
            }
            h = mixWord(h, last);
        }
        return finish(h, to - from);
    }

    static final long HASH_SEED = 0x2545F4914F6CDD1DL;

    /**
     * One word folded into a hash: an exclusive or, a multiplication and a rotation. The chain of
     * words runs beside the field scan that carries it, so its few cycles a word cost the scan next
     * to nothing; {@link #finish} mixes the end. The multiplication is what keeps agents apart: a
     * fold of rotations and exclusive ors alone is linear, and agents that differ only in a few
     * version digits cancelled out in it (753 of the benchmark log's 2,079 agents shared a hash).
     */
    static long mixWord(long h, long word) {
        return Long.rotateLeft((h ^ word) * 0x9E3779B97F4A7C15L, 29);
    }

    /** The folded words and the length, mixed so that every input bit moves the low bits (MurmurHash3's fmix64). */
    static int finish(long h, int length) {
        h ^= length * 0x9E3779B97F4A7C15L;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return (int) h;
    }
}
