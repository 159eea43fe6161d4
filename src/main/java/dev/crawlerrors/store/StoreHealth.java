package dev.crawlerrors.store;

/**
 * Whether the store can answer the report, and how much it holds: what {@code /health} and
 * {@code /metrics} answer, and what {@code serve} and {@code import} ask before they rely on the
 * store. A damaged file is opened without a word (its damage shows only when the damaged part is
 * read), so it has to be read to be known.
 */
public interface StoreHealth {

    /**
     * Reads what the report's first page needs: the time, status, address and crawler of every
     * hit, the newest hits whole, every verdict and every log's progress. Once any read or write
     * found the store damaged, says so at once.
     *
     * @throws DamagedStoreException when the store is damaged
     * @throws StoreException        when it cannot be read for another reason
     */
    void checkReadable();

    /**
     * Reads what {@link #checkReadable} reads of the newest hits only (enough to answer the report's
     * first page) and the small tables whole: what {@code serve} reads before it listens, so that a
     * store of millions of hits is not read whole before its first page; serve reads the rest after.
     *
     * @throws DamagedStoreException when the store is damaged
     * @throws StoreException        when it cannot be read for another reason
     */
    default void checkNewest() {
        checkReadable();
    }

    /** Every hit stored, whatever its status or verdict; what this process appended is committed first, so it counts. */
    long size();
}
