package dev.crawlerrors.crawler.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.AgentFixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class BotPatternsTest {

    private static BotPattern bot(String regex, String name) {
        return new BotPattern(regex, name, "Crawler", "", "");
    }

    private static Optional<String> first(List<BotPattern> patterns, String agent) {
        return new BotPatterns(patterns).first(agent).map(BotPatterns.PatternMatch::name);
    }

    @Test
    void theFirstMatchingEntryInOrderWins() {
        List<BotPattern> patterns = List.of(bot("Feedly", "Feedly"), bot("FeedFetcher-Google", "Googlebot"), bot("[a-z]*bot", "Generic Bot"));

        assertThat(first(patterns, "Feedly/1.0 (FeedFetcher-Google)")).contains("Feedly");
        assertThat(first(patterns, "FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)")).contains("Googlebot");
        assertThat(first(patterns, "Mozilla/5.0 (compatible; ExampleBot/1.0)")).contains("Generic Bot");
        assertThat(first(patterns, "Mozilla/5.0 (X11; Linux x86_64; rv:138.0) Gecko/20100101 Firefox/138.0")).isEmpty();
    }

    @Test
    void matchesAsDeviceDetectorDoesWhereANameStarts() {
        List<BotPattern> patterns = List.of(bot("Diffbot", "Diffbot"));

        assertThat(first(patterns, "Mozilla/5.0 (compatible; Diffbot/0.1)")).contains("Diffbot");
        assertThat(first(patterns, "diffbot")).contains("Diffbot");
        assertThat(first(patterns, "Doximity-Diffbot")).isEmpty();
        assertThat(first(patterns, "XDiffbot")).isEmpty();
        assertThat(first(patterns, "x_Diffbot")).isEmpty();
        assertThat(first(patterns, "(_Diffbot")).contains("Diffbot");
    }

    @Test
    void aNameTheAgentComparesItselfWithIsNotItsName() {
        List<BotPattern> patterns = List.of(bot("Twitterbot", "Twitterbot"), bot("TelegramBot", "TelegramBot"));

        assertThat(first(patterns, "TelegramBot (like TwitterBot)")).contains("TelegramBot");
        assertThat(first(patterns, "Twitterbot/1.0")).contains("Twitterbot");
        // a later occurrence that is a name counts
        assertThat(first(patterns, "Foo (like Twitterbot) Twitterbot/1.0")).contains("Twitterbot");
    }

    @Test
    void aTemplateNameTakesTheGroupAsTheCatalogSpellsIt() {
        List<BotPattern> patterns = List.of(bot("(360Spider(?:-Image|-Video)?)", "$1"), bot("Y!J-(ASR|BR[IJ])", "Yahoo! Japan $1"));

        assertThat(first(patterns, "360spider-image")).contains("360Spider-Image");
        assertThat(first(patterns, "Mozilla/4.0 (compatible; MSIE 8.0); 360Spider")).contains("360Spider");
        assertThat(first(patterns, "Y!J-bri/0.0.1")).contains("Yahoo! Japan BRI");
        assertThat(patterns.get(0).names()).containsExactlyInAnyOrder("360Spider", "360Spider-Image", "360Spider-Video");
        assertThat(patterns.get(1).names()).containsExactlyInAnyOrder("Yahoo! Japan ASR", "Yahoo! Japan BRI", "Yahoo! Japan BRJ");
        assertThat(bot("(\\w+)Bot", "$1").names()).containsExactly("$1");
    }

    @Test
    void leadingTakesOnlyTheBotTheAgentBeginsWith() {
        BotPatterns patterns = new BotPatterns(List.of(bot("Googlebot", "Googlebot"), bot("WireReaderBot", "WireReaderBot")));

        assertThat(patterns.leading("WireReaderBot/1.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"))
                .map(BotPatterns.PatternMatch::name).contains("WireReaderBot");
        assertThat(patterns.leading("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")).isEmpty();
    }

    @Test
    void splitsAnEntryIntoItsTopLevelAlternativesUnlessItsNameTakesAGroup() {
        assertThat(bot("a|b(c|d)|[|(]e|\\|f|(?:g)", "X").alternatives()).containsExactly("a", "b(c|d)", "[|(]e", "\\|f", "(?:g)");
        assertThat(bot("[]|]x|y", "X").alternatives()).containsExactly("[]|]x", "y");
        assertThat(bot("(a|b)|c", "$1").alternatives()).containsExactly("(a|b)|c");
        assertThat(bot("(a|b", "X").alternatives()).containsExactly("(a|b");
    }

    @Test
    void aLongAlternationRunsOnlyThePieceAnAgentMayMatch() {
        // device-detector's generic entry: Chrome's agent holds "chrome" but is not ^chrome$
        List<BotPattern> patterns = List.of(bot("nuhk|grub-client|^(?:chrome|desktop|firefox)$|OnlyScans", "Generic Bot"));

        assertThat(first(patterns, "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36"))
                .isEmpty();
        assertThat(first(patterns, "chrome")).contains("Generic Bot");
        assertThat(first(patterns, "Mozilla/4.0 (compatible; grub-client-2.6.0)")).contains("Generic Bot");
    }

    @Test
    void anExpressionJavaCannotCompileNamesNothingAndTheRestStillWork() {
        List<BotPattern> patterns = List.of(bot("Broken(Bot", "Broken"), bot("GoodBot", "GoodBot"));

        assertThat(first(patterns, "Broken(Bot GoodBot")).contains("GoodBot");
    }

    @Test
    void readsOnlyTheStartOfAVeryLongAgent() {
        List<BotPattern> patterns = List.of(bot("LateBot", "LateBot"));
        String padding = "x ".repeat(BotPattern.MAX_AGENT);

        assertThat(first(patterns, "LateBot " + padding)).contains("LateBot");
        assertThat(first(patterns, padding + "LateBot")).isEmpty();
    }

    @Test
    void everyVendoredExpressionCompilesInJava() {
        List<String> broken = new ArrayList<>();
        for (BotPattern pattern : OpenBotCatalog.resource(OpenBotCatalog.DEVICE_DETECTOR).bots().patterns()) {
            try {
                pattern.compile();
            } catch (RuntimeException e) {
                broken.add(pattern.name() + ": " + e.getMessage());
            }
        }
        assertThat(broken).isEmpty();
    }

    @Test
    void findsWhatTryingEveryEntryInTurnFinds() {
        // the prefilter runs only the entries whose literals an agent holds: for every fixture bot the
        // answer must be the one running every vendored expression in order gives (people's agents are
        // the oracle test's, which identifies them through the prefilter)
        BotPatterns catalog = OpenBotCatalog.resource(OpenBotCatalog.DEVICE_DETECTOR).bots();
        List<Pattern> compiled = catalog.patterns().stream().map(BotPattern::compile).toList();
        List<String> differ = new ArrayList<>();
        int named = 0;
        for (AgentFixtures.Bot bot : AgentFixtures.deviceDetectorBots()) {
            String inTurn = null;
            for (int i = 0; i < compiled.size() && inTurn == null; i++) {
                inTurn = catalog.patterns().get(i).nameIn(compiled.get(i), bot.agent(), false);
            }
            String prefiltered = catalog.first(bot.agent()).map(BotPatterns.PatternMatch::name).orElse(null);
            if (!java.util.Objects.equals(inTurn, prefiltered)) {
                differ.add(bot.agent() + ": " + inTurn + " in turn, " + prefiltered + " prefiltered");
            }
            named += inTurn == null ? 0 : 1;
        }
        assertThat(differ).isEmpty();
        assertThat(named).isGreaterThan(400);
    }
}
