package dev.crawlerrors.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class FiguresTest {

    @Test
    void groupsDigitsInThrees() {
        assertThat(Figures.grouped(0)).isEqualTo("0");
        assertThat(Figures.grouped(999)).isEqualTo("999");
        assertThat(Figures.grouped(1000)).isEqualTo("1,000");
        assertThat(Figures.grouped(5_000_000)).isEqualTo("5,000,000");
        assertThat(Figures.grouped(-1234567)).isEqualTo("-1,234,567");
        assertThat(Figures.grouped(Long.MIN_VALUE)).isEqualTo("-9,223,372,036,854,775,808");
    }

    @Property(tries = 2000)
    void groupsAsFormatDoes(@ForAll long n) {
        assertThat(Figures.grouped(n)).isEqualTo(String.format(Locale.ROOT, "%,d", n));
    }

    @Test
    void countsWithTheNounInTheSingularForOneOnly() {
        assertThat(Figures.counted(1, "line")).isEqualTo("1 line");
        assertThat(Figures.counted(0, "line")).isEqualTo("0 lines");
        assertThat(Figures.counted(2_000, "line")).isEqualTo("2,000 lines");
    }

    @Test
    void writesDecimalsRoundedHalfUp() {
        assertThat(Figures.fixed(3.14159, 2)).isEqualTo("3.14");
        assertThat(Figures.fixed(0.125, 2)).isEqualTo("0.13");
        assertThat(Figures.fixed(2.0, 1)).isEqualTo("2.0");
        assertThat(Figures.fixed(0.04, 1)).isEqualTo("0.0");
        assertThat(Figures.fixed(1023.96, 1)).isEqualTo("1024.0");
        assertThat(Figures.fixed(-1.25, 1)).isEqualTo("-1.3");
        assertThat(Figures.fixed(-0.001, 2)).isEqualTo("0.00");
        assertThat(Figures.fixed(7.5, 0)).isEqualTo("8");
        assertThat(Figures.fixed(Double.NaN, 2)).isEqualTo("NaN");
    }

    @Test
    void writesAnApproximateFigureToItsSignificantDigitsOnly() {
        // a duration read from 1% buckets: 1894.4 ms was shown as 1894.4, a tenth it cannot tell
        assertThat(Figures.significant(1894.4, 3)).isEqualTo("1,890");
        assertThat(Figures.significant(197.9, 3)).isEqualTo("198");
        assertThat(Figures.significant(12.34, 3)).isEqualTo("12.3");
        assertThat(Figures.significant(0.2, 3)).isEqualTo("0.2");
        assertThat(Figures.significant(0.2064, 3)).isEqualTo("0.206");
        assertThat(Figures.significant(123_456, 3)).isEqualTo("123,000");
        assertThat(Figures.significant(0, 3)).isEqualTo("0");
        assertThat(Figures.significant(-12.34, 3)).isEqualTo("-12.3");
    }

    @Property(tries = 2000)
    void writesDecimalsAsFormatDoesForValuesItCanHoldExactly(@ForAll @LongRange(min = 0, max = 2_000_000_000L) long k,
            @ForAll @IntRange(min = 0, max = 3) int decimals) {
        // k/1024 is exact in binary and in decimal, so %f (which rounds the shortest decimal
        // form) and fixed (which rounds the binary value) see the same number, halves included.
        double value = k / 1024.0;
        assertThat(Figures.fixed(value, decimals)).as("%s", value).isEqualTo(String.format(Locale.ROOT, "%." + decimals + "f", value));
    }
}
