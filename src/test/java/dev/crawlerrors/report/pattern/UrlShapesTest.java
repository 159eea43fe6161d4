package dev.crawlerrors.report.pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawlerrors.store.UrlCount;
import dev.crawlerrors.store.UrlPattern;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class UrlShapesTest {

    private static final long T0 = 1_747_200_000_000L;

    private static UrlCount url(String url, int status) {
        return new UrlCount(url, status, "crawler_search", 1, T0, T0, 1, 0);
    }

    private static PatternReport report(List<UrlCount> counts, String... names) {
        UrlShapes shapes = new UrlShapes();
        counts.forEach(shapes::add);
        return shapes.report(ZoneOffset.UTC, PlaceholderNames.of(List.of(names)));
    }

    private static Map<String, Long> hitsByPattern(PatternReport report) {
        Map<String, Long> out = new LinkedHashMap<>();
        report.patterns().forEach(p -> out.put(p.pattern(), p.hits()));
        return out;
    }

    @Test
    void makesValuesThatVaryIntoPlaceholdersNumberedByTheirPlace() {
        List<UrlCount> counts = new ArrayList<>();
        for (String user : List.of("alice", "bob", "carol", "dave")) {
            counts.add(url("/users/" + user + "/settings", 404));
        }
        counts.add(url("/team/alice/settings", 404));

        assertThat(hitsByPattern(report(counts))).containsExactly(Map.entry("/users/{1}/settings", 4L), Map.entry("/team/alice/settings", 1L));
    }

    @Test
    void aPatternsExamplesAreItsNewestUrlsWhateverTheOrderTheirCountsComeIn() {
        // /gone/a's hits come in three counts (two statuses, two bot types); its latest is the newest of all
        List<UrlCount> counts = new ArrayList<>(List.of(
                new UrlCount("/gone/a", 404, "crawler_search", 1, T0, T0, 1, 0),
                new UrlCount("/gone/b", 404, "crawler_search", 5, T0, T0 + 20_000, 5, 0),
                new UrlCount("/gone/c", 404, "crawler_search", 5, T0, T0 + 30_000, 5, 0),
                new UrlCount("/gone/d", 404, "crawler_search", 5, T0, T0 + 30_000, 5, 0),
                new UrlCount("/gone/e", 404, "crawler_search", 5, T0, T0 + 10_000, 5, 0),
                new UrlCount("/gone/a", 410, "crawler_search", 1, T0, T0 + 40_000, 1, 0),
                new UrlCount("/gone/a", 404, "crawler_ai", 1, T0, T0 + 5_000, 1, 0)));

        for (int turn = 0; turn < counts.size(); turn++) {
            java.util.Collections.rotate(counts, 1);
            ErrorPattern pattern = report(counts).patterns().get(0);
            assertThat(pattern.examples()).as("turn " + turn).containsExactly("/gone/a", "/gone/c", "/gone/d");
            assertThat(pattern.diagnosis().text()).as("turn " + turn).contains("(such as /gone/a)");
        }
        java.util.Collections.reverse(counts);
        assertThat(report(counts).patterns().get(0).examples()).containsExactly("/gone/a", "/gone/c", "/gone/d");
    }

    @Test
    void keepsNumbersAndSingleLettersAsTheirClassEvenWhenFew() {
        PatternReport report = report(List.of(url("/product/12", 410), url("/index/q", 404), url("/index/all", 404)));

        assertThat(hitsByPattern(report)).containsOnlyKeys("/product/{n}", "/index/{letter}", "/index/all");
    }

    @Test
    void aLetterMetAloneWithPagesBelowItIsASectionAsWritten() {
        // a shop's mobile pages under /m/ (the real shop's log of aShopsSectionsOfIdsStayApart): not "/{letter}/filter"
        List<UrlCount> counts = new ArrayList<>();
        for (String filter : List.of("f=b256%2Cb647&o=b", "f=p3,v1", "f=b8")) {
            counts.add(url("/m/filter?" + filter, 302));
        }
        for (String id : List.of("25828", "8030", "5158")) {
            counts.add(url("/m/product/" + id, 404));
        }
        counts.add(url("/index/q", 404));

        assertThat(hitsByPattern(report(counts))).containsOnly(
                Map.entry("/m/filter", 3L), Map.entry("/m/product/{n}", 3L), Map.entry("/index/{letter}", 1L));
    }

    @Test
    void lettersThatVaryAreTheirClassWithPagesBelowThemOrNot() {
        List<UrlCount> counts = List.of(url("/a/page", 404), url("/b/page", 404), url("/straten/q", 404));

        PatternReport report = report(counts);
        assertThat(hitsByPattern(report)).containsOnly(Map.entry("/{letter}/page", 2L), Map.entry("/straten/{letter}", 1L));
    }

    @Test
    void keepsFewerThanThreeValuesAsTheyAre() {
        PatternReport report = report(List.of(url("/about", 404), url("/contact", 404)));

        assertThat(hitsByPattern(report)).containsOnlyKeys("/about", "/contact");
    }

    @Test
    void aTrailingSlashIsAPatternOfItsOwn() {
        List<UrlCount> counts = new ArrayList<>();
        for (String page : List.of("a1", "b2", "c3")) {
            counts.add(url("/blog/" + page, 301));
            counts.add(url("/blog/" + page + "/", 304));
        }
        counts.add(url("/", 304));

        PatternReport report = report(counts);

        assertThat(hitsByPattern(report)).containsOnly(Map.entry("/blog/{1}", 3L), Map.entry("/blog/{1}/", 3L), Map.entry("/", 1L));
        assertThat(report.patterns().get(0).diagnosis().kind()).isEqualTo("trailing_slash_added");
        assertThat(report.patterns().get(0).diagnosis().text())
                .isEqualTo("Redirect (301) that adds a trailing slash: /blog/{1}/ is the final form; internal links and the sitemap should use it.");
    }

    @Test
    void saysWhenARedirectRemovesTheTrailingSlash() {
        List<UrlCount> counts = new ArrayList<>();
        for (String page : List.of("a1", "b2", "c3")) {
            counts.add(url("/docs/" + page + "/", 308));
            counts.add(new UrlCount("/docs/" + page, 404, "crawler_search", 1, T0, T0, 1, 0));
        }

        PatternReport report = report(counts);

        assertThat(report.patterns()).filteredOn(p -> p.pattern().equals("/docs/{1}/")).singleElement()
                .satisfies(p -> assertThat(p.diagnosis().text()).isEqualTo(
                        "Redirect (308) that removes a trailing slash: /docs/{1} is the final form; internal links and the sitemap should use it."));
    }

    @Test
    void diagnosesServerErrorsFirstThenSlownessThenFamiliesOf404s() {
        assertThat(diagnosis("/search/", new UrlCount("", 503, "crawler_search", 2, T0, T0, 2, 2)).text())
                .isEqualTo("Server errors (503) on 6 hits: the site failed to answer; urgent, crawlers slow down when they meet them.");
        assertThat(diagnosis("/slow/", new UrlCount("", 304, "crawler_search", 2, T0, T0, 2, 1)).text())
                .isEqualTo("Slow: 50% of these answers took a second or more; crawlers slow their crawl on a slow site.");
        assertThat(diagnosis("/gone/", new UrlCount("", 404, "crawler_search", 2, T0, T0, 2, 0)).text())
                .isEqualTo("A family of 404s: a template or link points at pages that do not exist (such as /gone/one); find where"
                        + " they are linked from.");
        assertThat(diagnosis("/gone/", new UrlCount("", 410, "crawler_search", 2, T0, T0, 2, 0)).kind()).isEqualTo("not_found");
        assertThat(diagnosis("/denied/", new UrlCount("", 403, "crawler_search", 2, T0, T0, 2, 0)).kind()).isEqualTo("client_error");
    }

    @Test
    void tellsARequestTheCrawlerGaveUpOnFromOneTheSiteRefused() {
        // nginx logs 499 when the client hangs up first: no rule, rate limit or login turned it away
        Diagnosis closed = diagnosis("/report/", new UrlCount("", 499, "crawler_search", 2, T0, T0, 0, 0));
        assertThat(closed.kind()).isEqualTo("client_closed");
        assertThat(closed.text()).isEqualTo("Closed by the crawler (499): it hung up before the site answered, most often because the"
                + " page took longer than it waits; look at these pages' response times.");
        // timed and slow, it is said to be slow: the cause, not the symptom
        assertThat(diagnosis("/report/", new UrlCount("", 499, "crawler_search", 2, T0, T0, 2, 2)).kind()).isEqualTo("slow");
    }

    /** The diagnosis of three URLs under {@code prefix}, each with the counts of {@code like}. */
    private static Diagnosis diagnosis(String prefix, UrlCount like) {
        List<UrlCount> counts = new ArrayList<>();
        for (String value : List.of("one", "two", "three")) {
            counts.add(new UrlCount(prefix + value, like.status(), like.botType(), like.hits(), like.firstMillis(), like.lastMillis(),
                    like.timedHits(), like.slowHits()));
        }
        PatternReport report = report(counts);
        assertThat(report.patterns()).hasSize(1);
        return report.patterns().get(0).diagnosis();
    }

    @Test
    void namesPlaceholdersAfterTheSitesTemplatesWhereTheyAgree() {
        List<UrlCount> counts = new ArrayList<>();
        for (String city : List.of("antwerp", "ghent", "bruges")) {
            for (String street : List.of("meir", "kouter", "markt")) {
                counts.add(url("/" + city + "/" + city + "-" + street, 308));
            }
            counts.add(url("/" + city + "/straten/q", 404));
        }

        // the shop's template does not agree with these patterns at their first place: a word against a placeholder
        PatternReport report = report(counts, "/shop/{item}", "/{city}/{street}");

        assertThat(hitsByPattern(report)).containsExactly(Map.entry("/{city}/{street}", 9L), Map.entry("/{city}/straten/{letter}", 3L));
    }

    @Test
    void aStreetNameFoundInManyCitiesIsStillAStreet() {
        // kerkstraat is met under three cities, so it is a word; but only at the streets' place, and
        // with nothing below it that the streets do not have, so it joins them
        List<UrlCount> counts = new ArrayList<>();
        for (String city : List.of("antwerp", "ghent", "bruges", "leuven")) {
            for (String street : List.of("meir", "kouter", "markt")) {
                for (String section : List.of("parkeren", "mobiliteit", "bedrijven", "scholen")) {
                    counts.add(url("/" + city + "/" + city + "-" + street + "/" + section, 308));
                }
            }
        }
        for (String city : List.of("antwerp", "ghent", "bruges")) {
            counts.add(url("/" + city + "/kerkstraat/parkeren", 308));
        }

        PatternReport report = report(counts, "/{city}/{street}/{section}");

        assertThat(hitsByPattern(report)).containsExactly(Map.entry("/{city}/{street}/{section}", 51L));
    }

    @Test
    void aSitesSectionsStayApartWhenNothingBelowThemIsAlike() {
        // the shape of a personal site's log: a few sections, each with slugs of its own
        List<UrlCount> counts = new ArrayList<>();
        for (String project : List.of("grok", "keynav", "pam_captcha", "xdotool")) {
            counts.add(url("/projects/" + project, 301));
        }
        for (String talk : List.of("logstash-1", "puppetconf-2012", "scale11x")) {
            counts.add(url("/presentations/" + talk + "/images/kibana.png", 304));
            counts.add(url("/presentations/" + talk + "/images/" + talk + ".png", 304));
        }
        for (String file : List.of("hbase.spec", "dhcpd.conf", "xdotool.tar.gz")) {
            counts.add(url("/files/" + file, 404));
        }
        counts.add(url("/resume.xml", 304));
        counts.add(url("/robots.txt", 304));
        counts.add(url("/favicon.ico", 304));

        // robots.txt and favicon.ico are crawlers' own requests: patterns of their own, never values
        assertThat(hitsByPattern(report(counts))).containsExactly(
                Map.entry("/presentations/{1}/images/{2}", 6L), Map.entry("/projects/{1}", 4L),
                Map.entry("/files/{1}", 3L), Map.entry("/favicon.ico", 1L), Map.entry("/resume.xml", 1L), Map.entry("/robots.txt", 1L));
    }

    @Test
    void aShopsSectionsOfIdsStayApart() {
        // the shape of a real shop's log (an online store's nginx log, 10,000 lines of 22 Jan 2019, published in
        // zaki1003/bot-detection-prototype as access_10000.log with no license: these URLs are written anew in its
        // shape): its products were gone (404) or redirected, its images moved (301), its filters redirected (302).
        // The products and the images were one pattern /{1}/{n}, "a family of 404s (such as /image/29404)".
        List<UrlCount> counts = new ArrayList<>();
        for (String id : List.of("8222", "7514", "81900", "14926")) {
            counts.add(url("/product/" + id, 404));
        }
        for (String slug : List.of("cinema-cm9750", "cinema-oj98", "cinema-hw-j7591")) {
            counts.add(url("/product/32003/62233/" + slug, 302));
        }
        for (String id : List.of("29404", "14925", "23488")) {
            counts.add(url("/image/" + id, 301));
        }
        counts.add(url("/image/1/productType/240x180", 301));
        for (String slug : List.of("fridge-noise", "gas-heater-sizes", "tv-buying-guide")) {
            counts.add(url("/article/1100/" + slug, 301));
        }
        counts.add(url("/article/608", 301));
        for (String filter : List.of("b186,b209,p5506", "b256%2Cb647", "b254")) {
            counts.add(url("/filter/" + filter, 302));
        }

        assertThat(hitsByPattern(report(counts))).containsOnly(
                Map.entry("/product/{n}", 4L), Map.entry("/product/{n}/{n}/{1}", 3L), Map.entry("/image/{n}", 3L),
                Map.entry("/image/{n}/productType/240x180", 1L), Map.entry("/article/{n}/{1}", 3L), Map.entry("/article/{n}", 1L),
                Map.entry("/filter/{1}", 3L));
    }

    @Test
    void usersWithNumberedPostsAreStillOneSet() {
        List<UrlCount> counts = new ArrayList<>();
        for (String user : List.of("alice", "bob", "carol")) {
            for (String post : List.of("1", "22", "333")) {
                counts.add(url("/" + user + "/" + post, 404));
            }
        }

        assertThat(hitsByPattern(report(counts))).containsExactly(Map.entry("/{1}/{n}", 9L));
    }

    @Test
    void aFamilyOf404sIsNamedByAUrlThatWasNotFound() {
        // the newest URL of the pattern is one that redirected: the diagnosis of the 404s names a 404
        List<UrlCount> counts = List.of(
                new UrlCount("/product/8222", 404, "crawler_search", 3, T0, T0 + 10_000, 0, 0),
                new UrlCount("/product/7514", 404, "crawler_search", 2, T0, T0 + 20_000, 0, 0),
                new UrlCount("/product/29404", 301, "crawler_search", 1, T0, T0 + 30_000, 0, 0));

        ErrorPattern pattern = report(counts).patterns().get(0);
        assertThat(pattern.examples()).startsWith("/product/29404");
        assertThat(pattern.diagnosis().kind()).isEqualTo("not_found");
        assertThat(pattern.diagnosis().text()).contains("(such as /product/7514)");
    }

    @Test
    void oneUrlNotFoundIsNotAFamilyThoughItsPatternHasOthers() {
        List<UrlCount> counts = List.of(
                new UrlCount("/product/8222", 404, "crawler_search", 3, T0, T0 + 10_000, 0, 0),
                new UrlCount("/product/29404", 301, "crawler_search", 1, T0, T0 + 30_000, 0, 0));

        assertThat(report(counts).patterns().get(0).diagnosis().text())
                .isEqualTo("Not found (404): a link or sitemap entry points at a page that does not exist.");
    }

    @Test
    void aRobotsTxtRedirectIsDiagnosedByWhereItWent() {
        String robots = "/robots.txt";
        // to robots.txt on the main host or on https (the log records no host, or another one): fine
        assertThat(robotsDiagnosis(new UrlCount(robots, 301, "crawler_search", 2, T0, T0, 0, 0,
                "https://www.example.com/robots.txt", null))).satisfies(d -> {
                    assertThat(d.kind()).isEqualTo("robots_redirect_host");
                    assertThat(d.text()).contains("(such as /robots.txt \u2192 https://www.example.com/robots.txt)")
                            .contains("Nothing to fix");
                });
        assertThat(robotsDiagnosis(new UrlCount(robots, 301, "crawler_search", 2, T0, T0, 0, 0,
                "https://www.example.com/robots.txt", "example.com")).kind()).isEqualTo("robots_redirect_host");
        // to a page that is not robots.txt: no rules there
        assertThat(robotsDiagnosis(new UrlCount(robots, 302, "crawler_search", 2, T0, T0, 0, 0, "/robots-2019.txt", null)))
                .satisfies(d -> {
                    assertThat(d.kind()).isEqualTo("robots_redirect");
                    assertThat(d.text()).contains("to another address (such as /robots.txt \u2192 /robots-2019.txt)")
                            .contains("serve it at /robots.txt itself");
                });
        // no target recorded: either may be, so no instruction that assumes one
        assertThat(robotsDiagnosis(new UrlCount(robots, 301, "crawler_search", 2, T0, T0, 0, 0)).text())
                .contains("the log does not say where to").doesNotContain("serve it at /robots.txt itself");
    }

    @Test
    void aRedirectToTheSamePathOnHttpsIsSaidSoAndIsNoChain() {
        // CloudFront's redirects of http to https (W3cLineParser reads their target): the same host and path, https
        List<UrlCount> counts = List.of(
                new UrlCount("/", 301, "crawler_search", 3, T0, T0, 0, 0, "https://www.example.com/", "www.example.com"),
                new UrlCount("/robots.txt", 301, "crawler_search", 2, T0, T0, 0, 0, "https://www.example.com/robots.txt",
                        "www.example.com"));

        Map<String, Diagnosis> byPattern = new LinkedHashMap<>();
        report(counts).patterns().forEach(p -> byPattern.put(p.pattern(), p.diagnosis()));
        assertThat(byPattern.get("/")).isEqualTo(new Diagnosis("redirect_other_host", "Redirect (301) to the same path on another"
                + " scheme or host (such as / \u2192 https://www.example.com/): internal links and the sitemap should use the address"
                + " it ends at."));
        assertThat(byPattern.get("/robots.txt").kind()).isEqualTo("robots_redirect_host");
    }

    private static Diagnosis robotsDiagnosis(UrlCount count) {
        return report(List.of(count)).patterns().get(0).diagnosis();
    }

    @Test
    void citiesAreOneSetEvenWhenEachHasStreetsOfItsOwn() {
        // each city a parent of its own streets, as a section is; but the streets have the same sections below them
        List<UrlCount> counts = new ArrayList<>();
        for (String city : List.of("antwerp", "ghent", "bruges")) {
            for (String street : List.of("meir", "kouter", "markt")) {
                counts.add(url("/" + city + "/" + city + "-" + street + "/parkeren", 308));
                counts.add(url("/" + city + "/" + city + "-" + street + "/scholen", 308));
            }
        }

        assertThat(hitsByPattern(report(counts))).containsExactly(Map.entry("/{1}/{2}/parkeren", 9L), Map.entry("/{1}/{2}/scholen", 9L));
    }

    @Test
    void aMissingRobotsTxtOnAFlatSiteIsAPatternOfItsOwnAndTheFlatPatternListsItsUrls() {
        // the shape of an IIS log of a flat site: robots.txt 404s outnumber every page's
        List<UrlCount> counts = new ArrayList<>();
        counts.add(new UrlCount("/robots.txt", 404, "crawler_search", 1_482, T0, T0 + 60_000, 0, 0));
        counts.add(new UrlCount("/bigisland.htm", 404, "crawler_search", 40, T0, T0 + 90_000, 0, 0));
        counts.add(new UrlCount("/kona.htm", 404, "crawler_search", 12, T0, T0, 0, 0));
        counts.add(new UrlCount("/kona.htm", 404, "crawler_ai", 3, T0, T0, 0, 0));
        counts.add(new UrlCount("/hilo.htm", 404, "crawler_search", 7, T0, T0, 0, 0));

        PatternReport report = report(counts);

        assertThat(hitsByPattern(report)).containsExactly(Map.entry("/robots.txt", 1_482L), Map.entry("/{1}", 62L));
        assertThat(report.patterns().get(0).diagnosis()).isEqualTo(new Diagnosis("robots_missing", "No robots.txt (404): crawlers find"
                + " no rules and crawl everything; publish one (a short file is enough) to say what they should leave alone."));
        assertThat(report.patterns().get(0).topUrls()).isEmpty();
        assertThat(report.patterns().get(1).topUrls()).containsExactly(new UrlHits("/bigisland.htm", 40, true),
                new UrlHits("/kona.htm", 15, true), new UrlHits("/hilo.htm", 7, true));
    }

    @Test
    void robotsTxtAnswering5xxOr429IsUrgent() {
        PatternReport report = report(List.of(new UrlCount("/robots.txt", 503, "crawler_search", 4, T0, T0, 0, 0),
                new UrlCount("/robots.txt", 200 + 229, "crawler_search", 1, T0, T0, 0, 0),
                new UrlCount("/robots.txt", 404, "crawler_search", 20, T0, T0, 0, 0)));

        assertThat(report.patterns()).singleElement().extracting(ErrorPattern::diagnosis).isEqualTo(new Diagnosis("robots_unavailable",
                "robots.txt answered 503, 429 on 5 hits: Google stops crawling the site while robots.txt answers 5xx (or 429);"
                        + " urgent, make it answer 200 (or 404) again."));
    }

    @Test
    void theFilesCrawlersFetchByThemselvesAreNeverFoldedAndSayWhatTheirAbsenceMeans() {
        List<UrlCount> counts = new ArrayList<>();
        for (String page : List.of("/about", "/contact", "/team", "/sitemap.xml", "/sitemap_index.xml", "/favicon.ico", "/ads.txt",
                "/.well-known/security.txt", "/.well-known/assetlinks.json", "/.well-known/traffic-advice")) {
            counts.add(url(page, 404));
        }

        PatternReport report = report(counts);
        Map<String, String> kinds = new LinkedHashMap<>();
        report.patterns().forEach(p -> kinds.put(p.pattern(), p.diagnosis().kind()));

        assertThat(kinds).containsOnly(Map.entry("/{1}", "not_found"), Map.entry("/.well-known/{1}", "site_file_missing"),
                Map.entry("/sitemap.xml", "sitemap_missing"), Map.entry("/sitemap_index.xml", "sitemap_missing"),
                Map.entry("/favicon.ico", "site_file_missing"), Map.entry("/ads.txt", "site_file_missing"));
        assertThat(report.matcher("/{1}").orElseThrow().matches("/favicon.ico")).isFalse();
    }

    @Test
    void exploitProbesAreDiagnosedAsProbesNotAsLinks() {
        List<UrlCount> counts = new ArrayList<>();
        for (String dir : List.of("phpMyAdmin", "pma", "myadmin", "mysql", "db")) {
            counts.add(url("/" + dir + "/scripts/setup.php", 404));
        }
        for (String script : List.of("test.cgi", "bash", "status")) {
            counts.add(url("/cgi-bin/" + script, 404));
        }
        counts.add(url("/GponForm/diag_Form?images/", 404));
        counts.add(url("/.env", 404));
        for (String page : List.of("/about", "/contact", "/team")) {
            counts.add(url(page, 404));
        }

        PatternReport report = report(counts);
        Map<String, String> kinds = new LinkedHashMap<>();
        report.patterns().forEach(p -> kinds.put(p.pattern(), p.diagnosis().kind()));

        assertThat(kinds).containsOnly(Map.entry("/{1}/scripts/setup.php", "probe"), Map.entry("/cgi-bin/{1}", "probe"),
                Map.entry("/GponForm/diag_Form", "probe"), Map.entry("/.env", "probe"), Map.entry("/{1}", "not_found"));
        assertThat(report.patterns()).filteredOn(p -> p.pattern().equals("/.env")).singleElement()
                .extracting(p -> p.diagnosis().text()).isEqualTo("An exploit probe (a leaked .env file): a scanner trying a known hole,"
                        + " not a link of the site; ignore, or block the address.");
    }

    @Test
    void aValueWhoseSubtreeHasAnotherShapeThanItsSiblingsStaysAsItIs() {
        // a site whose first segment is mostly cities, with old numbered pages and one API path beside them
        List<UrlCount> counts = new ArrayList<>();
        for (String city : List.of("antwerp", "ghent", "bruges", "leuven", "vilvoorde")) {
            for (String street : List.of("meir", "kouter", "markt")) {
                counts.add(url("/" + city + "/" + city + "-" + street, 308));
                counts.add(url("/" + city + "/" + city + "-" + street + "/parkeren", 308));
            }
            counts.add(url("/" + city + "/straten/q", 404));
        }
        counts.add(url("/old/123", 301));
        counts.add(url("/old/456", 410));
        counts.add(url("/old/789", 301));
        counts.add(url("/api/v1/streets?city=antwerp", 500));
        counts.add(url("/api/v1/streets?city=ghent", 503));

        PatternReport report = report(counts, "/{city}/{street}/{section}");

        assertThat(hitsByPattern(report)).containsOnlyKeys("/{city}/{street}", "/{city}/{street}/parkeren", "/{city}/straten/{letter}",
                "/old/{n}", "/api/v1/streets");
        assertThat(hitsByPattern(report)).contains(Map.entry("/old/{n}", 3L), Map.entry("/api/v1/streets", 2L));
        assertThat(report.patterns()).filteredOn(p -> p.pattern().equals("/old/{n}")).singleElement()
                .extracting(p -> p.diagnosis().text()).isEqualTo("Redirect (301): the log does not say where to; internal links and"
                        + " the sitemap should point at the final address.");
        assertThat(report.matcher("/{city}/{street}").orElseThrow().matches("/old/123")).isFalse();
    }

    private static UrlCount redirect(String url, int status, String location, String host) {
        return new UrlCount(url, status, "crawler_search", 1, T0, T0, 1, 0, location, host);
    }

    /** The diagnosis of the one pattern of {@code counts}' URLs under {@code prefix}. */
    private static Diagnosis diagnosisOf(String pattern, List<UrlCount> counts) {
        return report(counts).patterns().stream().filter(p -> p.pattern().equals(pattern)).findFirst().orElseThrow().diagnosis();
    }

    @Test
    void aRedirectsRecordedTargetSaysItsCause() {
        List<UrlCount> slash = List.of(redirect("/docs/one", 301, "/docs/one/", null), redirect("/docs/two", 301, "/docs/two/", null),
                redirect("/docs/six", 301, "https://www.example.com/docs/six/", "www.example.com"));
        assertThat(diagnosisOf("/docs/{1}", slash)).isEqualTo(new Diagnosis("trailing_slash_added", "Redirect (301) that adds a trailing"
                + " slash (such as /docs/one \u2192 /docs/one/): /docs/{1}/ is the final form; internal links and the sitemap should"
                + " use it."));

        List<UrlCount> host = List.of(redirect("/blog/one", 301, "https://www.example.com/blog/one", "example.com"),
                redirect("/blog/two", 301, "https://www.example.com/blog/two", "example.com"),
                redirect("/blog/six", 301, "https://www.example.com/blog/six", "example.com"));
        assertThat(diagnosisOf("/blog/{1}", host)).isEqualTo(new Diagnosis("redirect_other_host", "Redirect (301) to another host (such"
                + " as /blog/one \u2192 https://www.example.com/blog/one): internal links and the sitemap should use the address it ends"
                + " at."));

        List<UrlCount> home = List.of(redirect("/old/1", 301, "/", null), redirect("/old/2", 302, "https://example.com/", "example.com"),
                redirect("/old/3", 301, "/", null));
        assertThat(diagnosisOf("/old/{n}", home)).isEqualTo(new Diagnosis("soft_404", "Redirect (301, 302) to the home page (such as"
                + " /old/1 \u2192 /): a soft 404, which search engines count as not found; answer 404 or 410, or redirect to the page"
                + " that takes its place."));
    }

    @Test
    void aTargetThatRedirectsAgainIsAChain() {
        List<UrlCount> counts = new ArrayList<>();
        for (String n : List.of("1", "2", "3")) {
            counts.add(redirect("/old/" + n, 301, "/new/" + n, null));
            counts.add(redirect("/new/" + n, 301, "/new/" + n + "/", null));
        }

        PatternReport report = report(counts);

        assertThat(report.patterns()).filteredOn(p -> p.pattern().equals("/old/{n}")).singleElement().extracting(ErrorPattern::diagnosis)
                .isEqualTo(new Diagnosis("redirect_chain", "Redirect chain (301): the target redirects again (such as /old/1 \u2192 /new/1);"
                        + " point the first redirect, internal links and the sitemap at the final address."));
        assertThat(report.patterns()).filteredOn(p -> p.pattern().equals("/new/{n}")).singleElement()
                .extracting(p -> p.diagnosis().kind()).isEqualTo("trailing_slash_added");
    }

    @Test
    void refusesATemplateThatIsNotOne() {
        assertThatThrownBy(() -> PlaceholderNames.of(List.of("city/{street}")))
                .hasMessage("a URL pattern is a path such as /{city}/{street}, starting with '/'; got 'city/{street}'");
        assertThatThrownBy(() -> PlaceholderNames.of(List.of("/{city}/x{street}")))
                .hasMessageStartingWith("a placeholder in a URL pattern is a whole segment such as {city}");
    }

    @Test
    void staysBoundedWithManyDistinctUrlsAndStillFindsTheirShapes() {
        UrlShapes shapes = new UrlShapes();
        for (int i = 0; i < 300_000; i++) {
            shapes.add(url("/city" + (i % 50) + "/street-" + i + (i % 3 == 0 ? "/" : ""), i % 3 == 0 ? 304 : 308));
        }

        PatternReport report = shapes.report(ZoneOffset.UTC, PlaceholderNames.NONE);

        assertThat(shapes.size()).isLessThanOrEqualTo(ShapeTrie.MAX_NODES + 100);
        assertThat(hitsByPattern(report)).containsExactly(Map.entry("/{1}/{2}", 200_000L), Map.entry("/{1}/{2}/", 100_000L));
    }

    @Test
    void staysBoundedWhenTheSameSlugsRecurUnderEveryParent() {
        // every slug under all fifty sections: each is a word, which a node does not fold
        UrlShapes shapes = new UrlShapes();
        for (int i = 0; i < 100_000; i++) {
            shapes.add(url("/section" + (i % 50) + "/item-" + (i / 50), 404));
        }

        PatternReport report = shapes.report(ZoneOffset.UTC, PlaceholderNames.NONE);

        assertThat(shapes.size()).isLessThanOrEqualTo(ShapeTrie.MAX_NODES + 100);
        assertThat(hitsByPattern(report)).containsExactly(Map.entry("/{1}/{2}", 100_000L));
    }

    /** Every URL has exactly one pattern, and a pattern's matcher matches exactly the URLs it counted. */
    @Property(tries = 300)
    void everyUrlMatchesExactlyThePatternThatCountedIt(@ForAll("urlSets") List<String> urls) {
        List<UrlCount> counts = urls.stream().map(u -> url(u, 404)).toList();
        PatternReport report = report(counts);

        for (ErrorPattern pattern : report.patterns()) {
            UrlPattern matcher = report.matcher(pattern.pattern()).orElseThrow();
            long matching = urls.stream().filter(matcher::matches).count();
            assertThat(matching).as("URLs matching %s of %s", pattern.pattern(), urls).isEqualTo(pattern.hits());
        }
        for (String url : urls) {
            long patterns = report.patterns().stream().filter(p -> report.matcher(p.pattern()).orElseThrow().matches(url)).count();
            assertThat(patterns).as("patterns matching %s", url).isEqualTo(1);
        }
    }

    @Provide
    Arbitrary<List<String>> urlSets() {
        Arbitrary<String> segment = Arbitraries.oneOf(
                Arbitraries.of("a", "b", "x", "7", "42", "straten", "parkeren", "", "x.y", "%20", "(", "é", "robots.txt", ".env", "pma",
                        ".well-known", "sitemap.xml"),
                Arbitraries.strings().withChars("abc-").ofMinLength(2).ofMaxLength(4));
        Arbitrary<String> path = segment.list().ofMinSize(0).ofMaxSize(4).flatMap(segments -> Arbitraries.of("", "/", "?q=1").map(
                end -> "/" + String.join("/", segments) + end));
        return Arbitraries.oneOf(path, path, path, Arbitraries.of("*", "http://x/y")).list().ofMinSize(1).ofMaxSize(40);
    }
}
