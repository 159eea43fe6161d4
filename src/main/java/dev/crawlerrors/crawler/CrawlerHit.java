package dev.crawlerrors.crawler;

import dev.crawlerrors.ingest.Hit;

/**
 * A hit made by a known crawler, with its verdict as of when it was identified.
 *
 * @param claim the address and the crawler it claims to be, as one key ({@link #claimKey}): the
 *              verifier, the store and the import each keep something per claim, and a key made
 *              once per hit (with its hash) serves them all
 */
public record CrawlerHit(Hit hit, Crawler crawler, Verdict verdict, String claim) {

    public CrawlerHit(Hit hit, Crawler crawler, Verdict verdict) {
        this(hit, crawler, verdict, claimKey(hit.ip(), crawler.name()));
    }

    /** The key of an address claiming to be the crawler named {@code crawler}. */
    public static String claimKey(String ip, String crawler) {
        return ip + ' ' + crawler;
    }
}
