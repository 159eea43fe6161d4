package dev.crawlerrors.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ImportBarLineTest {

    private static final long KIB = 1024;
    private static final long GIB = 1L << 30;
    private static final long THREE_SECONDS = 3_000_000_000L;

    /** The third of four logs read, 207 of 276 KiB in 3 s, 2,305,188 lines: 768,396 lines/s, 1 s to go. */
    private static final ImportBarLine THIRD_OF_FOUR = new ImportBarLine(207 * KIB, 276 * KIB, 2_305_188, THREE_SECONDS, "3/4", "big3.log");

    @Test
    void atEightyColumnsShowsEveryFigureWholeAndABarOfFourteen() {
        // 79 characters: the last column stays empty
        assertThat(THIRD_OF_FOUR.fit(79))
                .isEqualTo(" 75% [==========>   ] 207/276 KiB    768,396 lines/s  ETA 0:00:01  3/4 big3.log");
    }

    @Test
    void aWiderTerminalWidensTheBar() {
        assertThat(THIRD_OF_FOUR.fit(159)).isEqualTo(" 75% [" + "=".repeat(70) + ">" + " ".repeat(23)
                + "] 207/276 KiB    768,396 lines/s  ETA 0:00:01  3/4 big3.log");
    }

    @Test
    void aLongNameIsShortenedInItsMiddleBeforeTheBarNarrowsBelowTen() {
        ImportBarLine line = new ImportBarLine(207 * KIB, 276 * KIB, 2_305_188, THREE_SECONDS, "3/4",
                "access.log-20251102-www.example.com.gz");

        assertThat(line.fit(79))
                .isEqualTo(" 75% [=======>  ] 207/276 KiB    768,396 lines/s  ETA 0:00:01  3/4 acc...com.gz");
    }

    @Test
    void aNarrowTerminalLosesTheNameThenTheBarButNeverTheFigures() {
        assertThat(THIRD_OF_FOUR.fit(62)).isEqualTo(" 75% [========>  ] 207/276 KiB    768,396 lines/s  ETA 0:00:01");
        assertThat(THIRD_OF_FOUR.fit(50)).isEqualTo(" 75% 207/276 KiB    768,396 lines/s  ETA 0:00:01");
    }

    @Test
    void aSingleLogIsNamedWithoutCounting() {
        ImportBarLine line = new ImportBarLine(207 * KIB, 276 * KIB, 2_305_188, THREE_SECONDS, "", "access.log");

        assertThat(line.fit(79)).isEqualTo(" 75% [============>   ] 207/276 KiB    768,396 lines/s  ETA 0:00:01  access.log");
    }

    @Test
    void largeImportsAreCountedInTenthsOfGibibytesAndTheirHours() {
        // 13.25 of 53 GiB in 10 minutes: 30 minutes to go
        ImportBarLine line = new ImportBarLine(53 * GIB / 4, 53 * GIB, 1_200_000_000, 600_000_000_000L, "", "access.log");

        assertThat(line.fit(79)).isEqualTo(" 25% [===>          ] 13.2/53.0 GiB  2,000,000 lines/s  ETA 0:30:00  access.log");
    }

    @Test
    void beforeAnyByteIsReadTheTimeLeftIsUnknown() {
        ImportBarLine line = new ImportBarLine(0, 276 * KIB, 0, 0, "1/4", "big1.log");

        assertThat(line.fit(79)).isEqualTo("  0% [>             ]   0/276 KiB          0 lines/s  ETA -:--:--  1/4 big1.log");
    }

    @Test
    void withoutATotalShowsWhatWasReadAndItsRateOnly() {
        ImportBarLine line = new ImportBarLine(207 << 20, -1, 2_305_188, THREE_SECONDS, "", "-");

        assertThat(line.fit(79)).isEqualTo("207 MiB    768,396 lines/s  -");
    }
}
