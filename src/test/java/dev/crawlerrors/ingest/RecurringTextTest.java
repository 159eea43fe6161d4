package dev.crawlerrors.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecurringTextTest {

    private static final byte[] LINE = "Googlebot/2.1 bingbot/2.0 Googlebot/2.1 a\\x41".getBytes(StandardCharsets.UTF_8);

    private static String text(RecurringText texts, int from, int to) {
        return texts.text(LINE, from, to, ByteSearch.hash(LINE, from, to));
    }

    @Test
    void givesEqualBytesOneStringWhereverTheyAre() {
        RecurringText texts = new RecurringText(16);

        String first = text(texts, 0, 13);

        assertThat(first).isEqualTo("Googlebot/2.1");
        assertThat(text(texts, 26, 39)).isSameAs(first);
        assertThat(text(texts, 14, 25)).isEqualTo("bingbot/2.0");
    }

    @Test
    void comparesTheBytesNotJustTheHash() {
        RecurringText texts = new RecurringText(16);
        int sameHash = 42;

        String googlebot = texts.text(LINE, 0, 13, sameHash);
        String bingbot = texts.text(LINE, 14, 25, sameHash);

        assertThat(googlebot).isEqualTo("Googlebot/2.1");
        assertThat(bingbot).isEqualTo("bingbot/2.0");
        assertThat(texts.text(LINE, 26, 39, sameHash)).isSameAs(googlebot);
        assertThat(texts.text(LINE, 14, 25, sameHash)).isSameAs(bingbot);
    }

    @Test
    void undoesTheServersEscapesAsLogTextDoes() {
        RecurringText texts = new RecurringText(16);

        assertThat(text(texts, 40, LINE.length)).isEqualTo("aA").isEqualTo(LogText.text(LINE, 40, LINE.length));
    }

    @Test
    void startsOverWhenFullAndStillAnswersRight() {
        RecurringText texts = new RecurringText(4);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            values.add(("agent-" + i).getBytes(StandardCharsets.UTF_8));
        }
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < values.size(); i++) {
                byte[] value = values.get(i);
                assertThat(texts.text(value, 0, value.length, ByteSearch.hash(value, 0, value.length))).isEqualTo("agent-" + i);
            }
        }
    }
}
