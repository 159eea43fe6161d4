package dev.crawlerrors.store;

/**
 * The kept URL states are too far behind the snapshot asked about to be brought up to it for one
 * read (a large import not folded yet): a fold was asked for, and a later read will find them kept.
 */
public final class UrlStatesBehindException extends RuntimeException {

    public UrlStatesBehindException() {
        super("the URLs' states are being brought up to date with the hits stored lately", null, false, false);
    }
}
