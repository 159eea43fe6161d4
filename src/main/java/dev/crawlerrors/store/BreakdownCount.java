package dev.crawlerrors.store;

/** Hits of one crawler (with its bot type), verdict and status. */
public record BreakdownCount(String crawler, String botType, String verification, int status, long hits) {
}
