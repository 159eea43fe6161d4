package dev.crawlerrors.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A packed column read a run of values at a time gives what it gives value by value, in every block's width and scale. */
class PackedLongsTest {

    @Test
    void aRunOfABlockReadsAsTheValuesReadOneByOne() {
        SplittableRandom random = new SplittableRandom(34);
        int size = 3 * PackedLongs.BLOCK_ROWS + 123;
        long[] values = new long[size];
        for (int i = 0; i < size; i++) {
            int block = i / PackedLongs.BLOCK_ROWS;
            values[i] = switch (block) {
                case 0 -> 1_700_000_000_000L + 1000L * random.nextInt(86_400); // whole seconds: a scale of 1000
                case 1 -> 7; // one value: no bytes a value
                case 2 -> random.nextLong(); // eight bytes
                default -> random.nextInt(200); // one byte
            };
        }
        PackedLongs.Builder builder = new PackedLongs.Builder(size);
        for (long value : values) {
            builder.add(value);
        }
        builder.flush();
        PackedLongs packed = builder.packed();

        long[] into = new long[PackedLongs.BLOCK_ROWS];
        for (int run = 0; run < 200; run++) {
            int from = random.nextInt(size);
            int blockEnd = Math.min(size, ((from / PackedLongs.BLOCK_ROWS) + 1) * PackedLongs.BLOCK_ROWS);
            int n = random.nextInt(blockEnd - from + 1);
            packed.read(from, n, into);
            for (int k = 0; k < n; k++) {
                assertThat(into[k]).as("value %d", from + k).isEqualTo(values[from + k]).isEqualTo(packed.get(from + k));
            }
        }
        assertThatThrownBy(() -> packed.read(PackedLongs.BLOCK_ROWS - 1, 2, into)).isInstanceOf(IllegalArgumentException.class);
    }
}
