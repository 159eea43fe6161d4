package dev.crawlerrors.crawler.verify;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;

/**
 * A list as the cache holds it: the bytes exactly as downloaded, and what is needed to ask the
 * server whether they are still current.
 *
 * @param url          where the bytes were downloaded from; null when the cache cannot say
 * @param etag         the server's {@code ETag}, sent back as {@code If-None-Match}; null when none
 * @param lastModified the server's {@code Last-Modified}, sent back verbatim as {@code If-Modified-Since}; null when none
 * @param fetchedAt    when the bytes were downloaded
 * @param checkedAt    when the server last confirmed them current
 * @param body         the list document
 * @param sha256       hex SHA-256 of {@code body}, which ties the metadata file to the list file
 */
record CachedIpList(String url, String etag, String lastModified, Instant fetchedAt, Instant checkedAt,
        byte[] body, String sha256) {

    static CachedIpList downloaded(String url, String etag, String lastModified, Instant at, byte[] body) {
        return new CachedIpList(url, etag, lastModified, at, at, body, sha256(body));
    }

    CachedIpList checkedAt(Instant at) {
        return new CachedIpList(url, etag, lastModified, fetchedAt, at, body, sha256);
    }

    /** Whether a conditional request can be made for these bytes. */
    boolean hasValidators() {
        return etag != null || lastModified != null;
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
