package dev.crawlerrors.crawler.dns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.xbill.DNS.Name;

class NamePatternTest {

    private static boolean matches(String pattern, String name) throws Exception {
        return NamePattern.parse(pattern).matches(Name.fromString(name, Name.root));
    }

    @Test
    void aLabelGlobMatchesOneLabelDirectlyUnderTheDomain() throws Exception {
        assertThat(matches("crawl-*.googlebot.com", "crawl-66-249-66-1.googlebot.com")).isTrue();
        assertThat(matches("crawl-*.googlebot.com", "CRAWL-66-249-66-1.GoogleBot.com.")).isTrue();
        assertThat(matches("geo-crawl-*.geo.googlebot.com", "geo-crawl-66-249-90-1.geo.googlebot.com")).isTrue();
        assertThat(matches("crawl-*.googlebot.com", "geo-crawl-66-249-90-1.geo.googlebot.com")).isFalse();
        assertThat(matches("crawl-*.googlebot.com", "x.crawl-66-249-66-1.googlebot.com")).isFalse();
        assertThat(matches("crawl-*.googlebot.com", "crawl.googlebot.com")).isFalse();
        assertThat(matches("crawl-*.googlebot.com", "googlebot.com")).isFalse();
        assertThat(matches("crawl-*.googlebot.com", "crawl-66-249-66-1.googlebot.com.evil.net")).isFalse();
        assertThat(matches("crawl-*.googlebot.com", "crawl-1.evilgooglebot.com")).isFalse();
    }

    @Test
    void googlesFetcherAndSpecialCrawlerNamesAreTheirOwn() throws Exception {
        assertThat(matches("google-proxy-*.google.com", "google-proxy-66-249-90-1.google.com")).isTrue();
        assertThat(matches("google-proxy-*.google.com", "rate-limited-proxy-66-249-90-1.google.com")).isFalse();
        assertThat(matches("rate-limited-proxy-*.google.com", "rate-limited-proxy-66-249-90-1.google.com")).isTrue();
        assertThat(matches("google-proxy-*.google.com", "66-249-90-1.gae.googleusercontent.com")).isFalse();
    }

    @Test
    void aStarDotMatchesAnyNameStrictlyUnderTheDomain() throws Exception {
        assertThat(matches("*.search.msn.com", "msnbot-157-55-39-2.search.msn.com")).isTrue();
        assertThat(matches("*.baidu.com", "baiduspider-116-179-32-50.crawl.baidu.com")).isTrue();
        assertThat(matches("*.search.msn.com", "search.msn.com")).isFalse();
        assertThat(matches("*.search.msn.com", "evilsearch.msn.com")).isFalse();
    }

    @Test
    void aPlainDomainMatchesItselfAndEverythingUnderIt() throws Exception {
        assertThat(matches("yandex.ru", "yandex.ru")).isTrue();
        assertThat(matches("yandex.ru", "spider-5-255-253-1.yandex.ru")).isTrue();
        assertThat(matches("yandex.ru", "notyandex.ru")).isFalse();
    }

    @Test
    void aGlobWithSeveralStarsMatchesItsPartsInOrder() throws Exception {
        assertThat(matches("a*b*c.example.com", "a-x-b-y-c.example.com")).isTrue();
        assertThat(matches("a*b*c.example.com", "abc.example.com")).isTrue();
        assertThat(matches("a*b*c.example.com", "acb.example.com")).isFalse();
        assertThat(matches("ab*ba.example.com", "aba.example.com")).as("prefix and suffix may not overlap").isFalse();
    }

    @Test
    void refusesAPatternWithAStarInTheDomain() {
        assertThatThrownBy(() -> NamePattern.parse("crawl.*.googlebot.com"))
                .hasMessage("'crawl.*.googlebot.com' is not a DNS name pattern; write crawl-*.googlebot.com, *.search.msn.com or search.msn.com");
    }
}
