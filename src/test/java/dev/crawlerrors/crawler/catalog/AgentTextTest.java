package dev.crawlerrors.crawler.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class AgentTextTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "Feedly/1.0 (+http://www.feedly.com/fetcher.html; like FeedFetcher-Google)|FeedFetcher-Google|true",
        "TelegramBot (like TwitterBot)|TwitterBot|true",
        "SentiBot www.sentibot.eu (compatible with Googlebot)|Googlebot|true",
        "Mozilla/5.0 (compatible; Like  \"Googlebot\")|Googlebot|true",
        "something similar to Bingbot|Bingbot|true",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)|Googlebot|false",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2)|GPTBot|false",
        "Mozilla/5.0 (compatible; unlike Googlebot)|Googlebot|false",
        "Googlebot|Googlebot|false",
    })
    void tellsAComparisonFromAName(String agent, String name, boolean comparison) {
        assertThat(AgentText.isComparison(agent, agent.indexOf(name))).isEqualTo(comparison);
    }

    @Test
    void lowersAsciiLettersOnlyAndKeepsEveryPosition() {
        assertThat(AgentText.lowerAscii("Mozilla/5.0 ÉBOT İx")).isEqualTo("mozilla/5.0 Ébot İx");
        assertThat(AgentText.lowerAscii("ABC-Déf")).isEqualTo("abc-déf");
        String plain = "already lower";
        assertThat(AgentText.lowerAscii(plain)).isSameAs(plain);
    }
}
