package dev.crawlerrors.store.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.SampleHits;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.sitemap.SitemapUrl;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.MinuteCell;
import dev.crawlerrors.store.Snapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The cube by sitemap's cells ({@link DuckDbTallies#bySitemap}: the listed hits found once by number,
 * verdict and listing told by a function) equal those of every hit joined with the listed numbers
 * in SQL ({@link DuckDbTallies#bySitemapJoined}), the count they replace: hosts in capitals, no host,
 * queries, verdicts of each kind, several sitemaps, histories folded and not, a window of the hits
 * since a snapshot, and a new read that changes which URLs are listed.
 */
class DuckDbSitemapCellsTest {

    private static final Crawler BINGBOT = new Crawler("Bingbot", "Microsoft", BotType.crawler_search, List.of("bingbot"), null,
            List.of("bingbot.json"), null);
    private static final Crawler GPTBOT = new Crawler("GPTBot", "OpenAI", BotType.crawler_ai, List.of("GPTBot"), null,
            List.of("gptbot.json"), null);
    private static final String[] URLS = {"/antwerp/de-keyserlei", "/antwerp/de-keyserlei/", "/gent/veldstraat?tab=parkeren&p=2",
        "/gent/veldstraat", "/antwerp/meir", "/news/1", "/news/2?utm=x", "/"};
    private static final String[] HOSTS = {"www.example.be", "WWW.Example.be", null, "other.example.org"};
    private static final int[] STATUSES = {200, 308, 404, 410, 503, 301};
    private static final Verdict[] VERDICTS = {SampleHits.VERIFIED, SampleHits.UNVERIFIED, SampleHits.SPOOFED};

    private static CrawlerHit hit(int n, long start) {
        Crawler crawler = n % 5 == 0 ? BINGBOT : n % 7 == 0 ? GPTBOT : SampleHits.googlebot(0, "66.249.66.1", "/", 200, SampleHits.VERIFIED).crawler();
        String ip = n % 11 == 0 ? "203.0.113." + (n % 3) : "66.249.66." + (n % 4);
        Verdict verdict = VERDICTS[(n / 3) % VERDICTS.length];
        Hit hit = new Hit(start + n * 17_000L, 60, ip, "GET", URLS[n % URLS.length], STATUSES[(n / 2) % STATUSES.length], -1, null,
                crawler.name(), 1.0, HOSTS[(n / 5) % HOSTS.length]);
        return new CrawlerHit(hit, crawler, verdict);
    }

    private static List<CrawlerHit> hits(int from, int to) {
        long start = Instant.parse("2025-05-14T10:00:00Z").toEpochMilli();
        List<CrawlerHit> hits = new ArrayList<>();
        for (int n = from; n < to; n++) {
            hits.add(hit(n, start));
        }
        return hits;
    }

    private static Map<String, Long> cells(DuckDbHitReader reader, HitWindow window, boolean joined) {
        Map<String, Long> sums = new TreeMap<>();
        java.util.function.Consumer<MinuteCell> add = cell -> sums.merge(cell.minute() + " " + cell.status() + " " + cell.botType() + " "
                + cell.crawler() + " " + cell.verification() + " " + cell.listed(), cell.hits(), Long::sum);
        if (joined) {
            reader.countBySitemapJoined(window, add);
        } else {
            reader.countBySitemap(window, add);
        }
        return sums;
    }

    private static long listed(Map<String, Long> cells, boolean listed) {
        return cells.entrySet().stream().filter(e -> e.getKey().endsWith(" " + listed)).mapToLong(Map.Entry::getValue).sum();
    }

    private static void sameAsJoined(DuckDbHitReader reader, HitWindow window, long hits) {
        Map<String, Long> counted = cells(reader, window, false);
        assertThat(counted).isEqualTo(cells(reader, window, true));
        assertThat(listed(counted, true) + listed(counted, false)).isEqualTo(hits);
    }

    @Test
    void cellsEqualTheJoinedCountAcrossReadsFoldsAndWindows() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            DuckDbHitReader reader = (DuckDbHitReader) store.reader();
            store.writer().append(hits(0, 300));
            store.writer().flush();
            store.sitemaps().replace("https://www.example.be/sitemap-streets.xml", Instant.parse("2025-05-14T09:00:00Z"), List.of(
                    new SitemapUrl("www.example.be", "/antwerp/de-keyserlei"),
                    new SitemapUrl("www.example.be", "/gent/veldstraat?tab=parkeren&p=2"),
                    new SitemapUrl("other.example.org", "/antwerp/meir")));
            store.sitemaps().replace("https://www.example.be/sitemap-news.xml.gz", Instant.parse("2025-05-14T09:00:00Z"), List.of(
                    new SitemapUrl("www.example.be", "/news/2?utm=x"),
                    new SitemapUrl("www.example.be", "/")));
            Snapshot first = reader.snapshot();
            Map<String, Long> counted = cells(reader, HitWindow.at(first), false);
            assertThat(listed(counted, true)).as("some hits listed").isPositive();
            assertThat(listed(counted, false)).as("some not").isPositive();
            sameAsJoined(reader, HitWindow.at(first), 300);

            reader.urlStates().fold(); // the histories' rows moved to url_log
            store.writer().append(hits(300, 520)); // these in url_tail
            store.writer().flush();
            Snapshot second = reader.snapshot();
            sameAsJoined(reader, HitWindow.at(second), 520);
            sameAsJoined(reader, HitWindow.since(first, second), 220);

            // a new read that lists other URLs: the URL in capitals first logged after it, too
            store.sitemaps().replace("https://www.example.be/sitemap-streets.xml", Instant.parse("2025-05-14T12:00:00Z"), List.of(
                    new SitemapUrl("www.example.be", "/gent/veldstraat"),
                    new SitemapUrl("www.example.be", "/antwerp/de-keyserlei/"),
                    new SitemapUrl("www.example.be", "/capitals/only")));
            Hit late = new Hit(Instant.parse("2025-05-14T13:00:00Z").toEpochMilli(), 60, "66.249.66.1", "GET", "/capitals/only", 404, -1,
                    null, "Googlebot", 1.0, "WWW.EXAMPLE.BE");
            store.writer().append(List.of(new CrawlerHit(late, hits(0, 1).get(0).crawler(), SampleHits.VERIFIED)));
            store.writer().flush();
            Snapshot third = reader.snapshot();
            sameAsJoined(reader, HitWindow.at(third), 521);
            sameAsJoined(reader, HitWindow.since(second, third), 1);
            assertThat(listed(cells(reader, HitWindow.since(second, third), false), true)).as("the URL logged in capitals").isEqualTo(1);
            sameAsJoined(reader, HitWindow.since(first, third), 221);
            sameAsJoined(reader, HitWindow.since(third, third), 0);
            Map<String, Long> reread = cells(reader, HitWindow.at(third), false);
            assertThat(listed(reread, true)).as("another count of listed hits after the new read").isNotEqualTo(listed(counted, true));
        }
    }

    /** A window of more hits than the first 1,024 words of 64 the listed hits are read into, and one starting past its first hit. */
    @Test
    void cellsEqualTheJoinedCountPastTheFirstWords() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            DuckDbHitReader reader = (DuckDbHitReader) store.reader();
            store.writer().append(hits(0, 1_000));
            store.writer().flush();
            Snapshot first = reader.snapshot();
            store.writer().append(hits(1_000, 70_000));
            store.writer().flush();
            store.sitemaps().replace("https://www.example.be/sitemap.xml", Instant.parse("2025-05-14T09:00:00Z"), List.of(
                    new SitemapUrl("www.example.be", "/antwerp/de-keyserlei"),
                    new SitemapUrl("www.example.be", "/news/1")));
            Snapshot second = reader.snapshot();
            Map<String, Long> counted = cells(reader, HitWindow.at(second), false);
            assertThat(listed(counted, true)).as("some hits listed").isPositive();
            sameAsJoined(reader, HitWindow.at(second), 70_000);
            sameAsJoined(reader, HitWindow.since(first, second), 69_000);
        }
    }
}
