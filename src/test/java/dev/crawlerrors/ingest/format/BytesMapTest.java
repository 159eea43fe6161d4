package dev.crawlerrors.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BytesMapTest {

    private final BytesMap<Boolean> map = new BytesMap<>(16);

    @Test
    void findsTheSameBytesWhereverTheyStandInTheLine() {
        byte[] stored = "..Googlebot/2.1..".getBytes(StandardCharsets.US_ASCII);
        byte[] asked = "\"Googlebot/2.1\" 0.012".getBytes(StandardCharsets.US_ASCII);

        map.put(stored, 2, 15, ByteSearch.hash(stored, 2, 15), true);

        assertThat(map.get(asked, 1, 14, ByteSearch.hash(asked, 1, 14))).isTrue();
    }

    @Test
    void anEqualHashIsNoMatchWhenTheBytesDiffer() {
        byte[] bot = "Googlebot/2.1".getBytes(StandardCharsets.US_ASCII);
        byte[] person = "Firefox/138.0".getBytes(StandardCharsets.US_ASCII);
        byte[] shorter = "Googlebot/2.".getBytes(StandardCharsets.US_ASCII);

        map.put(bot, 0, bot.length, 7, true);

        assertThat(map.get(person, 0, person.length, 7)).isNull();
        assertThat(map.get(shorter, 0, shorter.length, 7)).isNull();
        assertThat(map.get(bot, 0, bot.length, 7)).isTrue();

        map.put(person, 0, person.length, 7, false);

        assertThat(map.get(person, 0, person.length, 7)).isFalse();
        assertThat(map.get(bot, 0, bot.length, 7)).isTrue();
    }

    @Test
    void startsOverWhenThreeQuartersFullAndStillAnswersRight() {
        // 16 slots: the 13th value empties the map; the 12 before it are gone, what follows is kept
        for (int i = 0; i < 13; i++) {
            put(i);
        }
        assertThat(get(0)).isNull();
        assertThat(get(11)).isNull();
        for (int i = 13; i < 20; i++) {
            put(i);
        }
        for (int i = 12; i < 20; i++) {
            assertThat(get(i)).as("value %d", i).isEqualTo(i % 3 == 0);
        }
    }

    private void put(int i) {
        byte[] key = key(i);
        map.put(key, 0, key.length, ByteSearch.hash(key, 0, key.length), i % 3 == 0);
    }

    private Boolean get(int i) {
        byte[] key = key(i);
        return map.get(key, 0, key.length, ByteSearch.hash(key, 0, key.length));
    }

    private static byte[] key(int i) {
        return ("agent-" + i).getBytes(StandardCharsets.US_ASCII);
    }
}
