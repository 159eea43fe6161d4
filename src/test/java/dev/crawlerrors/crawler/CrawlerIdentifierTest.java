package dev.crawlerrors.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CrawlerIdentifierTest {

    private final CrawlerIdentifier identifier = new CrawlerIdentifier(CrawlerCatalog.builtIn());

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.7103.92 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)|Googlebot Smartphone|crawler_search",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)|Googlebot Desktop|crawler_search",
        "Googlebot-Image/1.0|Googlebot-Image|crawler_search",
        "Googlebot-Video/1.0|Googlebot-Video|crawler_search",
        "Googlebot-News|Googlebot-News|crawler_search",
        "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.7103.92 Mobile Safari/537.36 (compatible; Google-InspectionTool/1.0;)|Google-InspectionTool|crawler_inspection_tool",
        "Mozilla/5.0 (Linux; Android 5.0; SM-G920A) AppleWebKit (KHTML, like Gecko) Chrome Mobile Safari (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)|AdsBot-Google-Mobile|crawler_ads",
        "AdsBot-Google (+http://www.google.com/adsbot.html)|AdsBot-Google|crawler_ads",
        "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)|Bingbot|crawler_search",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)|GPTBot|crawler_ai",
        "FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)|FeedFetcher-Google|fetcher_user",
    })
    void namesTheMostSpecificCrawler(String agent, String name, BotType type) {
        Optional<Crawler> crawler = identifier.identify(agent);

        assertThat(crawler).map(Crawler::name).contains(name);
        assertThat(crawler).map(Crawler::botType).contains(type);
    }

    @Test
    void matchesTokensWhateverTheirCase() {
        assertThat(identifier.identify("Mozilla/5.0 (compatible; BingBot/2.0)")).map(Crawler::name).contains("Bingbot");
    }

    @Test
    void findsNoCrawlerInPeoplesAgents() {
        assertThat(identifier.identify("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36")).isEmpty();
        assertThat(identifier.identify("")).isEmpty();
        assertThat(identifier.identify(null)).isEmpty();
    }

    @Test
    void theByteFilterAgreesWithIdentificationAndRemembersItsAnswer() {
        String[] agents = {"Googlebot/2.1", "Mozilla/5.0 Firefox/138.0", "GPTBot/1.2", "curl/8.0"};
        for (int round = 0; round < 2; round++) {
            for (String agent : agents) {
                byte[] bytes = ("xx" + agent + "yy").getBytes(StandardCharsets.UTF_8);
                assertThat(identifier.mayBeCrawler(bytes, 2, bytes.length - 2))
                        .as(agent).isEqualTo(identifier.identify(agent).isPresent());
            }
        }
    }

    @Test
    void theByteCacheStartsOverWhenFullAndStillAnswersRight() {
        for (int i = 0; i < 40_000; i++) {
            byte[] human = ("Mozilla/5.0 build " + i).getBytes(StandardCharsets.UTF_8);
            assertThat(identifier.mayBeCrawler(human, 0, human.length)).isFalse();
        }
        byte[] bot = "Googlebot/2.1".getBytes(StandardCharsets.UTF_8);
        assertThat(identifier.mayBeCrawler(bot, 0, bot.length)).isTrue();
    }
}
