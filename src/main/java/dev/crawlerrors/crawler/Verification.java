package dev.crawlerrors.crawler;

/** Whether a request really came from the crawler its agent names; the names are the report's values. */
public enum Verification {
    /** The address is in the operator's published list (or its DNS confirms it). */
    verified,
    /** The evidence says the request is not from the crawler it claims to be. */
    spoofed,
    /** The crawler cannot be verified, or the check could not be completed. */
    unverified
}
