package dev.crawlerrors.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.store.MinuteCell;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** What a URL head says of a prefix is never wrong: all its URLs start with it, or none does, or it cannot tell. */
class UrlPrefixTest {

    private static final Pattern HEAD = Pattern.compile(MinuteCell.URL_HEAD);
    private static final String LETTERS = "/ab?#x";

    @Test
    void aHeadDecidesThePrefixesItCanAndOnlyThose() {
        assertThat(UrlPrefix.match("/gent/", "/gent/")).isEqualTo(UrlPrefix.Match.ALL);
        assertThat(UrlPrefix.match("/ge", "/gent/")).isEqualTo(UrlPrefix.Match.ALL);
        assertThat(UrlPrefix.match("/gent/", "/genk/")).isEqualTo(UrlPrefix.Match.NONE);
        assertThat(UrlPrefix.match("/gent/straten/", "/gent/")).isEqualTo(UrlPrefix.Match.UNKNOWN);
        assertThat(UrlPrefix.match("/gent/", "/")).as("a URL with no second / before its query").isEqualTo(UrlPrefix.Match.NONE);
        assertThat(UrlPrefix.match("/zoeken", "/")).isEqualTo(UrlPrefix.Match.UNKNOWN);
        assertThat(UrlPrefix.match("/", "/")).isEqualTo(UrlPrefix.Match.ALL);
        assertThat(UrlPrefix.match("/", "")).isEqualTo(UrlPrefix.Match.NONE);
        assertThat(UrlPrefix.match("*", "")).isEqualTo(UrlPrefix.Match.UNKNOWN);
        assertThat(UrlPrefix.match(null, "/a/")).isEqualTo(UrlPrefix.Match.ALL);
    }

    @Test
    void randomUrlsAndPrefixesAgreeWithStartsWith() {
        SplittableRandom random = new SplittableRandom(34);
        int decided = 0;
        for (int i = 0; i < 200_000; i++) {
            String url = word(random, 8);
            String prefix = word(random, 5);
            if (prefix.isEmpty()) {
                continue;
            }
            UrlPrefix.Match match = UrlPrefix.match(prefix, head(url));
            if (match != UrlPrefix.Match.UNKNOWN) {
                decided++;
                assertThat(match == UrlPrefix.Match.ALL).as(url + " starts with " + prefix).isEqualTo(url.startsWith(prefix));
            }
        }
        assertThat(decided).isGreaterThan(100_000);
    }

    /** A URL's head as the stores take it. */
    private static String head(String url) {
        Matcher m = HEAD.matcher(url);
        return m.lookingAt() ? m.group() : url.startsWith("/") ? "/" : "";
    }

    private static String word(SplittableRandom random, int max) {
        StringBuilder sb = new StringBuilder(random.nextInt(3) == 0 ? "" : "/");
        int n = random.nextInt(max);
        for (int i = 0; i < n; i++) {
            sb.append(LETTERS.charAt(random.nextInt(LETTERS.length())));
        }
        return sb.toString();
    }
}
