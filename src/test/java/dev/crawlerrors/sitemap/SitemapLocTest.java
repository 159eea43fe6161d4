package dev.crawlerrors.sitemap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A location split by hand gives the answer {@link java.net.URI} gives, for plain and odd ones alike. */
class SitemapLocTest {

    private static final List<String> LOCS = List.of(
            "https://www.example.be/antwerp/meir", "https://WWW.Example.BE/Antwerp/Meir", "HTTP://www.example.be/",
            "https://www.example.be", "https://www.example.be?tab=1", "https://www.example.be/gent?tab=parkeren&p=2",
            "https://www.example.be/a?b?c", "https://www.example.be:443/x", "http://www.example.be:80/x", "http://www.example.be:443/x",
            "https://www.example.be:8080/x", "https://www.example.be:08080/x", "https://www.example.be:0443/x", "https://www.example.be:/x",
            "https://www.example.be:99999/x", "https://www.example.be:123456/x", "https://www.example.be:x/", "https://www.example.be/#top",
            "https://www.example.be/a#top", "https://www.example.be/a?b=1#frag", "https://www.example.be#frag",
            "https://www.example.be/caf%C3%A9", "https://www.example.be/caf%c3%a9?q=%20", "https://www.example.be/bad%zz",
            "https://www.example.be/bad%2", "https://www.example.be/bad%", "https://www.example.be/café", "https://bücher.de/x",
            "https://xn--bcher-kva.de/x", "https://user:pass@www.example.be/x", "https://user@www.example.be/x",
            "https://user:123@www.example.be/x", "https://127.0.0.1/x", "https://127.0.0.1:8080/x", "https://[::1]/x",
            "https://[2001:db8::1]:8443/x", "https://example.com./x", "https://-bad.example/x", "https://bad-.example/x",
            "https://a..b/x", "https://1abc.123/x", "https://abc.1de/x", "https://localhost/x", "https://a_b.example/x",
            "https://www.example.be/with space", "https://www.example.be/tab\there", "https://www.example.be/[x]", "https://www.example.be/x?[y]",
            "https://www.example.be/x?a|b", "https://www.example.be/x^y", "https://www.example.be/x\"y", "https://www.example.be/x<y>",
            "https://www.example.be/a;b:c@d&e=f+g$h,i!j~k*l'm(n)o", "https://www.example.be/a/./b/../c", "https://www.example.be//double",
            "https://www.example.be\\x", "ftp://www.example.be/x", "mailto:someone@example.be", "/relative/path", "www.example.be/x",
            "https:/www.example.be/x", "https:www.example.be", "https://", "http://:80/", "https://?x", "", "https",
            "https://www.example.be/x\u0000", "https://www.example.be/\uD83D\uDE00", "https://www.ex ample.be/");

    @Test
    void givesTheAnswersOfUriForEachEdgeCase() {
        for (String loc : LOCS) {
            assertThat(SitemapLoc.parse(loc)).as(loc).isEqualTo(SitemapLoc.byUri(loc));
        }
    }

    @Test
    void splitsThePlainShapeByHand() {
        assertThat(SitemapLoc.plain("https://WWW.example.be:443/antwerp/de-keyserlei?tab=1&p=%20"))
                .isEqualTo(new SitemapUrl("www.example.be", "/antwerp/de-keyserlei?tab=1&p=%20"));
        assertThat(SitemapLoc.plain("http://www.example.be:8080")).isEqualTo(new SitemapUrl("www.example.be:8080", "/"));
        assertThat(SitemapLoc.plain("https://www.example.be/#top")).isNull();
        assertThat(SitemapLoc.plain("https://bücher.de/x")).isNull();
    }

    @Test
    void givesTheAnswersOfUriForRandomLocations() {
        String alphabet = "aZ09-._~!$&'()*+,;=:@/?#%[]\\ \"<>^|é.:/?%";
        Random random = new Random(32);
        for (int i = 0; i < 5_000; i++) {
            StringBuilder loc = new StringBuilder(random.nextBoolean() ? "https://" : "HTTP://");
            int length = random.nextInt(24);
            for (int j = 0; j < length; j++) {
                loc.append(random.nextInt(3) == 0 ? alphabet.charAt(random.nextInt(alphabet.length())) : (char) ('a' + random.nextInt(3)));
            }
            assertThat(SitemapLoc.parse(loc.toString())).as(loc.toString()).isEqualTo(SitemapLoc.byUri(loc.toString()));
        }
    }
}
