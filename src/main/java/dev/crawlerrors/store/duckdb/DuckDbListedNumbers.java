package dev.crawlerrors.store.duckdb;

import dev.crawlerrors.store.UrlKey;

/**
 * The numbers of the URLs the sitemaps list ({@link DuckDbSitemaps#LISTED_NUMBERS}), sorted, as of
 * a count of the sitemaps' reads, with an index by their first bits: a URL number is a well-mixed
 * 63-bit hash ({@link UrlKey#number}), so a number's first bits say in which few places of the
 * sorted numbers it can be, and a test costs two reads of memory where a binary search of two
 * million took some twenty. Held: 8 bytes a number (two a sitemap URL: by host and target, and by
 * target alone), and the index's 4 bytes a number up to 4 MiB (2^20 places).
 */
final class DuckDbListedNumbers {

    /** The most bits the index goes by: 2^20 places of 4 bytes, 4 MiB. */
    private static final int MOST_BITS = 20;

    private final long reads;
    private final long[] numbers;
    /** Where the numbers whose first bits (shifted right by {@link #shift}) are b begin: {@code starts[b]}, to {@code starts[b + 1]}. */
    private final int[] starts;
    private final int shift;

    /** {@code numbers} sorted, distinct and not negative, as read after {@code reads} reads of the sitemaps. */
    DuckDbListedNumbers(long reads, long[] numbers) {
        this.reads = reads;
        this.numbers = numbers;
        int bits = Math.min(MOST_BITS, Math.max(1, 64 - Long.numberOfLeadingZeros(Math.max(1, numbers.length))));
        this.shift = 63 - bits;
        this.starts = new int[(1 << bits) + 1];
        int i = 0;
        for (int place = 0; place <= 1 << bits; place++) {
            while (i < numbers.length && (numbers[i] >>> shift) < place) {
                i++;
            }
            starts[place] = i;
        }
    }

    /** How many reads of the sitemaps the store had committed when these numbers were read. */
    long reads() {
        return reads;
    }

    /** The numbers, sorted (not to be changed). */
    long[] numbers() {
        return numbers;
    }

    /** Whether {@code number} is among them. */
    boolean contains(long number) {
        if (number < 0) {
            return false;
        }
        int place = (int) (number >>> shift);
        for (int i = starts[place], end = starts[place + 1]; i < end; i++) {
            long n = numbers[i];
            if (n >= number) {
                return n == number;
            }
        }
        return false;
    }

    /** The bytes held: the numbers and the index. */
    long bytes() {
        return 8L * numbers.length + 4L * starts.length;
    }
}
