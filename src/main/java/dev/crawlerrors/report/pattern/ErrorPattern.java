package dev.crawlerrors.report.pattern;

import java.util.List;
import java.util.Map;

/**
 * One URL pattern of the error hits, as the patterns page shows it and its JSON returns it.
 *
 * @param pattern   the shape, such as {@code /{city}/straten/{letter}}: the value of the report's {@code pattern} parameter
 * @param share     of all the error hits counted, from 0 to 1
 * @param statuses  hits by status, lowest status first
 * @param botTypes  hits by bot type
 * @param firstSeen the earliest hit, {@code YYYY-MM-DDTHH:MM} in the display zone
 * @param lastSeen  the latest
 * @param examples  a few of its URLs: the most recently requested, the newest first (ties by URL)
 * @param topUrls   for a pattern that is one placeholder alone ({@code /{1}}), which says nothing by
 *                  itself: its most requested URLs with their hits, the most first; empty otherwise
 */
public record ErrorPattern(
        String pattern,
        long hits,
        double share,
        Map<Integer, Long> statuses,
        Map<String, Long> botTypes,
        String firstSeen,
        String lastSeen,
        List<String> examples,
        Diagnosis diagnosis,
        List<UrlHits> topUrls) {
}
