package dev.crawlerrors.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FollowProgressTest {

    private static final Crawler GOOGLEBOT = new Crawler("Googlebot Desktop", "Google", BotType.crawler_search, List.of("Googlebot"),
            null, null, null);

    private final List<String> said = new ArrayList<>();
    private long now = 1_000_000_000L;
    private final FollowProgress progress = new FollowProgress(said::add, () -> now);

    private static CrawlerHit hit(int status) {
        Hit hit = new Hit(1747207862000L, 120, "66.249.66.1", "GET", "/page", status, 0, null, "Googlebot/2.1", 1.0, null);
        return new CrawlerHit(hit, GOOGLEBOT, new Verdict(Verification.verified, "in a list"));
    }

    @Test
    void saysTheLinesTheirRateAndTheCrawlerHitsReadSinceItLastSpoke() {
        progress.read(9_000, 0);
        progress.stored(List.of(hit(404), hit(200), hit(301)));
        progress.read(1_000, 3);
        now += 5_000_000_000L;

        progress.tick();

        assertThat(said).containsExactly("10,000 lines in 5.0 s (2,000 lines/s, 3 bad), 3 crawler hits (2 errors); "
                + "10,000 lines and 3 crawler hits since the start");
    }

    @Test
    void countsEachIntervalAfreshAndKeepsTheTotals() {
        progress.read(100, 0);
        progress.stored(List.of(hit(404)));
        now += 5_000_000_000L;
        progress.tick();
        progress.read(50, 0);
        now += 5_000_000_000L;

        progress.tick();

        assertThat(said).last().isEqualTo("50 lines in 5.0 s (10 lines/s), 0 crawler hits (0 errors); "
                + "150 lines and 1 crawler hit since the start");
    }

    @Test
    void saysNothingWhileTheLogsAreQuiet() {
        now += 5_000_000_000L;
        progress.tick();
        now += 5_000_000_000L;
        progress.tick();

        assertThat(said).isEmpty();
    }

    @Test
    void theRateIsOverTheTimeSinceTheLastTickEvenAfterAQuietOne() {
        now += 5_000_000_000L;
        progress.tick(); // quiet
        progress.read(500, 0);
        now += 5_000_000_000L;

        progress.tick();

        assertThat(said).containsExactly("500 lines in 5.0 s (100 lines/s), 0 crawler hits (0 errors); "
                + "500 lines and 0 crawler hits since the start");
    }
}
