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
    void keepsEachAnswerBesideItsOwnKeyWhenHashesCollide() {
        byte[] bot = "Googlebot/2.1".getBytes(StandardCharsets.US_ASCII);
        byte[] person = "Firefox/138.0".getBytes(StandardCharsets.US_ASCII);

        cache.put(bot, 0, bot.length, 7, true);
        cache.put(person, 0, person.length, 7, false);

        assertThat(cache.get(bot, 0, bot.length, 7)).isEqualTo(1);
        assertThat(cache.get(person, 0, person.length, 7)).isEqualTo(0);
    }

    @Test
    void remembersAnEmptyAgent() {
        byte[] line = "\"\"".getBytes(StandardCharsets.US_ASCII);

        cache.put(line, 1, 1, AgentFilter.hash(line, 1, 1), false);

        assertThat(cache.get(line, 1, 1, AgentFilter.hash(line, 1, 1))).isEqualTo(0);
    }

    @Test
    void doesNotCacheAgentsLongerThanItsLimit() {
        byte[] longest = "a".repeat(AgentBytesCache.MAX_KEY_BYTES).getBytes(StandardCharsets.US_ASCII);
        byte[] tooLong = "a".repeat(AgentBytesCache.MAX_KEY_BYTES + 1).getBytes(StandardCharsets.US_ASCII);

        cache.put(longest, 0, longest.length, AgentFilter.hash(longest, 0, longest.length), true);
        cache.put(tooLong, 0, tooLong.length, AgentFilter.hash(tooLong, 0, tooLong.length), true);

        assertThat(cache.get(longest, 0, longest.length, AgentFilter.hash(longest, 0, longest.length))).isEqualTo(1);
        assertThat(cache.get(tooLong, 0, tooLong.length, AgentFilter.hash(tooLong, 0, tooLong.length))).isEqualTo(-1);
    }

    @Test
    void startsOverWhenItsKeyBytesAreFullAndAnswersForWhatCameSince() {
        // 2,000 agents of 1,000 bytes fill the key bytes (1 MiB) long before three quarters of the slots
        byte[] first = null;
        byte[] agent = null;
        for (int i = 0; i < 2_000; i++) {
            agent = String.format("%-1000d", i).getBytes(StandardCharsets.US_ASCII);
            cache.put(agent, 0, agent.length, AgentFilter.hash(agent, 0, agent.length), i % 2 == 1);
            if (first == null) {
                first = agent;
            }
        }

        assertThat(cache.get(first, 0, first.length, AgentFilter.hash(first, 0, first.length))).isEqualTo(-1);
        assertThat(cache.get(agent, 0, agent.length, AgentFilter.hash(agent, 0, agent.length))).isEqualTo(1);
    }
}
