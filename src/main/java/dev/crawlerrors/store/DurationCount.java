package dev.crawlerrors.store;

/** Hits of one status and verdict whose duration falls in one of the {@link DurationBuckets}. */
public record DurationCount(int status, String verification, int bucket, long hits) {
}
