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
 * @param inSitemap  whether a sitemap lists it; null (left out of the JSON and the CSV) when no sitemap is held
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
        java.util.Map<String, Long> byClass,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) Boolean inSitemap) {

    /** The CSV's header, one label a column, in order. */
    public static final java.util.List<String> CSV_LABELS = java.util.List.of("URL", "Host", "State", "Last status", "Last crawled",
            "Hits", "Error hits", "First error", "First error status", "Last error", "Last error status", "Fixed", "Fixed since",
            "Inconsistent");

    /** The CSV's header when a sitemap is held: {@link #CSV_LABELS}, then whether a sitemap lists the URL. */
    public static final java.util.List<String> CSV_LABELS_WITH_SITEMAPS = withSitemaps();

    private static java.util.List<String> withSitemaps() {
        java.util.List<String> labels = new java.util.ArrayList<>(CSV_LABELS);
        labels.add("In sitemap");
        return java.util.List.copyOf(labels);
    }

    /** This row, saying whether a sitemap lists its URL. */
    public UrlRow inSitemap(boolean listed) {
        return new UrlRow(url, host, state, lastStatus, lastCrawled, firstCrawled, hits, errorHits, firstError, firstErrorStatus,
                lastError, lastErrorStatus, fixed, fixedSince, inconsistent, flips, byClass, listed);
    }

    /** Its URL as a sitemap's would be matched: host (empty when the log has none) and target. */
    public dev.crawlerrors.sitemap.SitemapUrl sitemapKey() {
        return new dev.crawlerrors.sitemap.SitemapUrl(host == null ? "" : host, url);
    }

    /** The row as CSV cells, in the order of {@link #CSV_LABELS} (and "In sitemap" when the row says). */
    public java.util.List<String> csvCells() {
        java.util.List<String> cells = new java.util.ArrayList<>(plainCells());
        if (inSitemap != null) {
            cells.add(inSitemap ? "yes" : "no");
        }
        return cells;
    }

    private java.util.List<String> plainCells() {
        return java.util.List.of(url, host == null ? "" : host, state, Integer.toString(lastStatus), lastCrawled, Long.toString(hits),
                Long.toString(errorHits), orEmpty(firstError), firstErrorStatus == null ? "" : firstErrorStatus.toString(),
                orEmpty(lastError), lastErrorStatus == null ? "" : lastErrorStatus.toString(), Boolean.toString(fixed),
                orEmpty(fixedSince), Boolean.toString(inconsistent));
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }
}
