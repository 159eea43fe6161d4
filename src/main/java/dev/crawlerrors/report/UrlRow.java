package dev.crawlerrors.report;

/**
 * One URL of the URLs page, as its JSON returns it and its HTML and CSV show it: its state from the
 * view's latest hit, its hits and error hits (4xx and 5xx), when it was crawled, its first and last
 * error, whether it is fixed (since when) and whether its answers flapped. Times are local, to the
 * minute, in the report's zone; a time that is not there is null.
 *
 * @param host       the virtual host, or null when the log records none
 * @param flips      how often its answers went from ok to an error or back
 * @param byClass    its hits by status class: {@code 2xx}, {@code 304}, {@code redirect}, {@code 4xx}, {@code 5xx}
 */
public record UrlRow(
        String url,
        String host,
        String state,
        int lastStatus,
        String lastCrawled,
        String firstCrawled,
        long hits,
        long errorHits,
        String firstError,
        Integer firstErrorStatus,
        String lastError,
        Integer lastErrorStatus,
        boolean fixed,
        String fixedSince,
        boolean inconsistent,
        int flips,
        java.util.Map<String, Long> byClass) {

    /** The CSV's header, one label a column, in order. */
    public static final java.util.List<String> CSV_LABELS = java.util.List.of("URL", "Host", "State", "Last status", "Last crawled",
            "Hits", "Error hits", "First error", "First error status", "Last error", "Last error status", "Fixed", "Fixed since",
            "Inconsistent");

    /** The row as CSV cells, in the order of {@link #CSV_LABELS}. */
    public java.util.List<String> csvCells() {
        return java.util.List.of(url, host == null ? "" : host, state, Integer.toString(lastStatus), lastCrawled, Long.toString(hits),
                Long.toString(errorHits), orEmpty(firstError), firstErrorStatus == null ? "" : firstErrorStatus.toString(),
                orEmpty(lastError), lastErrorStatus == null ? "" : lastErrorStatus.toString(), Boolean.toString(fixed),
                orEmpty(fixedSince), Boolean.toString(inconsistent));
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }
}
