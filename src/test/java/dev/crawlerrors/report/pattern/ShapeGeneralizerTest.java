package dev.crawlerrors.report.pattern;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.store.UrlCount;
import dev.crawlerrors.store.UrlPattern;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The shapes read out of a trie of URLs: values that vary become placeholders, words and a site's
 * sections stay, numbers and letters are their class, a trailing slash is a shape of its own, the
 * trie itself is left as it was, and each URL has exactly one shape.
 */
class ShapeGeneralizerTest {

    private static final long T0 = 1_747_200_000_000L;

    private final ShapeTrie trie = new ShapeTrie();

    private void add(String... urls) {
        for (String url : urls) {
            trie.add(new UrlCount(url, 404, "crawler_search", 1, T0, T0, 1, 0));
        }
    }

    /** Each shape's text (placeholders numbered by their place) and its hits. */
    private Map<String, Long> shapes() {
        Map<String, Long> out = new TreeMap<>();
        for (ShapeGeneralizer.Shape shape : ShapeGeneralizer.shapes(trie)) {
            out.merge(PlaceholderNames.NONE.text(shape.pattern()), shape.stats().hits, Long::sum);
        }
        return out;
    }

    @Test
    void makesThreeValuesAtOnePlaceAPlaceholderAndMergesWhatIsBelowThem() {
        add("/users/alice/settings", "/users/bob/settings", "/users/carol/settings", "/users/carol/photos");

        assertThat(shapes()).containsExactly(Map.entry("/users/{1}/photos", 1L), Map.entry("/users/{1}/settings", 3L));
    }

    @Test
    void keepsTwoValuesAsTheyAre() {
        add("/users/alice", "/users/bob");

        assertThat(shapes()).containsOnlyKeys("/users/alice", "/users/bob");
    }

    @Test
    void makesNumbersAndSingleLettersTheirClassHoweverFew() {
        add("/product/12", "/index/q");

        assertThat(shapes()).containsOnlyKeys("/product/{n}", "/index/{letter}");
    }

    @Test
    void givesAPathWithATrailingSlashAShapeOfItsOwn() {
        add("/blog/a1", "/blog/b2", "/blog/c3", "/blog/a1/", "/");

        assertThat(shapes()).containsExactly(Map.entry("/", 1L), Map.entry("/blog/{1}", 3L), Map.entry("/blog/{1}/", 1L));
    }

    @Test
    void keepsASitesSectionsApartWhenNothingBelowThemIsAlike() {
        add("/projects/grok", "/projects/keynav", "/projects/xdotool");
        add("/talks/scale11x/images/a.png", "/talks/logstash/images/b.png", "/talks/puppetconf/images/c.png");
        add("/files/hbase.spec", "/files/dhcpd.conf", "/files/xdotool.tar.gz");

        assertThat(shapes()).containsOnlyKeys("/projects/{1}", "/talks/{1}/images/{2}", "/files/{1}");
    }

    @Test
    void makesWordsOfOneShapeAPlaceholderAndJoinsAWordMetHereOnly() {
        // the streets' sections are words (met under every street); kerkstraat is a word too (three
        // cities have it) but only at the streets' place, with nothing below it the streets lack
        for (String city : List.of("antwerp", "ghent", "bruges", "leuven")) {
            for (String street : List.of("meir", "kouter", "markt")) {
                for (String section : List.of("parkeren", "mobiliteit", "bedrijven", "scholen")) {
                    add("/" + city + "/" + city + "-" + street + "/" + section);
                }
            }
        }
        add("/antwerp/kerkstraat/parkeren", "/ghent/kerkstraat/parkeren", "/bruges/kerkstraat/parkeren");

        assertThat(shapes()).containsExactly(Map.entry("/{1}/{2}/{3}", 51L));
    }

    @Test
    void aPlaceholderMatchesNoneOfTheWordsBesideIt() {
        for (String city : List.of("antwerp", "ghent", "bruges", "leuven")) {
            add("/" + city + "/straten/q", "/" + city + "/" + city + "-meir", "/" + city + "/" + city + "-markt", "/" + city + "/" + city + "-kouter");
        }

        Map<String, UrlPattern> byText = new LinkedHashMap<>();
        ShapeGeneralizer.shapes(trie).forEach(s -> byText.put(PlaceholderNames.NONE.text(s.pattern()), s.pattern()));

        assertThat(byText).containsOnlyKeys("/{1}/{2}", "/{1}/straten/{letter}");
        assertThat(byText.get("/{1}/{2}").matches("/ghent/ghent-meir")).isTrue();
        assertThat(byText.get("/{1}/{2}").matches("/ghent/straten")).as("straten is a word beside the placeholder").isFalse();
    }

    @Test
    void givesEachTargetThatIsNotAPathAShapeOfItsOwn() {
        add("*", "example.com:443", "/a");

        assertThat(ShapeGeneralizer.shapes(trie)).extracting(s -> s.pattern().rooted()).containsExactlyInAnyOrder(true, false, false);
        assertThat(ShapeGeneralizer.shapes(trie)).filteredOn(s -> !s.pattern().rooted())
                .extracting(s -> s.pattern().segments().get(0).literal()).containsExactly("*", "example.com:443");
    }

    @Test
    void leavesTheTrieAsItWasSoItCanTakeMoreHits() {
        add("/users/alice", "/users/bob", "/users/carol");
        assertThat(shapes()).containsExactly(Map.entry("/users/{1}", 3L));
        assertThat(shapes()).as("read twice").containsExactly(Map.entry("/users/{1}", 3L));

        add("/users/alice", "/videos/x1");

        assertThat(shapes()).containsExactly(Map.entry("/users/{1}", 4L), Map.entry("/videos/x1", 1L));
        assertThat(trie.root.child("users").children).containsKeys("alice", "bob", "carol");
    }

    @Test
    void matchesEveryUrlByExactlyOneShapeThatCountsIt() {
        List<String> urls = List.of("/users/alice/settings", "/users/bob/settings", "/users/carol/settings", "/users/7",
                "/users/x", "/about", "/about/", "/shop/a/b", "/shop/c/d", "/shop/e/f", "/shop/e/", "/");
        add(urls.toArray(String[]::new));
        List<ShapeGeneralizer.Shape> shapes = ShapeGeneralizer.shapes(trie);

        for (String url : urls) {
            assertThat(shapes).as(url).filteredOn(s -> s.pattern().matches(url)).hasSize(1);
        }
        assertThat(shapes.stream().mapToLong(s -> s.stats().hits).sum()).isEqualTo(urls.size());
    }
}
