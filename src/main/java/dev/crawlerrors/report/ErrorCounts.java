package dev.crawlerrors.report;

import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.BreakdownCount;
import dev.crawlerrors.store.DurationCount;
import dev.crawlerrors.store.HitFilter;
import dev.crawlerrors.store.HitReader;
import dev.crawlerrors.store.HitWindow;
import dev.crawlerrors.store.StatusRange;
import dev.crawlerrors.store.TimeCount;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The counts the overview and the report's summary are read from, for one filter with every verdict
 * (each count keeps its verdict, so the default view, the spoofed hits left out of it and a view of
 * one verdict are read from the same counts): error hits by crawler, verdict and status; by
 * duration; and every crawler hit, errors or not, by time bucket, status and verdict (the error
 * rate's denominator). Counts over windows of hits add up.
 */
final class ErrorCounts {

    static final Set<Verification> EVERY_VERDICT = EnumSet.allOf(Verification.class);

    record TimeKey(long bucketStartMillis, int status, String verification) {
    }

    record CrawlerKey(String crawler, String botType, String verification, int status) {
    }

    record DurationKey(int status, String verification, int bucket) {
    }

    final Map<TimeKey, Long> byTime = new HashMap<>();
    final Map<CrawlerKey, Long> byCrawler = new HashMap<>();
    final Map<DurationKey, Long> byDuration = new HashMap<>();

    /** The key these counts are kept under: the filter with every verdict (and no page). */
    static HitFilter key(HitFilter filter) {
        return filter.withVerifications(EVERY_VERDICT);
    }

    /** How counts of {@code bucketMillis} time buckets are made from the store. */
    static KeptCounts.Counting<ErrorCounts> counting(HitReader store, long bucketMillis) {
        return new KeptCounts.Counting<>() {
            @Override
            public ErrorCounts start() {
                return new ErrorCounts();
            }

            @Override
            public void count(ErrorCounts counts, HitFilter filter, HitWindow window) {
                for (TimeCount row : store.countByTime(filter.withStatuses(List.of(StatusRange.ANY)), window, bucketMillis)) {
                    counts.byTime.merge(new TimeKey(row.bucketStartMillis(), row.status(), row.verification()), row.hits(), Long::sum);
                }
                for (BreakdownCount row : store.countByCrawler(filter, window)) {
                    counts.byCrawler.merge(new CrawlerKey(row.crawler(), row.botType(), row.verification(), row.status()),
                            row.hits(), Long::sum);
                }
                for (DurationCount row : store.countByDuration(filter, window)) {
                    counts.byDuration.merge(new DurationKey(row.status(), row.verification(), row.bucket()), row.hits(), Long::sum);
                }
            }
        };
    }
}
