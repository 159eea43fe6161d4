package dev.crawlerrors.store.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ClickHouseTsvTest {

    @Test
    void escapesWhatTabSeparatedEscapesAndWritesNullAsBackslashN() {
        ClickHouseTsv.Writer rows = new ClickHouseTsv.Writer(16);
        rows.field("a\tb\nc\\d\re\u0000f\bg\fh'i").tab().nul().tab().field(-42).tab().unsigned(-1L).tab().field(0.1 + 0.2).endRow();
        assertThat(new String(rows.bytes(), 0, rows.size(), StandardCharsets.UTF_8))
                .isEqualTo("a\\tb\\nc\\\\d\\re\\0f\\bg\\fh'i\t\\N\t-42\t18446744073709551615\t0.30000000000000004\n");
        assertThat(rows.rows()).isEqualTo(1);
    }

    @Test
    void readsWhatClickHouseWritesTheQuoteEscapedAndNullsAsNull() {
        byte[] answer = "it\\'s\t\\N\t-7\t18446744073709551615\t1e-7\tcaf\u00e9 \\\\N\n\tnan\n".getBytes(StandardCharsets.UTF_8);
        ClickHouseTsv.Reader r = new ClickHouseTsv.Reader(answer);
        assertThat(r.nextRow()).isTrue();
        assertThat(r.text()).isEqualTo("it's");
        assertThat(r.text()).isNull();
        assertThat(r.number()).isEqualTo(-7);
        assertThat(r.unsigned()).isEqualTo(-1L);
        assertThat(r.decimal()).isEqualTo(1e-7);
        assertThat(r.text()).isEqualTo("caf\u00e9 \\N");
        assertThat(r.nextRow()).isTrue();
        assertThat(r.text()).isEmpty();
        assertThat(r.decimal()).isNaN();
        assertThat(r.nextRow()).isFalse();
    }

    @Test
    void skipsTheFieldsOfARowNotRead() {
        ClickHouseTsv.Reader r = new ClickHouseTsv.Reader("1\t2\t3\n4\t5\t6\n".getBytes(StandardCharsets.UTF_8));
        r.nextRow();
        assertThat(r.number()).isEqualTo(1);
        r.nextRow();
        assertThat(r.number()).isEqualTo(4);
    }

    @Property
    void anyTextComesBackAsItWentIn(@ForAll String text, @ForAll String other) {
        String valid = new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8); // lone surrogates cannot be UTF-8
        ClickHouseTsv.Writer rows = new ClickHouseTsv.Writer(4);
        rows.field(valid).tab().field(other).endRow();
        ClickHouseTsv.Reader r = new ClickHouseTsv.Reader(Arrays.copyOf(rows.bytes(), rows.size()));
        assertThat(r.nextRow()).isTrue();
        assertThat(r.text()).isEqualTo(valid);
        assertThat(r.text()).isEqualTo(new String(other.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
        assertThat(r.nextRow()).isFalse();
    }
}
