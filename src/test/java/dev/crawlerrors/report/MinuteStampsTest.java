package dev.crawlerrors.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MinuteStampsTest {

    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm");

    private static String expected(long millis, ZoneId zone) {
        return MINUTE.format(Instant.ofEpochMilli(millis).atZone(zone));
    }

    @Test
    void writesWhatTheFormatterWritesInEveryKindOfZone() {
        SplittableRandom random = new SplittableRandom(34);
        for (String id : new String[] {"UTC", "Europe/Brussels", "America/St_Johns", "Asia/Kathmandu", "Australia/Lord_Howe",
                "Pacific/Apia", "America/Sao_Paulo"}) {
            ZoneId zone = ZoneId.of(id);
            MinuteStamps stamps = new MinuteStamps(zone);
            for (int i = 0; i < 20_000; i++) {
                // times in and around this century, and a few anywhere from year 0 to 9999
                long millis = i % 10 == 0 ? random.nextLong(-62_167_219_200_000L, 253_402_214_400_000L)
                        : random.nextLong(0, 4_102_444_800_000L);
                assertThat(stamps.of(millis)).as("%s in %s", millis, id).isEqualTo(expected(millis, zone));
            }
        }
    }

    @Test
    void followsEachClockChangeOfAZoneInEitherDirection() {
        ZoneId zone = ZoneId.of("Europe/Brussels");
        MinuteStamps stamps = new MinuteStamps(zone);
        long spring = Instant.parse("2026-03-29T01:00:00Z").toEpochMilli();
        long autumn = Instant.parse("2026-10-25T01:00:00Z").toEpochMilli();
        for (long around : new long[] {spring, autumn, spring, autumn}) {
            for (long millis = around - 3_600_000; millis <= around + 3_600_000; millis += 59_999) {
                assertThat(stamps.of(millis)).isEqualTo(expected(millis, zone));
            }
            assertThat(stamps.of(around - 1)).isEqualTo(expected(around - 1, zone));
            assertThat(stamps.of(around)).isEqualTo(expected(around, zone));
        }
    }

    @Test
    void yearsOfMoreThanFourDigitsOrBeforeYearZeroAreWrittenAsTheFormatterWritesThem() {
        ZoneId zone = ZoneId.of("Europe/Brussels");
        MinuteStamps stamps = new MinuteStamps(zone);
        for (long millis : new long[] {-62_167_219_200_001L, -70_000_000_000_000L, 253_402_300_800_000L, 300_000_000_000_000L, -1, 0}) {
            assertThat(stamps.of(millis)).isEqualTo(expected(millis, zone));
        }
    }
}
