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

    @Test
    void startsOverWhenItsKeyBytesAreFullAndKeepsAnsweringRight() {
        // 400 agents of 4,000 bytes are more than the 1 MiB of key bytes, long before the table is full
        for (int i = 0; i < 400; i++) {
            byte[] agent = longAgent(i, 4_000);
            cache.put(agent, 0, agent.length, AgentFilter.hash(agent, 0, agent.length), i % 2 == 0);
            assertThat(cache.get(agent, 0, agent.length, AgentFilter.hash(agent, 0, agent.length))).isEqualTo(i % 2 == 0 ? 1 : 0);
        }
        byte[] first = longAgent(0, 4_000);
        assertThat(cache.get(first, 0, first.length, AgentFilter.hash(first, 0, first.length))).isEqualTo(-1);
    }

    @Test
    void doesNotKeepAKeyLargerThanItsKeyBytes() {
        byte[] huge = longAgent(1, 2 << 20);

        cache.put(huge, 0, huge.length, AgentFilter.hash(huge, 0, huge.length), false);

        assertThat(cache.get(huge, 0, huge.length, AgentFilter.hash(huge, 0, huge.length))).isEqualTo(-1);
    }

    private static byte[] longAgent(int i, int length) {
        byte[] agent = new byte[length];
        java.util.Arrays.fill(agent, (byte) 'a');
        byte[] number = Integer.toString(i).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(number, 0, agent, 0, number.length);
        return agent;
    }
}
