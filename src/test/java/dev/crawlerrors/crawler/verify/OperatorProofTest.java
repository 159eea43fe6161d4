package dev.crawlerrors.crawler.verify;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.IpListSpec;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every operator's published proof, served by a local list host in the shape each operator uses
 * (test data: list number i holds 198.18.i.0/24, and each shape its own way), and each crawler
 * checked against the lists its operator names for it, and no other.
 */
class OperatorProofTest {

    private final CrawlerCatalog catalog = CrawlerCatalog.builtIn();
    private final Map<String, String> bodies = new HashMap<>();
    private final Map<String, String> addressIn = new HashMap<>();
    private final Map<String, Integer> number = new HashMap<>();

    @TempDir
    Path dir;

    private HttpServer server;
    private String base;

    @BeforeEach
    void publishEveryList() throws Exception {
        List<IpListSpec> lists = catalog.lists();
        for (int i = 0; i < lists.size(); i++) {
            String name = lists.get(i).name();
            String prefix = "198.18." + i + ".0/24";
            addressIn.put(name, "198.18." + i + ".7");
            number.put(name, i);
            bodies.put(name, switch (name) {
                // Anthropic and Common Crawl write RFC 3339 times; Common Crawl adds keys and IPv6
                case "bots.json" -> "{\"creationTime\": \"2026-11-18T01:43:14Z\", \"prefixes\": [{\"ipv4Prefix\": \"" + prefix + "\"}]}";
                case "ccbot.json" -> "{\"synctoken\": \"20261118134000\", \"creationTime\": \"2026-11-18T13:40:00Z\", \"notes\": \"FCrDNS too\","
                        + " \"prefixes\": [{\"ipv6Prefix\": \"2600:1f28:365:8000::/56\"}, {\"ipv4Prefix\": \"" + prefix + "\"}]}";
                // Ahrefs states no creation time
                case "crawler-ip-ranges" -> "{\"prefixes\": [{\"ipv4Prefix\": \"" + prefix + "\"}]}";
                // DuckDuckGo lists single addresses
                case "duckduckbot.json", "duckassistbot.json" -> "{\"creationTime\": \"2026-11-03T15:15:37.000000\", \"prefixes\": ["
                        + "{\"ipv4Prefix\": \"198.18." + i + ".7/32\"}, {\"ipv4Prefix\": \"198.18." + i + ".8/32\"}]}";
                default -> "{\"creationTime\": \"2026-11-20T23:00:47.000000\", \"prefixes\": [{\"ipv4Prefix\": \"" + prefix + "\"}]}";
            });
        }
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String body = bodies.get(exchange.getRequestURI().getPath().substring(1));
            byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private IpRangeVerifier verifier(CrawlerCatalog catalog) {
        return new IpRangeVerifier(catalog, IpRangeSource.parse(base));
    }

    @Test
    void everyCrawlerIsVerifiedByItsOwnListsAndByNoOtherOperatorsList() {
        IpRangeVerifier lists = verifier(catalog);
        for (Crawler crawler : catalog.crawlers()) {
            for (IpListSpec list : catalog.lists()) {
                Verdict verdict = lists.verify(addressIn.get(list.name()), crawler);
                if (crawler.ipLists().contains(list.name())) {
                    assertThat(verdict.verification()).as(crawler.name() + " from " + list.name()).isEqualTo(Verification.verified);
                } else {
                    assertThat(verdict.verification()).as(crawler.name() + " from " + list.name()).isNotEqualTo(Verification.verified);
                }
            }
        }
    }

    @Test
    void theListsPublishedSinceProveTheirCrawlers() {
        Map<String, String> expected = Map.of(
                "ClaudeBot", "bots.json", "Claude-User", "bots.json", "Claude-SearchBot", "bots.json",
                "DuckDuckBot", "duckduckbot.json", "DuckAssistBot", "duckassistbot.json",
                "CCBot", "ccbot.json", "AhrefsBot", "crawler-ip-ranges", "AhrefsSiteAudit", "crawler-ip-ranges");
        expected.forEach((crawler, list) ->
                assertThat(catalog.crawler(crawler).orElseThrow().ipLists()).as(crawler).containsExactly(list));
        IpRangeVerifier lists = verifier(catalog);

        assertThat(lists.verify(addressIn.get("bots.json"), crawler("Claude-SearchBot"))).isEqualTo(new Verdict(Verification.verified,
                "in bots.json 198.18." + number.get("bots.json") + ".0/24 (created 2026-11-18)"));
        assertThat(lists.verify(addressIn.get("crawler-ip-ranges"), crawler("AhrefsBot")).reason())
                .endsWith(" (fetched " + java.time.LocalDate.now(java.time.ZoneOffset.UTC) + ")");
        assertThat(lists.verify("2600:1f28:365:8000::12", crawler("CCBot")).verification()).isEqualTo(Verification.verified);
        assertThat(lists.verify("198.18." + number.get("duckduckbot.json") + ".9", crawler("DuckDuckBot")))
                .as("DuckDuckGo lists single addresses").extracting(Verdict::verification).isEqualTo(Verification.spoofed);
        assertThat(catalog.list("bots.json").orElseThrow().url()).isEqualTo("https://claude.com/crawling/bots.json");
        assertThat(catalog.list("ccbot.json").orElseThrow().url()).isEqualTo("https://index.commoncrawl.org/ccbot.json");
        assertThat(catalog.list("crawler-ip-ranges").orElseThrow().url()).isEqualTo("https://api.ahrefs.com/v3/public/crawler-ip-ranges");
    }

    @Test
    void googlesOwnFetchersAreProvedByItsOwnFetchersListNeverByItsCloudCustomersList() {
        for (Crawler crawler : catalog.crawlers()) {
            assertThat(crawler.ipLists()).as(crawler.name()).doesNotContain("user-triggered-fetchers.json");
            assertThat(crawler.dnsDomains()).as(crawler.name()).noneMatch(domain -> domain.contains("googleusercontent.com"));
        }
        assertThat(catalog.list("user-triggered-fetchers.json")).as("Google Cloud customers' fetches prove no Google product").isEmpty();
        for (String fetcher : List.of("FeedFetcher-Google", "Google-Site-Verification", "Google-Read-Aloud", "GoogleProducer",
                "Google-Pinpoint", "Google-NotebookLM")) {
            assertThat(crawler(fetcher).ipLists()).as(fetcher).containsExactly("user-triggered-fetchers-google.json");
            assertThat(crawler(fetcher).dnsDomains()).as(fetcher).containsExactly("google-proxy-*.google.com");
        }
    }

    @Test
    void theAgentsAndAdsListsVerifyTheCrawlersACatalogNamesThemFor() throws Exception {
        // Google-Agent and OAI-AdsBot as a catalog names them (the built-in entries come with the long tail)
        Path own = dir.resolve("crawlers.json");
        Files.writeString(own, """
                {"crawlers": [
                  {"name": "Google-Agent", "operator": "Google", "botType": "fetcher_user", "tokens": ["Google-Agent"],
                   "ipLists": ["user-triggered-agents.json"]},
                  {"name": "OAI-AdsBot", "operator": "OpenAI", "botType": "crawler_ads", "tokens": ["OAI-AdsBot"], "ipLists": ["adsbot.json"]}
                ]}
                """);
        CrawlerCatalog extended = catalog.extendedWith(own);
        IpRangeVerifier lists = verifier(extended);
        Crawler agent = extended.crawler("Google-Agent").orElseThrow();
        Crawler adsBot = extended.crawler("OAI-AdsBot").orElseThrow();

        assertThat(extended.list("user-triggered-agents.json").orElseThrow().url())
                .isEqualTo("https://developers.google.com/static/crawling/ipranges/user-triggered-agents.json");
        assertThat(extended.list("adsbot.json").orElseThrow().url()).isEqualTo("https://openai.com/adsbot.json");
        assertThat(lists.verify(addressIn.get("user-triggered-agents.json"), agent).verification()).isEqualTo(Verification.verified);
        assertThat(lists.verify(addressIn.get("common-crawlers.json"), agent).verification()).isEqualTo(Verification.spoofed);
        assertThat(lists.verify(addressIn.get("adsbot.json"), adsBot).verification()).isEqualTo(Verification.verified);
        assertThat(lists.verify(addressIn.get("gptbot.json"), adsBot).verification()).isEqualTo(Verification.spoofed);
    }

    @Test
    void googlesCrawlersAreProvedByTheNamesGoogleDocumentsForEach() {
        for (String common : List.of("Googlebot Smartphone", "Googlebot Desktop", "Googlebot-Image", "Googlebot-Video", "Googlebot-News",
                "Storebot-Google", "Google-InspectionTool", "GoogleOther", "GoogleOther-Image", "GoogleOther-Video", "Google-CloudVertexBot")) {
            assertThat(crawler(common).dnsDomains()).as(common).containsExactly("crawl-*.googlebot.com", "geo-crawl-*.geo.googlebot.com");
        }
        for (String special : List.of("AdsBot-Google", "AdsBot-Google-Mobile", "Mediapartners-Google", "APIs-Google", "Google-Safety")) {
            assertThat(crawler(special).dnsDomains()).as(special).containsExactly("rate-limited-proxy-*.google.com");
        }
        assertThat(crawler("Bingbot").dnsDomains()).containsExactly("*.search.msn.com");
        assertThat(crawler("Applebot").dnsDomains()).containsExactly("*.applebot.apple.com");
        assertThat(crawler("Amazonbot").dnsDomains()).containsExactly("*.crawl.amazonbot.amazon");
        assertThat(crawler("CCBot").dnsDomains()).containsExactly("*.crawl.commoncrawl.org");
        assertThat(crawler("YandexBot").dnsDomains()).containsExactly("*.yandex.ru", "*.yandex.net", "*.yandex.com");
        assertThat(crawler("Baiduspider").dnsDomains()).containsExactly("*.baidu.com", "*.baidu.jp");
    }

    private Crawler crawler(String name) {
        return catalog.crawler(name).orElseThrow();
    }
}
