package dev.crawlerrors.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrawlerCatalogTest {

    private final CrawlerCatalog builtIn = CrawlerCatalog.builtIn();

    @TempDir
    Path dir;

    @Test
    void coversTheCrawlersTheReportPromises() {
        Set<String> names = builtIn.crawlers().stream().map(Crawler::name).collect(Collectors.toSet());

        assertThat(names).contains("Googlebot Smartphone", "Googlebot Desktop", "Googlebot-Image", "Googlebot-Video",
                "Googlebot-News", "Storebot-Google", "Google-InspectionTool", "GoogleOther", "Google-CloudVertexBot",
                "AdsBot-Google", "AdsBot-Google-Mobile", "Mediapartners-Google", "APIs-Google", "Google-Safety",
                "FeedFetcher-Google", "Google-Site-Verification", "Google-Read-Aloud", "Bingbot", "AdIdxBot", "BingPreview",
                "MicrosoftPreview", "Applebot", "DuckDuckBot", "YandexBot", "Baiduspider", "GPTBot", "OAI-SearchBot",
                "ChatGPT-User", "ClaudeBot", "Claude-User", "Claude-SearchBot", "PerplexityBot", "Perplexity-User", "CCBot",
                "meta-externalagent", "Amazonbot", "Bytespider", "AhrefsBot", "SemrushBot", "MJ12bot", "DotBot",
                "facebookexternalhit", "Twitterbot", "LinkedInBot", "Slackbot");
    }

    @Test
    void everyListACrawlerNamesIsDefinedWithAnOfficialAddress() {
        for (Crawler crawler : builtIn.crawlers()) {
            for (String list : crawler.ipLists()) {
                assertThat(builtIn.list(list)).as(crawler.name() + " -> " + list)
                        .hasValueSatisfying(spec -> assertThat(spec.url()).startsWith("https://").endsWith(spec.name()));
            }
        }
    }

    @Test
    void aUserCatalogReplacesByNameAndAddsNewCrawlers() throws IOException {
        Path file = userCatalog("crawlers.json", """
                {"lists": [{"name": "examplebot.json", "operator": "Example", "url": "https://example.org/examplebot.json"}],
                 "crawlers": [
                   {"name": "ExampleBot", "operator": "Example", "botType": "crawler_other", "tokens": ["ExampleBot"],
                    "ipLists": ["examplebot.json"]},
                   {"name": "CCBot", "operator": "Common Crawl", "botType": "crawler_other", "tokens": ["CCBot"]}
                 ]}
                """);

        CrawlerCatalog catalog = builtIn.extendedWith(file);
        CrawlerIdentifier identifier = new CrawlerIdentifier(catalog);

        assertThat(catalog.crawlers()).hasSize(builtIn.crawlers().size() + 1);
        assertThat(identifier.identify("ExampleBot/1.0")).map(Crawler::ipLists).contains(List.of("examplebot.json"));
        assertThat(identifier.identify("CCBot/2.0")).map(Crawler::botType).contains(BotType.crawler_other);
    }

    @Test
    void saysWhatIsWrongWithABadUserCatalog() throws IOException {
        Path noTokens = userCatalog("no-tokens.json", "{\"crawlers\": [{\"name\": \"X\", \"botType\": \"crawler_other\"}]}");
        Path unknownList = userCatalog("unknown-list.json", "{\"crawlers\": [{\"name\": \"X\", \"botType\": \"crawler_other\", \"tokens\": [\"X\"], \"ipLists\": [\"x.json\"]}]}");
        Path badType = userCatalog("bad-type.json", "{\"crawlers\": [{\"name\": \"X\", \"botType\": \"robot\", \"tokens\": [\"X\"]}]}");

        assertThatThrownBy(() -> builtIn.extendedWith(noTokens)).hasMessageContaining("at least one token");
        assertThatThrownBy(() -> builtIn.extendedWith(unknownList)).hasMessageContaining("names IP list x.json, which the catalog does not define");
        assertThatThrownBy(() -> builtIn.extendedWith(badType)).hasMessageContaining("is not a crawler catalog").hasMessageContaining("robot");
        assertThatThrownBy(() -> builtIn.extendedWith(dir.resolve("missing.json"))).hasMessageEndingWith("missing.json does not exist");
    }

    @Test
    void saysWhereABadUserCatalogHasTheWrongShape() throws IOException {
        Path tokensNotAList = userCatalog("tokens.json", "{\"crawlers\": [{\"name\": \"X\", \"botType\": \"crawler_other\", \"tokens\": \"X\"}]}");
        Path crawlerNotAnObject = userCatalog("crawler.json", "{\"crawlers\": [\"X\"]}");
        Path listsNotAnArray = userCatalog("lists.json", "{\"lists\": {\"name\": \"x.json\"}}");
        Path notAnObject = userCatalog("array.json", "[]");
        Path notJson = userCatalog("broken.json", "{\"crawlers\": [");

        assertThatThrownBy(() -> builtIn.extendedWith(tokensNotAList))
                .hasMessage(tokensNotAList + " is not a crawler catalog: \"tokens\" is X, not an array of text");
        assertThatThrownBy(() -> builtIn.extendedWith(crawlerNotAnObject))
                .hasMessage(crawlerNotAnObject + " is not a crawler catalog: \"crawlers\" holds X, which is not an object");
        assertThatThrownBy(() -> builtIn.extendedWith(listsNotAnArray))
                .hasMessage(listsNotAnArray + " is not a crawler catalog: \"lists\" is not an array");
        assertThatThrownBy(() -> builtIn.extendedWith(notAnObject))
                .hasMessage(notAnObject + " is not a crawler catalog: it is not a JSON object");
        assertThatThrownBy(() -> builtIn.extendedWith(notJson))
                .hasMessageStartingWith(notJson + " is not a crawler catalog: Unexpected end-of-input");
    }

    @Test
    void readsEveryFieldOfAUserCatalogAndIgnoresOnesItDoesNotKnow() throws IOException {
        Path file = userCatalog("full.json", """
                {"comment": "ours", "lists": [{"name": "x.json", "operator": "X Inc", "url": "https://x.example/x.json",
                  "aliases": ["old-x.json"], "note": 1}],
                 "crawlers": [{"name": "XBot", "operator": "X Inc", "botType": "crawler_ai", "tokens": ["XBot", "X-Fetch"],
                  "alsoContains": ["Mobile"], "ipLists": ["x.json"], "dnsDomains": ["x.example"], "since": 2026}]}
                """);

        CrawlerCatalog catalog = builtIn.extendedWith(file);

        assertThat(catalog.crawler("XBot")).contains(new Crawler("XBot", "X Inc", BotType.crawler_ai, List.of("XBot", "X-Fetch"),
                List.of("Mobile"), List.of("x.json"), List.of("x.example")));
        assertThat(catalog.list("x.json")).contains(new IpListSpec("x.json", "X Inc", "https://x.example/x.json", List.of("old-x.json")));
    }

    /** A user catalog file named {@code name} holding {@code json}. */
    private Path userCatalog(String name, String json) throws IOException {
        return Files.writeString(dir.resolve(name), json);
    }
}
