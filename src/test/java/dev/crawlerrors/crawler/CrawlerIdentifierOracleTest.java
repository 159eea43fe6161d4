package dev.crawlerrors.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The identification against agents that people outside this project labelled: device-detector's
 * bot fixtures (name and category each) and its other fixtures, which are people's browsers, apps,
 * devices and libraries (src/test/resources/agents). The fixtures are device-detector's of
 * 2020-09, the newest a package registry serves; its catalog (vendored) is of 2026-07.
 */
class CrawlerIdentifierOracleTest {

    /**
     * Names device-detector has changed since its fixtures were written, to what it calls those
     * agents today (a name device-detector now gives a bot of its own, such as Google's read-aloud
     * fetcher, once its Googlebot).
     */
    private static final Map<String, Pattern> RENAMED = Map.ofEntries(
            Map.entry("DuckDuckGo Bot", Pattern.compile("DuckDuckBot|DuckDuckGo-Favicons-Bot")),
            Map.entry("Facebook External Hit", Pattern.compile("facebookexternalhit|Facebook Crawler|facebookexternalua|facebookplatform")),
            Map.entry("Generic Bot", Pattern.compile("TweetedTimes Bot|Steve Bot|Trendsmap")),
            Map.entry("Googlebot", Pattern.compile("Google-Read-Aloud|DuplexWeb-Google")),
            Map.entry("IDG/IT", Pattern.compile("IDG")),
            Map.entry("Mixrank Bot", Pattern.compile("MixRank Bot")),
            Map.entry("Omgili bot", Pattern.compile("Omgilibot")),
            Map.entry("PocketParser", Pattern.compile("Pocket")),
            Map.entry("Qwantify", Pattern.compile("Qwantbot")),
            Map.entry("SEOkicks-Robot", Pattern.compile("SEOkicks")),
            Map.entry("Semrush Bot", Pattern.compile("SemrushBot")),
            Map.entry("Sputnik Bot", Pattern.compile("Sputnik Image Bot")),
            Map.entry("Uptime Robot", Pattern.compile("UptimeRobot")),
            Map.entry("Yandex Bot", Pattern.compile("Yandex.*|YaDirectFetcher")));

    private static CrawlerCatalog catalog;
    private static CrawlerIdentifier identifier;
    private static LongTail longTail;

    @BeforeAll
    static void identifier() {
        catalog = CrawlerCatalog.builtIn();
        longTail = catalog.longTail().orElseThrow();
        identifier = new CrawlerIdentifier(catalog);
    }

    @Test
    void identifiesEverySearchEngineAndAtLeastNineInTenOfAllBots() {
        List<AgentFixtures.Bot> bots = AgentFixtures.deviceDetectorBots();
        List<String> missed = new ArrayList<>();
        List<String> searchOrAiMissed = new ArrayList<>();
        for (AgentFixtures.Bot bot : bots) {
            if (identifier.identify(bot.agent()).isEmpty()) {
                missed.add(bot.name() + ": " + bot.agent());
                if (bot.category().startsWith("Search") || bot.category().startsWith("AI ")) {
                    searchOrAiMissed.add(bot.name() + ": " + bot.agent());
                }
            }
        }
        System.out.printf("device-detector's %d fixture bots: %d identified (%.1f%%)%n", bots.size(), bots.size() - missed.size(),
                100.0 * (bots.size() - missed.size()) / bots.size());

        assertThat(searchOrAiMissed).isEmpty();
        assertThat(bots.size() - missed.size()).isGreaterThanOrEqualTo((int) Math.ceil(bots.size() * 0.9));
        // device-detector itself no longer counts sqlmap a bot
        assertThat(missed).containsExactly("sqlmap: sqlmap/1.1.8.2#dev (http://sqlmap.org)");
    }

    @Test
    void namesEachBotAsDeviceDetectorDoesOrAsOurCatalogDoes() {
        List<String> misnamed = new ArrayList<>();
        for (AgentFixtures.Bot bot : AgentFixtures.deviceDetectorBots()) {
            Optional<Crawler> crawler = identifier.identify(bot.agent());
            if (crawler.isPresent() && !accepted(bot.name(), crawler.get().name()) && !renamedByWhatMatched(bot, crawler.get().name())) {
                misnamed.add(bot.name() + " named " + crawler.get().name() + ": " + bot.agent());
            }
        }
        assertThat(misnamed).isEmpty();
    }

    @Test
    void callsAlmostNoneOfPeoplesAgentsACrawler() {
        List<String> agents = new ArrayList<>(AgentFixtures.deviceDetectorOthers());
        agents.addAll(AgentFixtures.uapBrowsers());
        List<String> crawlers = new ArrayList<>();
        for (String agent : agents) {
            identifier.identify(agent).ifPresent(c -> crawlers.add(c.name() + ": " + agent));
        }
        System.out.printf("device-detector's and uap-core's %d agents of people: %d called crawlers (%.3f%%)%n", agents.size(),
                crawlers.size(), 100.0 * crawlers.size() / agents.size());

        assertThat(crawlers.size()).isLessThanOrEqualTo((int) (agents.size() * 0.0005));
        // a fixture that holds its YAML key: device-detector's generic bot knows "user agent" as a bot's word
        assertThat(crawlers).containsExactly("Generic Bot: user_agent: Mozilla/5.0 Linux; Android 8.1.0; BQ-6010G AppleWebKit/537.36 "
                + "KHTML, like Gecko Chrome/73.0.3683.90 Mobile Safari/537.36");
    }

    /**
     * Whether {@code got} is what device-detector's entry of the fixture's name matched in its agent,
     * where that name is one of ours for another crawler (its Googlebot entry also matches Google Web
     * Preview): the long tail names such an agent for what it is ({@link LongTail#name}).
     */
    private static boolean renamedByWhatMatched(AgentFixtures.Bot bot, String got) {
        return longTail.isOurs(bot.name()) && longTail.patterns().patterns().stream().filter(p -> p.name().equals(bot.name()))
                .anyMatch(p -> p.matchedName(bot.agent()).filter(got::equals).isPresent());
    }

    /** Whether {@code got} is a name for the bot device-detector's fixture calls {@code expected}. */
    private static boolean accepted(String expected, String got) {
        if (got.equals(expected) || longTail.ours(expected).contains(got)) {
            return true;
        }
        Pattern renamed = RENAMED.get(expected);
        return renamed != null && renamed.matcher(got).matches();
    }
}
