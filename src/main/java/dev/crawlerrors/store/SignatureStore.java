package dev.crawlerrors.store;

import java.util.Collection;
import java.util.List;

/**
 * What Web Bot Auth verification keeps: every reading of a signer's key directory (its keys'
 * history, so a log imported weeks later is checked against the keys published when its requests
 * were made), and the signatures that wait for a directory that could not be read, to be checked
 * again by whichever process runs next. Small beside the hits: a directory is kept when its keys
 * change, and the signatures waiting are bounded by the verifier.
 */
public interface SignatureStore {

    /** Keeps a reading of a directory. */
    void keepDirectory(StoredDirectory reading);

    /** Every reading kept, oldest first. */
    List<StoredDirectory> directories();

    /** Keeps signatures to check again. */
    void keepPending(List<StoredSignature> signatures);

    /** Signatures waiting to be checked again, oldest request first, at most {@code max}. */
    List<StoredSignature> pending(int max);

    /** How many signatures wait. */
    long pendingCount();

    /**
     * Whether a signed hit's signature may wait in the hit's own row, written with it by the store's
     * writer ({@code CrawlerHit#waitsInRow}), rather than kept here: {@link #pending} and {@link #pendingCount}
     * then count such hits too, and {@link #settled} takes their ids. Only a store that numbers its hits
     * (DuckDB's) can.
     */
    default boolean keepsSignaturesInHits() {
        return false;
    }

    /** What the id of a signature waiting in its hit's row starts with ({@link #pending}): no other id has it (base64url). */
    String IN_HIT = "#";

    /** The number of the hit whose row a waiting signature of id {@code id} waits in; null for one kept apart. */
    static Long waitingHit(String id) {
        return id.startsWith(IN_HIT) ? Long.parseLong(id, 1, id.length(), 10) : null;
    }

    /** The signatures {@code ids} were checked again and settled: they wait no longer. */
    void settled(Collection<String> ids);
}
