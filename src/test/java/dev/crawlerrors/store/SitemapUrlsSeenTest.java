package dev.crawlerrors.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.sitemap.SitemapUrl;
import org.junit.jupiter.api.Test;

/** A read's URLs are each kept once, however many: the set's buckets chain block after block, chunk after chunk. */
class SitemapUrlsSeenTest {

    @Test
    void tellsEachUrlFromItsRepeatsAcrossManyChunks() {
        SitemapUrlsSeen seen = new SitemapUrlsSeen();
        int urls = 600_000; // some 37 a bucket: each chains three blocks, cut from several chunks
        for (int i = 0; i < urls; i++) {
            assertThat(seen.add(new SitemapUrl("www.example.com", "/item/" + i))).isTrue();
        }
        for (int i = 0; i < urls; i += 7) {
            assertThat(seen.add(new SitemapUrl("www.example.com", "/item/" + i))).isFalse();
        }
        assertThat(seen.size()).isEqualTo(urls);
    }

    @Test
    void theSameTargetUnderAnotherHostIsAnotherUrl() {
        SitemapUrlsSeen seen = new SitemapUrlsSeen();
        assertThat(seen.add(new SitemapUrl("example.com", "/a"))).isTrue();
        assertThat(seen.add(new SitemapUrl("www.example.com", "/a"))).isTrue();
        assertThat(seen.add(new SitemapUrl("", "/a"))).isTrue();
        assertThat(seen.add(new SitemapUrl("example.com", "/a"))).isFalse();
        assertThat(seen.size()).isEqualTo(3);
    }
}
