package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.ingest.BadLineException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each kind of field read on its own: what it keeps of a value, which values it refuses and the
 * message that names the field as the format wrote it, and where two fields say the same thing,
 * which one wins.
 */
class FieldKindTest {

    private final LineFields out = new LineFields();

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private void read(FieldKind kind, String value) throws BadLineException {
        byte[] b = bytes(value);
        kind.read(b, 0, b.length, out, "$field");
    }

    @Test
    void readsATimeOfEachNotation() throws BadLineException {
        read(FieldKind.TIME_LOCAL, "14/May/2025:09:31:02 +0200");
        assertThat(out.epochMillis).isEqualTo(1_747_207_862_000L);
        assertThat(out.offsetMinutes).isEqualTo(120);

        read(FieldKind.TIME_BRACKETED, "[14/May/2025:09:31:02 -0130]");
        assertThat(out.epochMillis).isEqualTo(1_747_207_862_000L + 210 * 60_000L);
        assertThat(out.offsetMinutes).isEqualTo(-90);

        read(FieldKind.TIME_ISO8601, "2025-05-14T09:31:02+02:00");
        assertThat(out.epochMillis).isEqualTo(1_747_207_862_000L);

        read(FieldKind.EPOCH_SECONDS, "1747207862.123");
        assertThat(out.epochMillis).isEqualTo(1_747_207_862_123L);
        read(FieldKind.EPOCH_MILLIS, "1747207862123");
        assertThat(out.epochMillis).isEqualTo(1_747_207_862_123L);
        read(FieldKind.EPOCH_MICROS, "1747207862123456");
        assertThat(out.epochMillis).isEqualTo(1_747_207_862_123L);
        assertThat(out.offsetMinutes).isZero();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "TIME_LOCAL|13/Aug/2025|bad time",
            "TIME_BRACKETED|14/May/2025:09:31:02 +0200|bad time",
            "TIME_ISO8601|yesterday|bad time",
            "EPOCH_SECONDS|soon|bad time",
            "STATUS|2000|bad status",
            "STATUS|20x|bad status",
            "BODY_BYTES|12kB|bad size",
            "BYTES_SENT|1234567890123456789|bad size",
            "SECONDS|fast|bad duration",
            "UPSTREAM_SECONDS|0.012, slow|bad duration",
            "CLIENT|crawler/index.html|no client address"})
    void refusesAValueNotOfItsKindNamingTheFieldAndWhatWasExpected(FieldKind kind, String value, String reason) {
        assertThatThrownBy(() -> read(kind, value))
                .isInstanceOfSatisfying(BadLineException.class, e -> assertThat(e.reason()).isEqualTo(reason))
                .hasMessage("'" + value + "' is not a $field; expected " + kind.expected());
    }

    @Test
    void quotesOnlyAnExcerptOfAHostileValueSafely() {
        String value = "\u001B[2J" + "9".repeat(200);

        assertThatThrownBy(() -> read(FieldKind.STATUS, value))
                .hasMessageNotContaining("\u001B").hasMessageContaining("...").message().hasSizeLessThan(150);
    }

    @Test
    void readsAStatusAndSizes() throws BadLineException {
        read(FieldKind.STATUS, "404");
        read(FieldKind.BYTES_SENT, "900");
        assertThat(out.status).isEqualTo(404);
        assertThat(out.bytes).isEqualTo(900);

        read(FieldKind.BODY_BYTES, "-");

        assertThat(out.bytes).as("the body size outranks the whole response's; '-' is none").isEqualTo(-1);
    }

    @Test
    void keepsTheBodySizeWhicheverFieldComesFirst() throws BadLineException {
        read(FieldKind.BODY_BYTES, "512");
        read(FieldKind.BYTES_SENT, "900");

        assertThat(out.bytes).isEqualTo(512);
    }

    @Test
    void keepsTheMostExactDuration() throws BadLineException {
        read(FieldKind.UPSTREAM_SECONDS, "0.010, 0.003 : 0.002");
        assertThat(out.durationMs).isEqualTo(15.0, org.assertj.core.data.Offset.offset(1e-9));

        read(FieldKind.MICROSECONDS, "153");
        assertThat(out.durationMs).isEqualTo(0.153);

        read(FieldKind.WHOLE_SECONDS, "2");
        assertThat(out.durationMs).as("whole seconds rank below microseconds").isEqualTo(0.153);
    }

    @Test
    void readsNoDurationFromADash() throws BadLineException {
        read(FieldKind.SECONDS, "-");
        read(FieldKind.UPSTREAM_SECONDS, "-");

        assertThat(out.durationMs).isNaN();
    }

    @ParameterizedTest
    @CsvSource({"example.com:8080, example.com", "example.com, example.com", "a:b:c, a:b:c", "host:, host:", "host:80x, host:80x",
        "'[2001:db8::1]:8080', '[2001:db8::1]'", "'[2001:db8::1]', '[2001:db8::1]'", "'[::1]:', '[::1]:'"})
    void dropsTheHostsPort(String value, String host) throws BadLineException {
        byte[] b = bytes(value);

        FieldKind.HOST.read(b, 0, b.length, out, "$host");

        assertThat(new String(b, out.hostFrom, out.hostTo - out.hostFrom, StandardCharsets.UTF_8)).isEqualTo(host);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-", ""})
    void readsADashOrNothingAsNoneInOptionalFields(String value) throws BadLineException {
        for (FieldKind kind : new FieldKind[] {FieldKind.ARGS, FieldKind.LOCATION, FieldKind.SIGNATURE, FieldKind.SIGNATURE_INPUT,
                FieldKind.SIGNATURE_AGENT, FieldKind.FORWARDED_FOR, FieldKind.CONNECTING_IP}) {
            read(kind, value);
        }

        assertThat(out.queryFrom).isEqualTo(LineFields.NONE);
        assertThat(out.locationFrom).isEqualTo(LineFields.NONE);
        assertThat(out.forwardedFrom).isEqualTo(LineFields.NONE);
        assertThat(out.connectingFrom).isEqualTo(LineFields.NONE);
        assertThat(out.signed()).isFalse();
    }

    @Test
    void takesApachesQueryWithoutItsQuestionMark() throws BadLineException {
        read(FieldKind.QUERY_STRING, "?a=1");
        assertThat(out.queryFrom).isEqualTo(1);
        assertThat(out.queryTo).isEqualTo(4);

        out.reset();
        read(FieldKind.QUERY_STRING, "");
        assertThat(out.queryFrom).isEqualTo(LineFields.NONE);
    }

    @Test
    void marksALineWithSignatureFieldsSigned() throws BadLineException {
        read(FieldKind.SIGNATURE_AGENT, "\"https://agent.example\"");

        assertThat(out.signed()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(FieldKind.class)
    void fixesAWidthOnlyForTimesOfOneLength(FieldKind kind) {
        assertThat(kind.width() > 0).isEqualTo(kind == FieldKind.TIME_LOCAL || kind == FieldKind.TIME_BRACKETED);
        if (kind.width() > 0) {
            assertThat(kind.isTime()).isTrue();
        }
        assertThat(kind.expected()).isNotBlank();
    }

    @Test
    void acceptsAddressesAsTheClientButNotNames() throws BadLineException {
        read(FieldKind.CLIENT, "2001:db8::1");
        assertThat(out.clientFrom).isZero();
        read(FieldKind.CLIENT, "[2001:db8::1]");
        assertThat(out.clientTo).isEqualTo(13);

        assertThatThrownBy(() -> read(FieldKind.CLIENT, "-")).isInstanceOf(BadLineException.class);
    }
}
