package dev.crawlerrors.store;

/**
 * What a store holds at one moment, cheap to ask: two reads at the same version answer the same.
 *
 * @param lastId         the id of the last hit stored (0 when none); every hit stored later has a larger one
 * @param verdictChanges how many times a recorded verdict has changed since the store was opened
 *                       (a change moves hits in or out of every filter that names verdicts)
 */
public record StoreVersion(long lastId, long verdictChanges) {
}
