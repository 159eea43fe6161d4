package dev.crawlerrors.store;

import dev.crawlerrors.crawler.Verification;

/**
 * One crawler hit as a URL's history keeps it: what a URL's state and its own page are made of.
 *
 * @param id     the hit's number in the store, the address of its own page
 * @param claim  the number of its claim (address and crawler), through which its verdict is read at a snapshot
 * @param ip           the address it came from, where the read says it (a URL's own page)
 * @param verification its verdict as of the snapshot it was read at
 */
public record UrlHit(long epochMillis, long id, int status, long claim, String crawler, String botType, String ip,
        Verification verification) {
}
