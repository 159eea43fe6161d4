package dev.crawlerrors.report;

import static dev.crawlerrors.crawler.SampleHits.VERIFIED;
import static dev.crawlerrors.crawler.SampleHits.googlebot;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A view over a time range is its view over all time cut to the range: every range of a view is
 * answered from one count of it, and answers what counting the range itself answers (the real
 * store; ranges starting at random minutes, as readers pick them).
 */
class ViewIndexRangesTest {

    private static final long START = Instant.parse("2026-10-01T00:00:00Z").toEpochMilli();

    @Test
    void everyRangeOfAViewIsAnsweredFromOneCountOfItAsCountingTheRangeWould() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            List<CrawlerHit> hits = new ArrayList<>();
            SplittableRandom random = new SplittableRandom(3);
            for (int i = 0; i < 20_000; i++) {
                // some 3 hits a minute over five days, a fifth of them 404s
                hits.add(googlebot(START + i * 20_000L + random.nextInt(20_000), "66.249.66." + (1 + i % 20), "/p" + i,
                        i % 5 == 0 ? 404 : 308, VERIFIED));
            }
            store.writer().append(hits);
            store.writer().flush();
            Snapshot at = store.reader().snapshot();
            AtomicInteger counted = new AtomicInteger();
            ViewIndex index = new ViewIndex(CountCubeContract.counting(store.reader(), counted), 64L << 20);
            HitFilter notFound = new HitFilter(List.of(new StatusRange(404, 404)), Set.of(), Set.of(), null, null, null, null);

            for (int i = 0; i < 40; i++) {
                long from = START + random.nextInt(6 * 24 * 60) * 60_000L;
                long to = from + (1 + random.nextInt(48 * 60)) * 60_000L;
                HitFilter range = switch (i % 3) {
                    case 0 -> notFound.withTimes(Instant.ofEpochMilli(from), Instant.ofEpochMilli(to));
                    case 1 -> notFound.withTimes(Instant.ofEpochMilli(from), null);
                    default -> notFound.withTimes(null, Instant.ofEpochMilli(to));
                };
                assertSame(index.counts(range, at), store.reader().minuteCounts(range, at), range);
            }
            assertThat(counted).as("counts asked of the store for 40 ranges of one view").hasValue(1);
            HitFilter empty = notFound.withTimes(Instant.ofEpochMilli(START - 3_600_000L), Instant.ofEpochMilli(START - 60_000L));
            assertThat(index.counts(empty, at).total()).isZero();
        }
    }

    /** The two counts place every page of the view alike. */
    private static void assertSame(MinuteCounts derived, MinuteCounts counted, HitFilter filter) {
        assertThat(derived.total()).as("total of " + filter).isEqualTo(counted.total());
        assertThat(derived.size()).as("minutes of " + filter).isEqualTo(counted.size());
        for (long skip = 0; skip < counted.total(); skip += 37) {
            assertThat(derived.locate(skip, 100)).as("hit " + skip + " of " + filter).isEqualTo(counted.locate(skip, 100));
        }
        assertThat(derived.slices(500)).isEqualTo(counted.slices(500));
    }
}
