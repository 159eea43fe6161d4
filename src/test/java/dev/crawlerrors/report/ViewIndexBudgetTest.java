package dev.crawlerrors.report;

import static dev.crawlerrors.crawler.SampleHits.VERIFIED;
import static dev.crawlerrors.crawler.SampleHits.googlebot;
import static org.assertj.core.api.Assertions.assertThat;

import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.MinuteCounts;
import dev.crawlerrors.store.Snapshot;
import dev.crawlerrors.store.duckdb.DuckDbHitStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The report's read model stays within its memory budget however many distinct views readers ask
 * for (a reader per filter once held a view each), and a view it let go is counted again rightly.
 */
class ViewIndexBudgetTest {

    private static HitFilter underPrefix(int i) {
        return new HitFilter(List.of(), Set.of(), Set.of(), null, null, "/s" + i + "/", null);
    }

    @Test
    void distinctViewsStayWithinTheBudgetAndOneLetGoIsCountedAgainTheSame() {
        try (DuckDbHitStore store = DuckDbHitStore.inMemory()) {
            List<CrawlerHit> hits = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                // one hit a minute over two weeks, spread over 40 sections
                hits.add(googlebot(1_747_000_000_000L + i * 60_000L, "66.249.66.1", "/s" + i % 40 + "/p" + i, 404, VERIFIED));
            }
            store.writer().append(hits);
            store.writer().flush();
            Snapshot snapshot = store.reader().snapshot();
            long oneView = store.reader().minuteCounts(underPrefix(0), snapshot).bytes();
            long budget = oneView * 4;
            ViewIndex index = new ViewIndex(store.reader(), budget);

            List<MinuteCounts> first = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                first.add(index.counts(underPrefix(i), snapshot));
                List<Long> footprint = index.footprint();
                assertThat(footprint.get(1)).as("bytes kept after view " + i).isLessThanOrEqualTo(budget);
                assertThat(footprint.get(0)).as("views kept after view " + i).isLessThanOrEqualTo(4L);
            }
            // view 0 was let go long ago: counted again, it is what it was
            MinuteCounts again = index.counts(underPrefix(0), snapshot);
            assertThat(again).isNotSameAs(first.get(0));
            assertThat(again.total()).isEqualTo(first.get(0).total()).isEqualTo(500);
            assertThat(index.counts(underPrefix(0), snapshot)).as("kept once counted again").isSameAs(again);
        }
    }
}
