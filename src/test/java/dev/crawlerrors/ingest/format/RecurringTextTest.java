package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
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
    void undoesTheServersEscapesAsLogTextDoes() {
        RecurringText texts = new RecurringText(16);

        assertThat(text(texts, 40, LINE.length)).isEqualTo("aA").isEqualTo(LogText.text(LINE, 40, LINE.length));
    }
}
