package dev.crawlerrors.store;

import dev.crawlerrors.crawler.Verdict;

/**
 * A signed hit whose signature waited in its own row, under its address's and signer's claim while
 * waiting ({@code group}), now checked: it goes to a claim of its own ({@code crawler}, its claimed
 * crawler's name and what its signature proved) with {@code verdict}.
 *
 * @param hit the hit's number in the store
 */
public record SettledHit(long hit, String ip, String group, String crawler, Verdict verdict) {
}
