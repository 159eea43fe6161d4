package dev.crawlerrors.store;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The state of every URL a crawler fetched, kept by the store as hits arrive: what the URLs page,
 * a URL's own page and the robots.txt report read. Each question is asked of a {@link Snapshot}
 * and answered as the store held it then. Safe from any thread.
 */
public interface UrlStates {

    /** The URLs {@code query} lists at {@code at}, in its order, skipping {@code offset} and at most {@code limit}, with their number. */
    UrlPage page(UrlQuery query, Snapshot at, long offset, int limit);

    /** Every URL {@code query} lists at {@code at}, in its order. */
    void forEach(UrlQuery query, Snapshot at, Consumer<UrlState> rows);

    /** Every crawler hit to one URL at {@code at}, whatever its verdict or bot type; empty when it has none. */
    Optional<UrlHistory> history(UrlKey key, Snapshot at);

    /** The histories of one request target on every host that has one (such as {@code /robots.txt}). */
    List<UrlHistory> histories(String url, Snapshot at);

    /**
     * Brings the kept states up to the newest snapshot, so that reads need not make the states of
     * the URLs fetched since from their hits. Reads are exact without it; an import calls it once
     * at its end, a server now and then.
     */
    void fold();

    /** Asks for a {@link #fold()} in the background when the kept states are behind the newest snapshot; returns at once. */
    void catchUp();
}
