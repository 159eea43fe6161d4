package dev.crawlerrors.store;

/**
 * A store on one engine, handing out each concern as a view (Caffeine's {@code asMap()} and
 * {@code policy()}): the writer, the verdicts and the health of {@link WritableStore}, and the
 * report's {@link #reader()}. A class takes the view it uses, never the store whole. Writes come
 * from one thread; reads from any. A concern added to the store is one more view here, with one
 * class for it in each engine's room.
 */
public interface HitStore extends WritableStore {

    /** The report's questions, each asked of a snapshot. */
    HitReader reader();
}
