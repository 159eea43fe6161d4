package dev.crawlerrors.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.catalog.BotPattern;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** long-tail-types.json against the vendored catalog: a refresh that brings a new category or renames a bot fails here. */
class LongTailTest {

    private final LongTail longTail = LongTail.builtIn();
    private final LongTail behindOurs = CrawlerCatalog.builtIn().longTail().orElseThrow();
    private final List<String> ours = CrawlerCatalog.ownBuiltIn().crawlers().stream().map(Crawler::name).toList();

    @Test
    void everyCategoryOfTheCatalogHasABotType() {
        Set<String> categories = new TreeSet<>();
        longTail.patterns().patterns().forEach(p -> categories.add(p.category()));

        assertThat(longTail.categoryTypes().keySet()).containsAll(categories);
    }

    @Test
    void everyNameGivenATypeIsInTheCatalog() {
        List<String> names = new ArrayList<>(longTail.names());
        names.addAll(behindOurs.names());
        assertThat(names).containsAll(longTail.nameTypes().keySet());
    }

    @Test
    void behindOursGivesNoNameOursUsesAndNamesWhatItsEntryMatchedInstead() {
        List<String> oursAndTokens = new ArrayList<>();
        CrawlerCatalog.ownBuiltIn().crawlers().forEach(c -> {
            oursAndTokens.add(c.name().toLowerCase(java.util.Locale.ROOT));
            c.tokens().forEach(t -> oursAndTokens.add(t.toLowerCase(java.util.Locale.ROOT)));
        });

        assertThat(behindOurs.names()).noneMatch(name -> oursAndTokens.contains(name.toLowerCase(java.util.Locale.ROOT)))
                .doesNotContain("Googlebot", "BingBot", "Slackbot", "DuckDuckBot")
                .contains("Google Web Preview", "Google-Lens", "Google-PageRenderer", "GoogleProber", "Slack-ImgProxy", "Yahoo!-AdCrawler",
                        "DuckDuckGo-Favicons-Bot", "msrbot");
    }

    @Test
    void everyNameMappedToOursIsInBothCatalogs() {
        List<String> targets = new ArrayList<>();
        longTail.oursByName().values().forEach(targets::addAll);

        assertThat(longTail.names()).containsAll(longTail.oursByName().keySet());
        assertThat(ours).containsAll(targets);
    }

    @Test
    void typesABotByItsNameBeforeItsCategory() {
        BotPattern ahrefs = pattern("aHrefs Bot");
        BotPattern uptime = pattern("UptimeRobot");
        BotPattern nmap = pattern("Nmap");

        assertThat(ahrefs.category()).isEqualTo("Crawler");
        assertThat(longTail.type(ahrefs, ahrefs.name())).isEqualTo(BotType.crawler_seo);
        assertThat(longTail.type(uptime, uptime.name())).isEqualTo(BotType.monitor);
        assertThat(longTail.type(nmap, nmap.name())).isEqualTo(BotType.security_scanner);
    }

    @Test
    void listsEachNameOnceWithTemplatesSpelledOut() {
        assertThat(longTail.names()).doesNotHaveDuplicates().contains("360Spider-Image", "YandexMetrika", "Generic Bot")
                .doesNotContain("$1");
    }

    private BotPattern pattern(String name) {
        return longTail.patterns().patterns().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }
}
