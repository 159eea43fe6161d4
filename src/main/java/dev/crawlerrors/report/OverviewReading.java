package dev.crawlerrors.report;

import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.store.DurationBuckets;
import dev.crawlerrors.store.HitFilter;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/** Reads an {@link Overview} of one filter (its statuses and verdicts) out of the {@link ErrorCounts} kept for it. */
final class OverviewReading {

    /** Most buckets a timeline draws; past that a finer one is refused. */
    static final int MAX_BUCKETS = 1_000;
    /**
     * Most buckets a timeline picks by itself: the finest of hours, days and weeks that stays within
     * it, so a chart has tens of bars (four days: 96 hours; 500 days: 72 weeks), not hundreds of
     * hairlines, nor four bars.
     */
    static final int CHOSEN_BUCKETS = 100;
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm");
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("uuuu-MM-dd");
    private static final double[] PERCENTILES = {0.50, 0.90, 0.99};

    private final HitFilter filter;
    private final Set<Verification> verdicts;
    private final ZoneId zone;

    OverviewReading(HitFilter filter, ZoneId zone) {
        this.filter = filter;
        this.verdicts = filter.effectiveVerifications();
        this.zone = zone;
    }

    Overview read(ErrorCounts counts, String interval) {
        Map<String, Long> byStatus = new TreeMap<>();
        Map<String, Long> byBotType = new TreeMap<>();
        Map<String, Long> byCrawler = new TreeMap<>();
        Map<String, Long> byVerdict = new TreeMap<>();
        long total = 0;
        long spoofed = 0;
        for (var entry : counts.byCrawler.entrySet()) {
            ErrorCounts.CrawlerKey key = entry.getKey();
            long hits = entry.getValue();
            if (!shows(key.verification())) {
                spoofed += key.verification().equals(Verification.spoofed.name()) ? hits : 0;
                continue;
            }
            total += hits;
            byStatus.merge(Integer.toString(key.status()), hits, Long::sum);
            byBotType.merge(key.botType(), hits, Long::sum);
            byCrawler.merge(key.crawler(), hits, Long::sum);
            byVerdict.merge(key.verification(), hits, Long::sum);
        }
        return new Overview(total, interval(counts, interval), zone.getId(), timeline(counts, interval(counts, interval)),
                tallies(byStatus, total), tallies(byBotType, total), tallies(byCrawler, total), tallies(byVerdict, total),
                spoofed, durations(counts), false, null);
    }

    private boolean shows(String verification) {
        return verdicts.stream().anyMatch(v -> v.name().equals(verification));
    }

    /** The interval asked for, or the finest of hours, days and weeks that draws at most {@link #CHOSEN_BUCKETS} bars. */
    private String interval(ErrorCounts counts, String asked) {
        if (asked != null) {
            return asked;
        }
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (ErrorCounts.TimeKey key : counts.byTime.keySet()) {
            first = Math.min(first, key.bucketStartMillis());
            last = Math.max(last, key.bucketStartMillis());
        }
        if (first == Long.MAX_VALUE) {
            return "hour";
        }
        for (String interval : List.of("hour", "day")) {
            if (buckets(first, last, interval) <= CHOSEN_BUCKETS) {
                return interval;
            }
        }
        return "week";
    }

    /** How many buckets of {@code interval} the local times from {@code first} to {@code last} span. */
    private long buckets(long first, long last, String interval) {
        ChronoUnit unit = unit(interval);
        ZonedDateTime from = start(first, interval);
        ZonedDateTime to = start(last, interval);
        return unit.between(from.toLocalDateTime(), to.toLocalDateTime()) / (interval.equals("week") ? 7 : 1) + 1;
    }

    private static ChronoUnit unit(String interval) {
        return interval.equals("hour") ? ChronoUnit.HOURS : ChronoUnit.DAYS;
    }

    /** The local start of the bucket of {@code interval} holding {@code millis}: its hour, its day, or its week's Monday. */
    private ZonedDateTime start(long millis, String interval) {
        ZonedDateTime local = Instant.ofEpochMilli(millis).atZone(zone);
        return switch (interval) {
            case "hour" -> local.truncatedTo(ChronoUnit.HOURS);
            case "day" -> local.toLocalDate().atStartOfDay(zone);
            default -> local.toLocalDate().with(java.time.temporal.TemporalAdjusters.previousOrSame(java.time.DayOfWeek.MONDAY))
                    .atStartOfDay(zone);
        };
    }

    private List<Overview.TimeBucket> timeline(ErrorCounts counts, String interval) {
        boolean hourly = interval.equals("hour");
        Function<Long, ZonedDateTime> local = millis -> start(millis, interval);
        TreeMap<ZonedDateTime, long[]> buckets = new TreeMap<>(Comparator.comparing(ZonedDateTime::toInstant));
        TreeMap<ZonedDateTime, Map<String, Long>> classes = new TreeMap<>(Comparator.comparing(ZonedDateTime::toInstant));
        for (var entry : counts.byTime.entrySet()) {
            ErrorCounts.TimeKey key = entry.getKey();
            if (!shows(key.verification())) {
                continue;
            }
            ZonedDateTime start = local.apply(key.bucketStartMillis());
            long[] hits = buckets.computeIfAbsent(start, s -> new long[2]);
            hits[1] += entry.getValue();
            if (filter.showsStatus(key.status())) {
                hits[0] += entry.getValue();
                classes.computeIfAbsent(start, s -> new TreeMap<>()).merge(key.status() / 100 + "xx", entry.getValue(), Long::sum);
            }
        }
        List<Overview.TimeBucket> out = new ArrayList<>();
        if (buckets.isEmpty()) {
            return out;
        }
        ZonedDateTime first = buckets.firstKey();
        ZonedDateTime last = buckets.lastKey();
        long span = buckets(first.toInstant().toEpochMilli(), last.toInstant().toEpochMilli(), interval);
        if (span > MAX_BUCKETS) {
            throw new BadParameterException("interval", "interval=" + interval + " would draw " + span + " bars, more than "
                    + MAX_BUCKETS + "; narrow from and to, or use a longer interval (" + String.join(", ", ReportParameters.INTERVALS)
                    + ")");
        }
        for (ZonedDateTime start = first; !start.toInstant().isAfter(last.toInstant()); start = next(start, interval)) {
            long[] hits = buckets.getOrDefault(start, new long[2]);
            String label = hourly ? MINUTE.format(start) : DAY.format(start);
            String to = hourly ? MINUTE.format(start.plusMinutes(59))
                    : interval.equals("week") ? DAY.format(start.toLocalDate().plusDays(6)) : label;
            out.add(new Overview.TimeBucket(label, label, to, hits[0], classes.getOrDefault(start, Map.of()), hits[1],
                    hits[1] == 0 ? null : (double) hits[0] / hits[1]));
        }
        return out;
    }

    private ZonedDateTime next(ZonedDateTime start, String interval) {
        return switch (interval) {
            case "hour" -> start.plusHours(1);
            case "day" -> start.toLocalDate().plusDays(1).atStartOfDay(zone);
            default -> start.toLocalDate().plusWeeks(1).atStartOfDay(zone);
        };
    }

    private List<Overview.Durations> durations(ErrorCounts counts) {
        TreeMap<Integer, long[]> all = new TreeMap<>();
        TreeMap<Integer, TreeMap<Integer, long[]>> byStatus = new TreeMap<>();
        for (var entry : counts.byDuration.entrySet()) {
            ErrorCounts.DurationKey key = entry.getKey();
            if (!shows(key.verification())) {
                continue;
            }
            all.computeIfAbsent(key.bucket(), b -> new long[1])[0] += entry.getValue();
            byStatus.computeIfAbsent(key.status(), s -> new TreeMap<>()).computeIfAbsent(key.bucket(), b -> new long[1])[0] += entry.getValue();
        }
        List<Overview.Durations> out = new ArrayList<>();
        if (all.isEmpty()) {
            return out;
        }
        out.add(percentiles("all", all));
        byStatus.forEach((status, buckets) -> out.add(percentiles(Integer.toString(status), buckets)));
        return out;
    }

    private static Overview.Durations percentiles(String status, TreeMap<Integer, long[]> buckets) {
        long hits = buckets.values().stream().mapToLong(h -> h[0]).sum();
        double[] values = new double[PERCENTILES.length];
        for (int i = 0; i < PERCENTILES.length; i++) {
            long rank = (long) Math.ceil(PERCENTILES[i] * hits);
            long seen = 0;
            for (var entry : buckets.entrySet()) {
                seen += entry.getValue()[0];
                if (seen >= rank) {
                    values[i] = DurationBuckets.middle(entry.getKey());
                    break;
                }
            }
        }
        return new Overview.Durations(status, hits, approximate(values[0]), approximate(values[1]), approximate(values[2]),
                approximate(DurationBuckets.middle(buckets.lastKey())));
    }

    /**
     * A duration read from the buckets, to the three significant digits it is known to (each bucket
     * is 1% wide): 1894.4 ms is 1890 ms, not a tenth of a millisecond it cannot tell.
     */
    private static double approximate(double ms) {
        return ms == 0 ? 0 : new java.math.BigDecimal(ms).round(new java.math.MathContext(3)).doubleValue();
    }

    private static List<Overview.Tally> tallies(Map<String, Long> hits, long total) {
        return hits.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .map(e -> new Overview.Tally(e.getKey(), e.getValue(), total == 0 ? 0 : (double) e.getValue() / total))
                .toList();
    }
}
