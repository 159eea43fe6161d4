package dev.crawlerrors.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.BotType;
import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StatusRange;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The report's pages read through its kept page rows are the pages the store gives, on every
 * engine: every page of a view, asked in a random order and again, equals the page read from the
 * store alone (rows, total, pages); a second page asked of a block of ten reads the block once, and
 * its other pages are then answered without the store, until the snapshot moves.
 */
public abstract class PageRowsContract {

    private static final long START = Instant.parse("2026-10-01T00:00:00Z").toEpochMilli();
    private static final Crawler GOOGLEBOT = new Crawler("Googlebot Smartphone", "Google", BotType.crawler_search,
            List.of("Googlebot"), null, null, null);
    private static final Crawler GPTBOT = new Crawler("GPTBot", "OpenAI", BotType.crawler_ai, List.of("GPTBot"), null, null, null);
    private static final int[] STATUSES = {404, 404, 410, 500, 503, 200};

    /** A fresh, empty store of the engine under test. */
    protected abstract HitStore open();

    @Test
    void pagesThroughTheKeptRowsEqualTheStoresPagesAndABlockIsReadOnce() {
        try (HitStore store = open()) {
            store.writer().append(hits(new SplittableRandom(34), 2_450, 0));
            store.writer().flush();
            AtomicInteger reads = new AtomicInteger();
            // the default view's rows held in memory (DefaultViewRows) are left out: this is a test of the kept pages' reads
            CrawlErrorReport report = new CrawlErrorReport(CountCubeContract.counting(store.reader(), "rows", reads),
                    ReportConfig.in(ZoneOffset.UTC).withRowsBytes(0));
            CrawlErrorReport plain = new CrawlErrorReport(store.reader(), ReportConfig.in(ZoneOffset.UTC).withIndexBytes(0).withRowsBytes(0));
            try {
                for (HitFilter filter : List.of(HitFilter.ERRORS, HitFilter.ERRORS.withStatuses(List.of(new StatusRange(400, 499))))) {
                    int pages = plain.page(new ReportRequest(filter, 1)).pages();
                    assertThat(pages).as("pages of " + filter).isGreaterThan(KeptPageRows.BLOCK_PAGES / 2);
                    List<Integer> order = new ArrayList<>();
                    for (int p = 1; p <= pages; p++) {
                        order.add(p);
                        order.add(p);
                    }
                    java.util.Collections.shuffle(order, new java.util.Random(7));
                    for (int p : order) {
                        assertThat(report.page(new ReportRequest(filter, p))).as("page " + p + " of " + filter)
                                .isEqualTo(plain.page(new ReportRequest(filter, p)));
                    }
                }

                // page 3, then page 5 of the same block: one read each; the rest of pages 1-10 from memory
                store.writer().append(hits(new SplittableRandom(35), 50, 2_450));
                store.writer().flush();
                Snapshot later = store.reader().snapshot();
                reads.set(0);
                report.page(new ReportRequest(HitFilter.ERRORS, 3, later));
                report.page(new ReportRequest(HitFilter.ERRORS, 5, later));
                assertThat(reads).as("reads of pages 3 and 5").hasValue(2);
                for (int p = 1; p <= KeptPageRows.BLOCK_PAGES; p++) {
                    assertThat(report.page(new ReportRequest(HitFilter.ERRORS, p, later))).as("page " + p)
                            .isEqualTo(plain.page(new ReportRequest(HitFilter.ERRORS, p, later)));
                }
                assertThat(reads).as("reads of pages 1-10 after their block was read").hasValue(2);
                assertThat(report.pageRowsBytes()).isPositive();
            } finally {
                report.close();
                plain.close();
            }
        }
    }

    /** {@code n} error hits (and a few others) over three days, of two crawlers and every verdict, some without a duration. */
    private static List<CrawlerHit> hits(SplittableRandom random, int n, int first) {
        List<CrawlerHit> hits = new ArrayList<>();
        for (int i = first; i < first + n; i++) {
            Crawler crawler = random.nextInt(3) == 0 ? GPTBOT : GOOGLEBOT;
            Verification verdict = Verification.values()[random.nextInt(3)];
            // several hits a minute, some in the same one: pages break inside minutes
            Hit hit = new Hit(START + random.nextLong(3 * 86_400L) * 1_000L / 60 * 60, 120, "66.249.66." + random.nextInt(20), "GET",
                    "/stad/straat-" + i + (i % 5 == 0 ? "?q=é€" : ""), STATUSES[random.nextInt(STATUSES.length)], 0, null,
                    crawler.name() + " agent", i % 7 == 0 ? Double.NaN : random.nextInt(4000) / 10.0, i % 3 == 0 ? null : "example.org");
            hits.add(new CrawlerHit(hit, crawler, new Verdict(verdict, "test " + verdict)));
        }
        return hits;
    }
}
