package dev.crawlerrors.store;

import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import java.util.List;

/** The verdict of each address that claimed a crawler: one per address and crawler, the latest wins. */
public interface VerdictStore {

    /** Records a new verdict for every hit from {@code ip} that claimed {@code crawler}. */
    void update(String ip, String crawler, Verdict verdict);

    /**
     * Records each of {@code verdicts} as {@link #update} does, without waiting for a batch the
     * store is writing: they go with the next batch, or the next {@link #commit}. Signatures settled
     * beside an import's reader record theirs this way, a batch at a time.
     */
    default void updateAll(List<StoredVerdict> verdicts) {
        verdicts.forEach(v -> update(v.ip(), v.crawler(), v.verdict()));
    }

    /**
     * Gives each of {@code settled} a claim of its own with its verdict, and lets its signature wait no
     * longer, with the next batch or {@link #commit}: a store that keeps waiting signatures in their
     * hits' rows ({@link SignatureStore#keepsSignaturesInHits}) does; its readers see, at a snapshot before
     * this, the verdict the hit had then.
     */
    default void settleWaitingHits(List<SettledHit> settled) {
        throw new UnsupportedOperationException("this store keeps no signature in a hit's row");
    }

    /** Commits every verdict recorded so far: when this returns, they are in the store. */
    void commit();

    /** The recorded verdicts of one kind, e.g. the unverified ones to check again. */
    List<StoredVerdict> of(Verification verification);
}
