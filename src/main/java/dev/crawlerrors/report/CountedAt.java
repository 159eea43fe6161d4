package dev.crawlerrors.report;

/**
 * Figures of the report and the snapshot they were counted at, as a link's {@code at} carries it:
 * the links of a page of figures carry it, so each leads to the hits it counted.
 */
public record CountedAt<T>(T value, String at) {
}
