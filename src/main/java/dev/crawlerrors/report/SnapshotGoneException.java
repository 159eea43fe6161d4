package dev.crawlerrors.report;

/**
 * A page asked for at a snapshot the store no longer answers (older than the verdict history it
 * keeps) or never made (the store was replaced): the fresh report is what to read instead.
 */
public final class SnapshotGoneException extends RuntimeException {

    public SnapshotGoneException(String token) {
        super("the report as it was at snapshot " + token + " can no longer be shown (it is too old, or the store was "
                + "replaced since): open the fresh report");
    }
}
