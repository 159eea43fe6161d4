package dev.crawlerrors.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.StatusRange;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReportParametersTest {

    private static final ZoneId BRUSSELS = ZoneId.of("Europe/Brussels");

    private static ReportRequest parse(Map<String, List<String>> query) {
        return ReportParameters.parse(query, BRUSSELS);
    }

    @Test
    void leavesMonitorsAndScannersOutUnlessABotTypeOrCrawlerIsAskedFor() {
        assertThat(parse(Map.of()).filter().hiddenBotTypes()).containsExactlyInAnyOrder(BotType.monitor, BotType.security_scanner);
        assertThat(parse(Map.of("bot", List.of("crawler_search"))).filter().hiddenBotTypes()).isEmpty();
        assertThat(parse(Map.of("crawler", List.of("Bingbot"))).filter().hiddenBotTypes()).isEmpty();
    }

    @Test
    void botAllIsEveryType() {
        ReportRequest request = parse(Map.of("bot", List.of("all")));

        assertThat(request.filter().botTypes()).containsExactlyInAnyOrder(BotType.values());
        assertThat(request.filter().everyBotType()).isTrue();
        assertThat(request.filter().hiddenBotTypes()).isEmpty();
    }

    @Test
    void readsCrawlerNamesAsTheCatalogSpellsThem() {
        CrawlerCatalog catalog = new CrawlerCatalog(List.of("Bingbot", "Slurp, Inc.", "Sogou web spider", "GPTBot").stream()
                .map(name -> new Crawler(name, "", BotType.crawler_search, List.of(name), List.of(), List.of(), List.of())).toList(), List.of());
        ReportRequest request = ReportParameters.parse(Map.of("crawler", List.of("bingbot", "Slurp, Inc.", "Sogou web spider,GPTBOT")),
                BRUSSELS, ReportParameters.REPORT, catalog);

        assertThat(request.filter().crawlers()).containsExactly("Bingbot", "Slurp, Inc.", "Sogou web spider", "GPTBot");
    }

    @Test
    void rejectsACrawlerNoCatalogEntryHas() {
        assertThatThrownBy(() -> parse(Map.of("crawler", List.of("Googlebot,Nobot"))))
                .isInstanceOf(BadParameterException.class)
                .hasMessage("crawler must be the name of a crawler this tool knows (crawl-errors crawlers lists them); got 'Nobot'")
                .extracting(e -> ((BadParameterException) e).parameter()).isEqualTo("crawler");
    }

    @Test
    void aFamilysNameMeansEachOfItsCrawlers() {
        assertThat(parse(Map.of("crawler", List.of("Googlebot"))).filter().crawlers())
                .containsExactly("Googlebot Smartphone", "Googlebot Desktop");
        assertThat(parse(Map.of("crawler", List.of("googlebot,Bingbot"))).filter().crawlers())
                .containsExactly("Googlebot Smartphone", "Googlebot Desktop", "Bingbot");
    }

    @Test
    void aNameThatIsNoCrawlersOffersTheNamesThatHoldIt() {
        assertThatThrownBy(() -> parse(Map.of("crawler", List.of("googlebot-i"))))
                .hasMessage("crawler must be the name of a crawler this tool knows, such as Googlebot-Image; got 'googlebot-i'")
                .extracting(e -> ((BadParameterException) e).parameter()).isEqualTo("crawler");
        assertThatThrownBy(() -> parse(Map.of("crawler", List.of("Googl"))))
                .hasMessageStartingWith("crawler must be the name of a crawler this tool knows, such as Googlebot Smartphone, "
                        + "Googlebot Desktop, Googlebot-Image, Googlebot-Video, Googlebot-News, Storebot-Google, Google-InspectionTool, GoogleOther and ")
                .hasMessageEndingWith(" more (crawl-errors crawlers lists them); got 'Googl'");
    }

    @Test
    void namesEachGoogleFetcherTheLongTailLumpsWithGooglebot() {
        assertThat(parse(Map.of("crawler", List.of("google web preview", "Google-Lens"))).filter().crawlers())
                .containsExactly("Google Web Preview", "Google-Lens");
    }

    @Test
    void knowsTheBuiltInCatalogsNamesTheLongTailsToo() {
        assertThat(parse(Map.of("crawler", List.of("googlebot desktop", "UptimeRobot", "yandexmetrika"))).filter().crawlers())
                .containsExactly("Googlebot Desktop", "UptimeRobot", "YandexMetrika");
    }

    @Test
    void meansPageOneWhenNoPageIsGiven() {
        assertThat(parse(Map.of()).page()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "abc", "1.5", "123456789012345678901234567890", "", " 1", "+1", "2147483648"})
    void rejectsPagesThatAreNotWholeNumbersFromOne(String page) {
        assertThatThrownBy(() -> parse(Map.of("page", List.of(page))))
                .isInstanceOf(BadParameterException.class)
                .hasMessage("page must be a whole number from 1 to 2147483647; got '" + page + "'")
                .extracting(e -> ((BadParameterException) e).parameter()).isEqualTo("page");
    }

    @Test
    void rejectsTwoPages() {
        assertThatThrownBy(() -> parse(Map.of("page", List.of("1", "2")))).hasMessage("page may be given once; got 2 values");
    }

    @Test
    void readsStatusCodesAndClasses() {
        ReportRequest request = parse(Map.of("status", List.of("404", "3xx,500")));

        assertThat(request.filter().statuses()).containsExactly(
                new StatusRange(404, 404), new StatusRange(300, 399), new StatusRange(500, 500));
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "4", "6xx", "0404", "99", "1000", "x4x"})
    void rejectsStatusesItCannotRead(String status) {
        assertThatThrownBy(() -> parse(Map.of("status", List.of(status))))
                .isInstanceOf(BadParameterException.class)
                .hasMessageStartingWith("status must be an HTTP status");
    }

    @Test
    void readsBotTypesAndVerdictsAndNamesTheAcceptedValuesOtherwise() {
        ReportRequest request = parse(Map.of("bot", List.of("crawler_inspection_tool"), "verification", List.of("spoofed")));
        assertThat(request.filter().botTypes()).containsExactly(BotType.crawler_inspection_tool);
        assertThat(request.filter().verifications()).containsExactly(Verification.spoofed);

        assertThatThrownBy(() -> parse(Map.of("verification", List.of("fake"))))
                .hasMessage("verification must be one of verified, spoofed, unverified; got 'fake'");
    }

    @Test
    void readsDatesInTheDisplayZoneInclusiveAtTheirPrecision() {
        ReportRequest day = parse(Map.of("from", List.of("2025-10-26"), "to", List.of("2025-10-26")));
        // 26 October 2025 is the day Brussels leaves summer time: 25 hours long
        assertThat(day.filter().from()).isEqualTo(Instant.parse("2025-10-25T22:00:00Z"));
        assertThat(day.filter().to()).isEqualTo(Instant.parse("2025-10-26T23:00:00Z"));

        ReportRequest minute = parse(Map.of("from", List.of("2025-05-14T09:31"), "to", List.of("2025-05-14T09:31")));
        assertThat(minute.filter().from()).isEqualTo(Instant.parse("2025-05-14T07:31:00Z"));
        assertThat(minute.filter().to()).isEqualTo(Instant.parse("2025-05-14T07:32:00Z"));
    }

    @Test
    void rejectsTimesItCannotReadAndRangesThatEndBeforeTheyStart() {
        assertThatThrownBy(() -> parse(Map.of("from", List.of("14/05/2025"))))
                .hasMessage("from must be a local date YYYY-MM-DD or date-time YYYY-MM-DDTHH:MM (time zone Europe/Brussels); got '14/05/2025'");
        assertThatThrownBy(() -> parse(Map.of("from", List.of("2025-05-15"), "to", List.of("2025-05-14"))))
                .isInstanceOf(BadParameterException.class)
                .extracting(e -> ((BadParameterException) e).parameter()).isEqualTo("to");
    }

    @Test
    void wantsUrlsAsPathPrefixes() {
        assertThat(parse(Map.of("url", List.of("/antwerp/"))).filter().urlPrefix()).isEqualTo("/antwerp/");
        assertThatThrownBy(() -> parse(Map.of("url", List.of("antwerp")))).hasMessageStartingWith("url must be a path prefix");
    }

    @Test
    void refusesAnUnknownParameterNamingItAndWhatThePageTakes() {
        assertThatThrownBy(() -> parse(Map.of("stauts", List.of("404"))))
                .isInstanceOf(BadParameterException.class)
                .hasMessage("unknown parameter 'stauts' (did you mean status?); this page takes page, status, bot, crawler, verification,"
                        + " from, to, url, host, pattern, at")
                .extracting(e -> ((BadParameterException) e).parameter()).isEqualTo("stauts");
        assertThatThrownBy(() -> parse(Map.of("interval", List.of("day"))))
                .hasMessage("unknown parameter 'interval'; this page takes page, status, bot, crawler, verification, from, to, url, host,"
                        + " pattern, at");
        assertThat(ReportParameters.parse(Map.of("interval", List.of("day")), BRUSSELS, ReportParameters.OVERVIEW).interval())
                .isEqualTo("day");
        assertThatThrownBy(() -> ReportParameters.parse(Map.of("page", List.of("2")), BRUSSELS, ReportParameters.PATTERNS))
                .hasMessage("unknown parameter 'page'; this page takes status, bot, crawler, verification, from, to, url, host, pattern, at");
    }

    @ParameterizedTest
    @ValueSource(strings = {"200", "2xx", "1xx", "101", "299"})
    void refusesAStatusBelowTheErrorThreshold(String status) {
        assertThatThrownBy(() -> parse(Map.of("status", List.of(status))))
                .isInstanceOf(BadParameterException.class)
                .hasMessage("status must be an error status, 300 or above (such as 404, 3xx or 5xx): the report lists error hits only;"
                        + " got '" + status + "'")
                .extracting(e -> ((BadParameterException) e).parameter()).isEqualTo("status");
    }

    @Test
    void takesAFilterLeftBlankAsNotGiven() {
        ReportRequest request = parse(Map.of("status", List.of(""), "from", List.of(""), "url", List.of(""), "bot", List.of(""),
                "pattern", List.of("")));

        assertThat(request.filter()).isEqualTo(dev.crawlerrors.store.HitFilter.ERRORS);
        assertThat(request.pattern()).isNull();
    }

    @Test
    void readsCrawlersAndPatterns() {
        ReportRequest request = parse(Map.of("crawler", List.of("Googlebot Smartphone", "Bingbot"), "pattern", List.of("/{city}/straten/{letter}")));

        assertThat(request.filter().crawlers()).containsExactlyInAnyOrder("Googlebot Smartphone", "Bingbot");
        assertThat(request.pattern()).isEqualTo("/{city}/straten/{letter}");
        assertThatThrownBy(() -> parse(Map.of("pattern", List.of("/{city}/x{street}"))))
                .hasMessageStartingWith("pattern must be a URL pattern from the patterns page; a placeholder in a URL pattern is a whole segment");
    }

    @Property(tries = 2000)
    void anyPageValueIsAPageOrABadParameter(@ForAll String value) {
        try {
            assertThat(parse(Map.of("page", List.of(value))).page()).isPositive();
        } catch (BadParameterException e) {
            assertThat(e.parameter()).isEqualTo("page");
        }
    }

    @Property(tries = 2000)
    void anyFilterValueIsAcceptedOrNamed(@ForAll String value) {
        for (String name : List.of("status", "bot", "verification", "from", "to", "url", "pattern", "crawler")) {
            try {
                parse(Map.of(name, List.of(value)));
            } catch (BadParameterException e) {
                assertThat(e.parameter()).isIn(name, "to");
            }
        }
    }
}
