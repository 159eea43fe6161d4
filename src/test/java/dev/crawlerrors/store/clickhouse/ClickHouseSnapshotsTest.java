package dev.crawlerrors.store.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a snapshot holds, as the SQL condition on a row's writer and batch, and which holds which. */
class ClickHouseSnapshotsTest {

    private static final long FENCE = 100L << 32;
    private static final long CRASHED = (50L << 32) | 3;
    private static final long ACTIVE = (200L << 32) | 9;

    @Test
    void listsTheWritersOfTheSnapshotAndTakesTheUnlistedByTheFence() {
        ClickHouseSnapshots.View view = new ClickHouseSnapshots.View(17, FENCE, new long[] {CRASHED, ACTIVE}, new long[] {4, 2});

        assertThat(view.visible()).isEqualTo("seq <= transform(writer, [toUInt64(" + CRASHED + "), " + ACTIVE + "], [toUInt64(4), 2],"
                + " if(writer < " + FENCE + ", toUInt64(18446744073709551615), toUInt64(0)))");
        assertThat(view.seqOf(CRASHED)).isEqualTo(4);
        assertThat(view.seqOf(ACTIVE)).isEqualTo(2);
        assertThat(view.seqOf(7L << 32)).as("a writer that closed before the fence: all of it").isEqualTo(-1);
        assertThat(view.seqOf(300L << 32)).as("a writer after the snapshot: none of it").isZero();
        assertThat(ClickHouseSnapshots.View.EMPTY.visible()).isEqualTo("0");
        assertThat(new ClickHouseSnapshots.View(5, FENCE, new long[0], new long[0]).visible())
                .isEqualTo("seq <= if(writer < " + FENCE + ", toUInt64(18446744073709551615), toUInt64(0))");
    }

    @Test
    void aLaterSnapshotHoldsAnEarlierOneAndNotTheOtherWayRound() {
        ClickHouseSnapshots.View before = new ClickHouseSnapshots.View(17, FENCE, new long[] {CRASHED, ACTIVE}, new long[] {4, 2});
        ClickHouseSnapshots.View after = new ClickHouseSnapshots.View(19, FENCE, new long[] {CRASHED, ACTIVE}, new long[] {4, 4});
        ClickHouseSnapshots.View elsewhere = new ClickHouseSnapshots.View(19, FENCE, new long[] {CRASHED, ACTIVE}, new long[] {6, 1});

        assertThat(after.contains(before)).isTrue();
        assertThat(before.contains(after)).isFalse();
        assertThat(elsewhere.contains(before)).isFalse();
        assertThat(after.contains(ClickHouseSnapshots.View.EMPTY)).isTrue();
        // listed against a later fence by another process: not taken as holding the earlier one
        assertThat(before.contains(new ClickHouseSnapshots.View(16, FENCE + (1L << 32), new long[] {CRASHED}, new long[] {4}))).isFalse();
    }
}
