package dev.crawlerrors.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A URL's head as the stores' SQL extracts it, and the prefixes the heads decide. */
class UrlHeadsTest {

    /** The head as the SQL makes it: {@link MinuteCell#URL_HEAD}'s match, else {@code /} for a rooted URL, else empty. */
    private static String asSql(String url) {
        Matcher m = Pattern.compile(MinuteCell.URL_HEAD).matcher(url);
        return m.find() ? m.group() : url.startsWith("/") ? "/" : "";
    }

    @Test
    void aHeadIsWhatTheStoresSqlExtracts() {
        for (String url : new String[] {"/gent/kaart", "/gent/", "/gent", "/", "", "*", "//x/y", "/a?b/c", "/a#b/c", "/a/b?c=/d/",
            "relative/x", "/é/x"}) {
            assertThat(UrlHeads.of(url)).as(url).isEqualTo(asSql(url));
        }
    }

    @Test
    void headsDecideNoPrefixTheRootAndAHeadOnly() {
        assertThat(UrlHeads.decide(null)).isTrue();
        assertThat(UrlHeads.decide("")).isTrue();
        assertThat(UrlHeads.decide("/")).isTrue();
        assertThat(UrlHeads.decide("/gent/")).isTrue();
        assertThat(UrlHeads.decide("/gent")).isFalse();
        assertThat(UrlHeads.decide("/gent/kaart")).isFalse();
        assertThat(UrlHeads.decide("/a?b/")).isFalse();
        assertThat(UrlHeads.decide("gent/")).isFalse();
    }
}
