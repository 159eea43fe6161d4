package dev.crawlerrors.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.ingest.AgentFilter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AgentBytesCacheTest {

    private final AgentBytesCache cache = new AgentBytesCache();

    @Test
    void answersForTheSameBytesWhereverTheyStandInTheLine() {
        byte[] stored = "..Googlebot/2.1..".getBytes(StandardCharsets.US_ASCII);
        byte[] asked = "\"Googlebot/2.1\" 0.012".getBytes(StandardCharsets.US_ASCII);

        cache.put(stored, 2, 15, AgentFilter.hash(stored, 2, 15), true);

        assertThat(cache.get(asked, 1, 14, AgentFilter.hash(asked, 1, 14))).isEqualTo(1);
    }

    @Test
    void anEqualHashIsNoMatchWhenTheBytesDiffer() {
        byte[] bot = "Googlebot/2.1".getBytes(StandardCharsets.US_ASCII);
        byte[] person = "Firefox/138.0".getBytes(StandardCharsets.US_ASCII);
        byte[] shorter = "Googlebot/2.".getBytes(StandardCharsets.US_ASCII);

        cache.put(bot, 0, bot.length, 7, true);

        assertThat(cache.get(person, 0, person.length, 7)).isEqualTo(-1);
        assertThat(cache.get(shorter, 0, shorter.length, 7)).isEqualTo(-1);
        assertThat(cache.get(bot, 0, bot.length, 7)).isEqualTo(1);
    }
}
