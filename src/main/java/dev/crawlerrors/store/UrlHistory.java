package dev.crawlerrors.store;

import java.util.List;

/** Every crawler hit to one URL, oldest first (ties in the store's order), each with its verdict as of the snapshot read. */
public record UrlHistory(UrlKey key, List<UrlHit> hits) {

    public UrlHistory {
        hits = List.copyOf(hits);
    }

    /** The state of the hits {@code query}'s view takes, or null when it takes none. */
    public UrlState state(UrlQuery query) {
        return state(new UrlStateBuilder(key.number(), key.host(), key.url()), hits, query);
    }

    /** The state of the hits {@code query}'s view takes of the URL numbered {@code key}, not named yet; null when it takes none. */
    public static UrlState state(long key, List<UrlHit> hits, UrlQuery query) {
        return state(new UrlStateBuilder(key, "", ""), hits, query);
    }

    private static UrlState state(UrlStateBuilder builder, List<UrlHit> hits, UrlQuery query) {
        for (UrlHit hit : hits) {
            if (query.shows(hit, hit.verification())) {
                builder.add(hit.epochMillis(), hit.status());
            }
        }
        return builder.build();
    }
}
