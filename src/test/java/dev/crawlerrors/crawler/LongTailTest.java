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
    private final List<String> ours = CrawlerCatalog.ownBuiltIn().crawlers().stream().map(Crawler::name).toList();

    @Test
    void everyCategoryOfTheCatalogHasABotType() {
        Set<String> categories = new TreeSet<>();
        longTail.patterns().patterns().forEach(p -> categories.add(p.category()));

        assertThat(longTail.categoryTypes().keySet()).containsAll(categories);
    }

    @Test
    void everyNameGivenATypeIsInTheCatalog() {
        assertThat(longTail.names()).containsAll(longTail.nameTypes().keySet());
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
