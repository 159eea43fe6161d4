package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The times of every format, read without java.time on the per-line path, checked against
 * java.time's own reading of the same text; and the texts that are not times, refused.
 */
class LogTimeTest {

    private static final DateTimeFormatter CLF = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT);

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    @ParameterizedTest
    @ValueSource(strings = {"14/May/2025:09:31:02 +0200", "01/Jan/1970:00:00:00 +0000", "29/Feb/2024:23:59:59 -0930",
            "31/Dec/9999:12:00:00 +1800", "01/Jan/0001:00:00:00 -0100"})
    void readsCommonLogTimesAsJavaTimeDoes(String time) {
        byte[] b = bytes(time);
        OffsetDateTime expected = OffsetDateTime.parse(time, CLF);

        assertThat(LogTime.clf(b, 0, b.length)).isEqualTo(expected.toInstant().toEpochMilli());
        assertThat(LogTime.clfOffsetMinutes(b, 0)).isEqualTo(expected.getOffset().getTotalSeconds() / 60);
    }

    @ParameterizedTest
    @ValueSource(strings = {"29/Feb/2025:09:31:02 +0200", "14/Mai/2025:09:31:02 +0200", "14/May/2025:24:00:00 +0200",
            "14/May/2025:09:60:02 +0200", "14/May/2025:09:31:02 +1900", "14/May/2025:09:31:02 02000", "14/May/2025 09:31:02 +0200",
            "14/May/2025:09:31:02 +02", "00/May/2025:09:31:02 +0200", "31/Dec/9999:23:59:59 -0100"})
    void refusesWhatIsNotACommonLogTimeOrIsOutOfRange(String time) {
        byte[] b = bytes(time);

        assertThat(LogTime.clf(b, 0, b.length)).isEqualTo(LogTime.INVALID);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "2025-05-14T09:31:02+02:00   | 2025-05-14T09:31:02+02:00",
        "2025-05-14T07:31:02Z        | 2025-05-14T07:31:02Z",
        "2025-05-14 07:31:02.524Z    | 2025-05-14T07:31:02.524Z",
        "2025-05-14T09:31:02,5+0200  | 2025-05-14T09:31:02.5+02:00",
        "2025-05-14T01:31:02-06      | 2025-05-14T01:31:02-06:00",
        "2025-05-14T07:31:02         | 2025-05-14T07:31:02Z"})
    void readsIso8601TimesInEveryShapeTheLogsWrite(String time, String asJavaTimeWritesIt) {
        byte[] b = bytes(time);
        OffsetDateTime expected = OffsetDateTime.parse(asJavaTimeWritesIt);

        assertThat(LogTime.iso8601(b, 0, b.length)).isEqualTo(expected.toInstant().toEpochMilli());
        assertThat(LogTime.iso8601OffsetMinutes(b, 0, b.length)).isEqualTo(expected.getOffset().getTotalSeconds() / 60);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2025-05-14T07:31", "2025-13-14T07:31:02Z", "2025-05-14T07:31:02.Z", "2025-05-14T07:31:02+2:00",
            "2025/05/14T07:31:02Z"})
    void refusesWhatIsNotAnIso8601Time(String time) {
        byte[] b = bytes(time);

        assertThat(LogTime.iso8601(b, 0, b.length)).isEqualTo(LogTime.INVALID);
    }

    @ParameterizedTest
    @CsvSource({"1747207862.5241024, 1747207862524", "1747207862524, 1747207862524", "1747207862524102, 1747207862524",
            "1747207862524102400, 1747207862524", "0, 0"})
    void tellsAnEpochTimesUnitByItsSize(double value, long millis) {
        assertThat(LogTime.epochOfAnyUnit(value)).isEqualTo(millis);
    }

    @ParameterizedTest
    @CsvSource({"0.012, 1000, 12.0", "153, 1, 153.0", "7., 1, 7.0"})
    void readsDecimalsExactlyInTheUnitAsked(String text, double factor, double expected) {
        byte[] b = bytes(text);

        assertThat(LogTime.decimal(b, 0, b.length, factor)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "-1", "1.2.3", "1e3", "1234567890123456789", " 1"})
    void refusesWhatIsNotAPlainDecimal(String text) {
        byte[] b = bytes(text);

        assertThat(LogTime.decimal(b, 0, b.length)).isNaN();
    }
}
