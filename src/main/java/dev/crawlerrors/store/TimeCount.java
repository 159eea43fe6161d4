package dev.crawlerrors.store;

/** Hits of one status and verdict in one time bucket, which starts at {@code bucketStartMillis} (epoch). */
public record TimeCount(long bucketStartMillis, int status, String verification, long hits) {
}
