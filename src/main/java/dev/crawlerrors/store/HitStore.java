package dev.crawlerrors.store;

/**
 * A store on one engine, handing out each concern as a view: the writer, the verdicts and the health
 * of {@link WritableStore}, and the report's {@link #reader()}. Writes come from one thread; reads
 * from any. A concern added to the store is one more view here, with one class for it in each
 * engine's room.
 */
public interface HitStore extends WritableStore, HitWriter, HitReader, VerdictStore, StoreHealth {

    /** The report's questions, each asked of a snapshot. */
    default HitReader reader() {
        return this;
    }

    @Override
    default HitWriter writer() {
        return this;
    }

    @Override
    default VerdictStore verdicts() {
        return this;
    }

    @Override
    default StoreHealth health() {
        return this;
    }

    @Override
    default String describe() {
        return getClass().getSimpleName();
    }

    @Override
    void close();
}
