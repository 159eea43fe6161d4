package dev.crawlerrors.report;

import dev.crawlerrors.store.MinuteCell;

/**
 * Whether the hits of one URL head ({@link MinuteCell#URL_HEAD}: {@code /gent/}, or {@code /} for a
 * URL with no second {@code /} before its query, or the empty string for one not starting with
 * {@code /}) all start with a URL prefix, none do, or the head cannot tell: what lets the count cube
 * answer a prefix such as {@code /gent/} exactly, and leave a deeper one such as
 * {@code /gent/straten/} to the store.
 */
final class UrlPrefix {

    /** What a head says of its hits' URLs against a prefix. */
    enum Match {
        ALL, NONE, UNKNOWN
    }

    private UrlPrefix() {
    }

    /** What the hits whose URLs start with {@code head} are to {@code prefix} (null: no prefix, all match). */
    static Match match(String prefix, String head) {
        if (prefix == null || prefix.isEmpty()) {
            return Match.ALL;
        }
        if (head == null) {
            return Match.UNKNOWN;
        }
        // a head is the start of each of its URLs: when it is as long as the prefix, it decides alone
        if (head.length() >= prefix.length()) {
            return head.startsWith(prefix) ? Match.ALL : Match.NONE;
        }
        if (!prefix.startsWith(head)) {
            return Match.NONE;
        }
        // the prefix goes past the head: "" and "/" can still tell, their URLs having no "/" first, or no second "/" before their query
        if (head.isEmpty()) {
            return prefix.startsWith("/") ? Match.NONE : Match.UNKNOWN;
        }
        return head.equals("/") && secondSlashBeforeQuery(prefix) ? Match.NONE : Match.UNKNOWN;
    }

    private static boolean secondSlashBeforeQuery(String prefix) {
        for (int i = 1; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (c == '/') {
                return true;
            }
            if (c == '?' || c == '#') {
                return false;
            }
        }
        return false;
    }
}
