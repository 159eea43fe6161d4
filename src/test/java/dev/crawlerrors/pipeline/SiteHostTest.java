package dev.crawlerrors.pipeline;

import static dev.crawlerrors.ingest.SampleLogs.lines;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.Waits;
import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.CrawlerIdentifier;
import dev.crawlerrors.crawler.verify.CrawlerVerifier;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.crawler.verify.IpRangeVerifier;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SampleLogs;
import dev.crawlerrors.ingest.format.NamedFormats;
import dev.crawlerrors.sitemap.SitemapUrl;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.StoredHit;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --host} on serve's live inputs: the hits of a followed log and of pushed lines that record
 * no host are stored on the site's host, so a sitemap of two hosts lists them by host and target.
 */
class SiteHostTest {

    @TempDir
    Path dir;

    private DuckDbHitStore store;
    private CrawlerVerifier verifier;
    private final CrawlerCatalog catalog = CrawlerCatalog.builtIn();

    @BeforeEach
    void setUp() throws Exception {
        store = DuckDbHitStore.open(dir.resolve("hits.duckdb"));
        verifier = new CrawlerVerifier(new IpRangeVerifier(catalog, IpRangeSource.parse(SampleLogs.ipRanges(dir).toString())), null);
        // the same path on two hosts: only the site's own is its URL
        store.sitemaps().replace("sitemap.xml", Instant.now(), List.of(new SitemapUrl("www.example.be", "/page/1"),
                new SitemapUrl("shop.example.be", "/page/2")));
    }

    @AfterEach
    void tearDown() {
        verifier.close();
        store.close();
    }

    private List<StoredHit> stored() {
        List<StoredHit> rows = new ArrayList<>();
        store.reader().forEach(HitFilter.ERRORS, rows::add);
        return rows;
    }

    @Test
    void aFollowedLogWithoutHostsIsStoredOnTheSiteHost() throws Exception {
        Path log = Files.writeString(dir.resolve("access.log"), lines(1, 3));
        try (FollowedLogs followed = new FollowedLogs(List.of(log), NamedFormats.chooser("auto", notice -> { }), store,
                new CrawlerIdentifier(catalog), verifier, "www.example.be", notice -> { })) {
            followed.start();
            Waits.await("3 hits stored").until(() -> stored().size() == 3);
        }

        assertThat(stored()).extracting(StoredHit::host).containsOnly("www.example.be");
        assertThat(store.reader().count(HitFilter.ERRORS.withInSitemap(true))).isEqualTo(1);
        assertThat(store.reader().count(HitFilter.ERRORS.withInSitemap(false))).isEqualTo(2);
    }

    @Test
    void pushedLinesWithoutHostsAreStoredOnTheSiteHost() throws Exception {
        try (PushedLines pushed = new PushedLines(store.writer(), store.signatures(), new CrawlerIdentifier(catalog), verifier,
                "www.example.be")) {
            pushed.accept(new ByteArrayInputStream(lines(1, 3).getBytes(StandardCharsets.UTF_8)), "syslog",
                    NamedFormats.liveChooser("auto", notice -> { }));
        }

        assertThat(stored()).extracting(StoredHit::host).containsOnly("www.example.be");
        assertThat(store.reader().count(HitFilter.ERRORS.withInSitemap(true))).isEqualTo(1);
    }

    @Test
    void withoutTheSiteHostAHostlessHitMatchesATargetOfAnyHostAndAHitsOwnHostIsKept() throws Exception {
        try (PushedLines pushed = new PushedLines(store.writer(), store.signatures(), new CrawlerIdentifier(catalog), verifier)) {
            pushed.accept(new ByteArrayInputStream(lines(1, 3).getBytes(StandardCharsets.UTF_8)), "syslog",
                    NamedFormats.liveChooser("auto", notice -> { }));
        }

        assertThat(stored()).extracting(StoredHit::host).allMatch(host -> host == null || host.isEmpty());
        assertThat(store.reader().count(HitFilter.ERRORS.withInSitemap(true))).isEqualTo(2);
        Hit own = new Hit(0, 0, "66.249.66.1", "GET", "/", 404, 0, null, null, Double.NaN, "shop.example.be");
        assertThat(own.onHost("www.example.be").host()).isEqualTo("shop.example.be");
    }
}
