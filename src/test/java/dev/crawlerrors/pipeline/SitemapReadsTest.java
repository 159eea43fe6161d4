package dev.crawlerrors.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.sitemap.SitemapLimits;
import dev.crawlerrors.sitemap.SitemapReader;
import dev.crawlerrors.sitemap.SitemapServer;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StoredSitemap;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Sitemaps read into a real store from a real HTTP server on loopback, as serve refreshes them. */
class SitemapReadsTest {

    private static final SitemapLimits LIMITS = new SitemapLimits(1 << 20, 4 << 20, 1000, 10, 2, Duration.ofSeconds(5),
            Duration.ofSeconds(5), Duration.ofSeconds(20));

    @Test
    void aRefreshThatFailsKeepsTheLastGoodCopy() throws Exception {
        AtomicReference<String> body = new AtomicReference<>(SitemapServer.urlset("https://example.org/a", "https://example.org/b"));
        try (SitemapServer server = new SitemapServer(); HitStore store = DuckDbHitStore.inMemory()) {
            server.serve("/sitemap.xml", body::get);
            String url = server.base() + "/sitemap.xml";
            List<String> notices = new CopyOnWriteArrayList<>();
            SitemapReads reads = new SitemapReads(List.of(url), new SitemapReader(LIMITS), store.sitemaps(), notices::add);

            assertThat(reads.readAll()).isTrue();
            List<StoredSitemap> first = store.sitemaps().sitemaps();
            body.set("<!DOCTYPE urlset [<!ENTITY a \"b\">]><urlset/>");

            assertThat(reads.readAll()).isFalse();

            assertThat(store.sitemaps().sitemaps()).isEqualTo(first);
            assertThat(first).singleElement().extracting(StoredSitemap::urls).isEqualTo(2L);
            assertThat(notices).containsExactly("sitemap " + url + ": 2 URLs read from 1 file",
                    "sitemap " + url + " was refused: it declares a DTD, which a sitemap has no need of (DTDs and entities are not read);"
                            + " the copy read at " + first.get(0).readAt() + " (2 URLs) stays in use");
            assertThat(reads.attempt(url)).get().extracting(SitemapReads.Attempt::refusal).asString().contains("declares a DTD");
        }
    }

    @Test
    void aSitemapNeverReadSaysNoCopyIsHeld() throws Exception {
        try (SitemapServer server = new SitemapServer(); HitStore store = DuckDbHitStore.inMemory()) {
            server.handle("/down.xml", exchange -> SitemapServer.answer(exchange, 503, new byte[0]));
            String url = server.base() + "/down.xml";
            List<String> notices = new ArrayList<>();

            boolean read = new SitemapReads(List.of(url), new SitemapReader(LIMITS), store.sitemaps(), notices::add).readAll();

            assertThat(read).isFalse();
            assertThat(notices).containsExactly("sitemap " + url + " was not read: the server answered 503 Service Unavailable, not 200;"
                    + " no copy of it is held yet");
            assertThat(store.sitemaps().sitemaps()).isEmpty();
        }
    }
}
