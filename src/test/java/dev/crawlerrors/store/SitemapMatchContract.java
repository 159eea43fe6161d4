package dev.crawlerrors.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.SampleHits;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.sitemap.SitemapUrl;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What {@code in_sitemap} answers, the same on every engine: a hit's URL is listed when a sitemap
 * lists its host (in any case) and its request target (the query as logged), or its target alone
 * where the log has no host; a new read of a sitemap replaces the old one whole.
 */
public abstract class SitemapMatchContract {

    /** A fresh, empty store of the engine under test. */
    protected abstract HitStore open();

    private static CrawlerHit hit(String time, String url, int status, String host) {
        CrawlerHit base = SampleHits.googlebot(time, "66.249.66.1", url, status, SampleHits.VERIFIED);
        Hit h = base.hit();
        return new CrawlerHit(new Hit(h.epochMillis(), h.offsetMinutes(), h.ip(), h.method(), h.url(), h.status(), h.bytes(), h.referer(),
                h.userAgent(), h.durationMs(), host), base.crawler(), base.verdict());
    }

    private static final List<SitemapUrl> SITEMAP = List.of(
            new SitemapUrl("www.example.be", "/antwerp/de-keyserlei"),
            new SitemapUrl("www.example.be", "/gent/veldstraat?tab=parkeren&p=2"),
            new SitemapUrl("www.example.be", "/antwerp/meir"));

    @Test
    void matchesByHostAndTargetOrTargetAloneWhereTheLogHasNoHost() {
        try (HitStore store = open()) {
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:00Z", "/antwerp/de-keyserlei", 308, null),
                    hit("2025-05-14T10:01:00Z", "/antwerp/straten/q", 404, null),
                    hit("2025-05-14T10:02:00Z", "/gent/veldstraat?tab=parkeren&p=2", 404, "WWW.Example.be"),
                    hit("2025-05-14T10:03:00Z", "/gent/veldstraat", 404, "www.example.be"),
                    hit("2025-05-14T10:04:00Z", "/antwerp/meir", 410, "other.example.org")));
            store.writer().flush();
            store.sitemaps().replace("https://www.example.be/sitemap.xml", Instant.parse("2025-05-14T09:00:00Z"), SITEMAP);

            assertThat(store.reader().page(HitFilter.ERRORS.withInSitemap(true), 0, 10)).extracting(StoredHit::url)
                    .containsExactly("/gent/veldstraat?tab=parkeren&p=2", "/antwerp/de-keyserlei");
            assertThat(store.reader().page(HitFilter.ERRORS.withInSitemap(false), 0, 10)).extracting(StoredHit::url)
                    .containsExactly("/antwerp/meir", "/gent/veldstraat", "/antwerp/straten/q");
            assertThat(store.reader().count(HitFilter.ERRORS.withInSitemap(true))).isEqualTo(2);
            assertThat(store.reader().count(HitFilter.ERRORS.withInSitemap(false))).isEqualTo(3);
            assertThat(store.reader().count(HitFilter.ERRORS)).isEqualTo(5);
            assertThat(store.sitemaps().sitemaps()).containsExactly(
                    new StoredSitemap("https://www.example.be/sitemap.xml", Instant.parse("2025-05-14T09:00:00Z"), 3));
        }
    }

    /** The URLs page asks the same of each URL's kept state as the report asks of each hit, by number. */
    @Test
    void theUrlsPageMatchesAsTheHitsDo() {
        try (HitStore store = open()) {
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:00Z", "/antwerp/de-keyserlei", 308, null),
                    hit("2025-05-14T10:01:00Z", "/antwerp/straten/q", 404, null),
                    hit("2025-05-14T10:02:00Z", "/gent/veldstraat?tab=parkeren&p=2", 404, "WWW.Example.be"),
                    hit("2025-05-14T10:03:00Z", "/gent/veldstraat", 404, "www.example.be"),
                    hit("2025-05-14T10:04:00Z", "/antwerp/meir", 410, "other.example.org"),
                    hit("2025-05-14T10:05:00Z", "/antwerp/meir", 404, "www.example.be")));
            store.writer().flush();
            store.sitemaps().replace("https://www.example.be/sitemap.xml", Instant.parse("2025-05-14T09:00:00Z"), SITEMAP);
            store.reader().urlStates().fold();
            Snapshot at = store.reader().snapshot();

            UrlQuery listed = new UrlQuery(HitFilter.ERRORS.withInSitemap(true), Set.of(), false, false, UrlSort.errors);
            UrlQuery unlisted = new UrlQuery(HitFilter.ERRORS.withInSitemap(false), Set.of(), false, false, UrlSort.errors);
            assertThat(store.reader().urlStates().page(listed, at, 0, 10).rows()).extracting(state -> state.host() + " " + state.url())
                    .containsExactlyInAnyOrder(" /antwerp/de-keyserlei", "WWW.Example.be /gent/veldstraat?tab=parkeren&p=2",
                            "www.example.be /antwerp/meir");
            assertThat(store.reader().urlStates().page(unlisted, at, 0, 10).rows()).extracting(state -> state.host() + " " + state.url())
                    .containsExactlyInAnyOrder(" /antwerp/straten/q", "www.example.be /gent/veldstraat", "other.example.org /antwerp/meir");
            assertThat(store.reader().urlStates().page(listed, at, 0, 10).total()).isEqualTo(3);
            UrlQuery ranged = new UrlQuery(HitFilter.ERRORS.withTimes(Instant.parse("2025-05-14T00:00:00Z"), Instant.parse("2025-05-15T00:00:00Z"))
                    .withInSitemap(true), Set.of(), false, false, UrlSort.errors);
            assertThat(store.reader().urlStates().page(ranged, at, 0, 10).rows()).as("made from the hits of a time range")
                    .extracting(state -> state.host() + " " + state.url())
                    .containsExactlyInAnyOrder(" /antwerp/de-keyserlei", "WWW.Example.be /gent/veldstraat?tab=parkeren&p=2",
                            "www.example.be /antwerp/meir");
        }
    }

    /**
     * A page whose times are known (as the report asks a page the counts placed) matches as the whole
     * view does, the hits of other times left out, and follows a new read of the sitemap.
     */
    @Test
    void aPageOfKnownTimesMatchesAsTheWholeViewAndFollowsANewRead() {
        try (HitStore store = open()) {
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:00Z", "/antwerp/de-keyserlei", 308, null),
                    hit("2025-05-14T10:01:00Z", "/antwerp/straten/q", 404, null),
                    hit("2025-05-14T10:02:00Z", "/gent/veldstraat?tab=parkeren&p=2", 404, "WWW.Example.be"),
                    hit("2025-05-14T10:03:00Z", "/gent/veldstraat", 404, "www.example.be"),
                    hit("2025-05-14T10:04:00Z", "/antwerp/meir", 410, "other.example.org"),
                    hit("2025-05-14T11:00:00Z", "/antwerp/de-keyserlei", 404, "www.example.be")));
            store.writer().flush();
            store.sitemaps().replace("https://www.example.be/sitemap.xml", Instant.parse("2025-05-14T09:00:00Z"), SITEMAP);
            Snapshot at = store.reader().snapshot();
            long from = Instant.parse("2025-05-14T10:00:00Z").toEpochMilli();
            long to = Instant.parse("2025-05-14T10:30:00Z").toEpochMilli();

            assertThat(store.reader().rows(HitFilter.ERRORS.withInSitemap(true), at, from, to, 0, 10)).extracting(StoredHit::url)
                    .containsExactly("/gent/veldstraat?tab=parkeren&p=2", "/antwerp/de-keyserlei");
            assertThat(store.reader().rows(HitFilter.ERRORS.withInSitemap(false), at, from, to, 0, 10)).extracting(StoredHit::url)
                    .containsExactly("/antwerp/meir", "/gent/veldstraat", "/antwerp/straten/q");
            assertThat(store.reader().rows(HitFilter.ERRORS.withStatuses(List.of(new StatusRange(404, 404))).withInSitemap(false), at, from, to, 0, 10))
                    .extracting(StoredHit::url).containsExactly("/gent/veldstraat", "/antwerp/straten/q");

            store.sitemaps().replace("https://www.example.be/sitemap.xml", Instant.parse("2025-05-14T12:00:00Z"),
                    List.of(new SitemapUrl("www.example.be", "/gent/veldstraat")));
            assertThat(store.reader().rows(HitFilter.ERRORS.withInSitemap(true), at, from, to, 0, 10)).as("after a new read")
                    .extracting(StoredHit::url).containsExactly("/gent/veldstraat");
            assertThat(store.reader().rows(HitFilter.ERRORS.withInSitemap(false), at, from, to, 0, 10)).extracting(StoredHit::url)
                    .containsExactly("/antwerp/meir", "/gent/veldstraat?tab=parkeren&p=2", "/antwerp/straten/q", "/antwerp/de-keyserlei");
        }
    }

    /**
     * The newest rows from a time on, with no end (as a first page asked before its view is counted reads
     * them), match as the whole view does and follow a new read of the sitemap.
     */
    @Test
    void theNewestRowsFromATimeOnMatchAsTheWholeViewAndFollowANewRead() {
        try (HitStore store = open()) {
            store.writer().append(List.of(
                    hit("2025-05-14T09:00:00Z", "/antwerp/meir", 404, "www.example.be"),
                    hit("2025-05-14T10:00:00Z", "/antwerp/de-keyserlei", 308, null),
                    hit("2025-05-14T10:01:00Z", "/antwerp/straten/q", 404, null),
                    hit("2025-05-14T10:02:00Z", "/gent/veldstraat?tab=parkeren&p=2", 404, "WWW.Example.be"),
                    hit("2025-05-14T10:03:00Z", "/gent/veldstraat", 404, "www.example.be"),
                    hit("2025-05-14T10:04:00Z", "/antwerp/meir", 410, "other.example.org"),
                    hit("2025-05-14T11:00:00Z", "/antwerp/de-keyserlei", 404, "www.example.be")));
            store.writer().flush();
            store.sitemaps().replace("https://www.example.be/sitemap.xml", Instant.parse("2025-05-14T08:00:00Z"), SITEMAP);
            Snapshot at = store.reader().snapshot();
            long from = Instant.parse("2025-05-14T10:00:00Z").toEpochMilli();
            long end = Long.MAX_VALUE / 2;

            assertThat(store.reader().rows(HitFilter.ERRORS.withInSitemap(true), at, from, end, 0, 10)).extracting(StoredHit::url)
                    .containsExactly("/antwerp/de-keyserlei", "/gent/veldstraat?tab=parkeren&p=2", "/antwerp/de-keyserlei");
            assertThat(store.reader().rows(HitFilter.ERRORS.withInSitemap(false), at, from, end, 0, 10)).extracting(StoredHit::url)
                    .containsExactly("/antwerp/meir", "/gent/veldstraat", "/antwerp/straten/q");
            assertThat(store.reader().rows(HitFilter.ERRORS.withInSitemap(true), at, from, end, 0, 2)).as("the newest two")
                    .extracting(StoredHit::url).containsExactly("/antwerp/de-keyserlei", "/gent/veldstraat?tab=parkeren&p=2");

            store.sitemaps().replace("https://www.example.be/sitemap.xml", Instant.parse("2025-05-14T12:00:00Z"),
                    List.of(new SitemapUrl("www.example.be", "/gent/veldstraat")));
            assertThat(store.reader().rows(HitFilter.ERRORS.withInSitemap(true), at, from, end, 0, 10)).as("after a new read")
                    .extracting(StoredHit::url).containsExactly("/gent/veldstraat");
            assertThat(store.reader().rows(HitFilter.ERRORS.withInSitemap(false), at, from, end, 0, 10)).extracting(StoredHit::url)
                    .containsExactly("/antwerp/de-keyserlei", "/antwerp/meir", "/gent/veldstraat?tab=parkeren&p=2", "/antwerp/straten/q",
                            "/antwerp/de-keyserlei");
        }
    }

    @Test
    void aNewReadReplacesTheOldWholeAndSitemapsAddUp() {
        try (HitStore store = open()) {
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:00Z", "/antwerp/de-keyserlei", 308, null),
                    hit("2025-05-14T10:01:00Z", "/antwerp/straten/q", 404, null),
                    hit("2025-05-14T10:02:00Z", "/news/1", 404, null)));
            store.writer().flush();
            store.sitemaps().replace("streets", Instant.parse("2025-05-14T09:00:00Z"), SITEMAP);
            store.sitemaps().replace("news", Instant.parse("2025-05-14T09:00:00Z"), List.of(new SitemapUrl("news.example.be", "/news/1")));
            store.sitemaps().replace("streets", Instant.parse("2025-05-14T11:00:00Z"),
                    List.of(new SitemapUrl("www.example.be", "/antwerp/straten/q")));

            assertThat(store.reader().page(HitFilter.ERRORS.withInSitemap(true), 0, 10)).extracting(StoredHit::url)
                    .containsExactly("/news/1", "/antwerp/straten/q");
            assertThat(store.sitemaps().sitemaps()).containsExactly(
                    new StoredSitemap("news", Instant.parse("2025-05-14T09:00:00Z"), 1),
                    new StoredSitemap("streets", Instant.parse("2025-05-14T11:00:00Z"), 1));
        }
    }

    @Test
    void aReadWrittenAsItComesIsMatchedOnlyOnceCommittedAndDroppedWhenNot() {
        try (HitStore store = open()) {
            store.writer().append(List.of(
                    hit("2025-05-14T10:00:00Z", "/antwerp/de-keyserlei", 308, null),
                    hit("2025-05-14T10:01:00Z", "/antwerp/straten/q", 404, null)));
            store.writer().flush();
            store.sitemaps().replace("streets", Instant.parse("2025-05-14T09:00:00Z"), SITEMAP);
            SitemapUrl later = new SitemapUrl("www.example.be", "/antwerp/straten/q");
            try (SitemapWrite refused = store.sitemaps().replacing("streets")) {
                assertThat(refused.add(later)).isTrue();
                assertThat(refused.add(later)).isFalse();
                assertThat(store.reader().page(HitFilter.ERRORS.withInSitemap(true), 0, 10)).extracting(StoredHit::url)
                        .containsExactly("/antwerp/de-keyserlei");
            }
            assertThat(store.reader().page(HitFilter.ERRORS.withInSitemap(true), 0, 10)).extracting(StoredHit::url)
                    .containsExactly("/antwerp/de-keyserlei");
            assertThat(store.sitemaps().listed(List.of(later))).isEmpty();

            try (SitemapWrite read = store.sitemaps().replacing("streets")) {
                read.add(later);
                read.add(later);
                read.commit(Instant.parse("2025-05-14T11:00:00Z"));
            }
            assertThat(store.reader().page(HitFilter.ERRORS.withInSitemap(true), 0, 10)).extracting(StoredHit::url)
                    .containsExactly("/antwerp/straten/q");
            assertThat(store.sitemaps().sitemaps()).containsExactly(new StoredSitemap("streets", Instant.parse("2025-05-14T11:00:00Z"), 1));
        }
    }

    /** More URLs than one batch of a store's writing holds, so each is handed over several times; a read dropped after them leaves the last. */
    @Test
    void aReadOfManyBatchesKeepsEveryUrlAndOneDroppedHalfWayKeepsTheLastGood() {
        try (HitStore store = open()) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "/street/9999", 404, "www.example.be"),
                    hit("2025-05-14T10:01:00Z", "/street/10001", 404, "www.example.be")));
            store.writer().flush();
            try (SitemapWrite read = store.sitemaps().replacing("many")) {
                for (int i = 0; i < 10_000; i++) {
                    assertThat(read.add(new SitemapUrl("www.example.be", "/street/" + i))).isTrue();
                }
                read.commit(Instant.parse("2025-05-14T09:00:00Z"));
            }
            try (SitemapWrite dropped = store.sitemaps().replacing("many")) {
                for (int i = 10_000; i < 19_000; i++) {
                    dropped.add(new SitemapUrl("www.example.be", "/street/" + i));
                }
            }
            long[] held = new long[1];
            store.sitemaps().forEachUrl("many", url -> held[0]++);
            assertThat(held[0]).isEqualTo(10_000);
            assertThat(store.sitemaps().sitemaps()).containsExactly(new StoredSitemap("many", Instant.parse("2025-05-14T09:00:00Z"), 10_000));
            assertThat(store.reader().page(HitFilter.ERRORS.withInSitemap(true), 0, 10)).extracting(StoredHit::url)
                    .containsExactly("/street/9999");
        }
    }

    /**
     * The URLs page's {@code in_sitemap=} views follow a new read of the sitemap on every page, the
     * first ones a reader keeps and those past them: a URL listed by one read and not by the next
     * leaves in_sitemap=yes for in_sitemap=no (an engine that keeps the listed numbers or its views
     * in memory keeps them per read), and a URL first logged after the read, under a host in
     * capitals, is listed once a fold keeps its state.
     */
    @Test
    void theUrlsPageFollowsANewReadOnItsFirstPagesAndPastThem() {
        try (HitStore store = open()) {
            List<CrawlerHit> hits = new ArrayList<>();
            List<SitemapUrl> listed = new ArrayList<>();
            for (int i = 0; i < 700; i++) {
                hits.add(hit(Instant.parse("2025-05-14T10:00:00Z").plusSeconds(i).toString(), "/u/" + i, 404, "www.example.be"));
                listed.add(new SitemapUrl("www.example.be", "/u/" + i));
            }
            store.writer().append(hits);
            store.writer().flush();
            store.sitemaps().replace("pages", Instant.parse("2025-05-14T09:00:00Z"), listed);
            store.reader().urlStates().fold();
            Snapshot at = store.reader().snapshot();
            UrlQuery yes = new UrlQuery(HitFilter.ERRORS.withInSitemap(true), Set.of(), false, false, UrlSort.errors);
            UrlQuery no = new UrlQuery(HitFilter.ERRORS.withInSitemap(false), Set.of(), false, false, UrlSort.errors);
            assertThat(urls(store, yes, at)).hasSize(700);
            assertThat(store.reader().urlStates().page(yes, at, 600, 100).total()).isEqualTo(700);
            assertThat(urls(store, no, at)).isEmpty();

            store.sitemaps().replace("pages", Instant.parse("2025-05-14T12:00:00Z"), listed.subList(100, 700));
            List<String> dropped = listed.subList(0, 100).stream().map(url -> "www.example.be " + url.target()).toList();
            assertThat(urls(store, yes, at)).as("after a new read").hasSize(600).doesNotContainAnyElementsOf(dropped);
            assertThat(store.reader().urlStates().page(yes, at, 550, 100).rows()).hasSize(50);
            assertThat(store.reader().urlStates().page(yes, at, 550, 100).total()).isEqualTo(600);
            assertThat(urls(store, no, at)).containsExactlyInAnyOrderElementsOf(dropped);

            store.writer().append(List.of(hit("2025-05-14T13:00:00Z", "/u/150", 404, "WWW.Example.be")));
            store.writer().flush();
            store.reader().urlStates().fold();
            Snapshot later = store.reader().snapshot();
            assertThat(urls(store, yes, later)).as("a URL first logged after the read").hasSize(601).contains("WWW.Example.be /u/150");
            assertThat(urls(store, no, later)).containsExactlyInAnyOrderElementsOf(dropped);
        }
    }

    /** Every URL of a view of the URLs page, read a page of 100 at a time, as host and target. */
    private static List<String> urls(HitStore store, UrlQuery query, Snapshot at) {
        List<String> urls = new ArrayList<>();
        for (long offset = 0; ; offset += 100) {
            UrlPage page = store.reader().urlStates().page(query, at, offset, 100);
            page.rows().forEach(state -> urls.add(state.host() + " " + state.url()));
            if (offset + 100 >= page.total()) {
                return urls;
            }
        }
    }

    @Test
    void noSitemapListsNothing() {
        try (HitStore store = open()) {
            store.writer().append(List.of(hit("2025-05-14T10:00:00Z", "/a", 404, null)));
            store.writer().flush();

            assertThat(store.reader().count(HitFilter.ERRORS.withInSitemap(true))).isZero();
            assertThat(store.reader().count(HitFilter.ERRORS.withInSitemap(false))).isEqualTo(1);
        }
    }
}
