package dev.crawlerrors.crawler.verify;

/**
 * What a crawler's published IP lists say about one address.
 *
 * @param evidence one line naming the list and prefix, or why no list could be read
 */
public record ListCheck(Kind kind, String evidence) {

    public enum Kind {
        /** The address is in one of the crawler's lists. */
        LISTED,
        /** Every list of the crawler was read, and none holds the address: the lists are authoritative. */
        NOT_LISTED,
        /** Not in any list that could be read, but at least one list could not be read. */
        UNREADABLE,
        /** The crawler publishes no IP list. */
        NO_LISTS
    }
}
