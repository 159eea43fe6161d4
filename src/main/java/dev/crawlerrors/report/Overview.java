package dev.crawlerrors.report;

import java.util.List;
import java.util.Map;

/**
 * The overview of the error hits a filter shows, as its page draws it and its JSON returns it; the
 * report's summary (hits by status, the spoofed hits left out, the compact timeline) is read from it too.
 *
 * @param total          error hits shown
 * @param interval       the timeline's buckets: {@code hour}, {@code day} or {@code week} (from Monday), in {@code timeZone}
 * @param spoofedLeftOut error hits with a spoofed verdict that the filter leaves out (0 when it shows them)
 * @param recounting     whether a verdict changed and these figures, from before it, are being counted again
 * @param at             the snapshot these figures were counted at, as links carry it ({@code at=})
 */
public record Overview(
        long total,
        String interval,
        String timeZone,
        List<TimeBucket> timeline,
        List<Tally> byStatus,
        List<Tally> byBotType,
        List<Tally> byCrawler,
        List<Tally> byVerification,
        long spoofedLeftOut,
        List<Durations> durations,
        boolean recounting,
        String at) {

    /** These figures, counted at snapshot {@code at}, and whether they are being counted again. */
    public Overview counted(String at, boolean recounting) {
        return new Overview(total, interval, timeZone, timeline, byStatus, byBotType, byCrawler, byVerification, spoofedLeftOut,
                durations, recounting, at);
    }

    /**
     * One bucket of the timeline.
     *
     * @param start       its start, local ({@code YYYY-MM-DDTHH:MM} for hours, {@code YYYY-MM-DD} for days and weeks)
     * @param from        the report's {@code from} and {@code to} that select it
     * @param errorHits   error hits shown in it
     * @param byClass     those by status class ({@code 3xx}, {@code 4xx}, {@code 5xx})
     * @param crawlerHits every crawler hit in it with the same verdicts, errors or not
     * @param errorRate   errorHits / crawlerHits, or null when there were none
     */
    public record TimeBucket(String start, String from, String to, long errorHits, Map<String, Long> byClass,
            long crawlerHits, Double errorRate) {
    }

    /** Error hits of one value (a status, a bot type, a crawler, a verdict), and their share of the total. */
    public record Tally(String value, long hits, double share) {
    }

    /**
     * Response times of error hits (all of them, or those of one status), in milliseconds: each
     * within 1% of the exact value ({@link dev.crawlerrors.store.DurationBuckets}), so given to three
     * significant digits.
     *
     * @param status {@code all} or a status
     * @param hits   hits that recorded a duration
     */
    public record Durations(String status, long hits, double p50, double p90, double p99, double max) {
    }
}
