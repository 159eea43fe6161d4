package dev.crawlerrors.report;

/** Figures asked for are being counted for the first time and were not ready in time; the count goes on. */
public final class StillCountingException extends RuntimeException {

    public StillCountingException(String what) {
        super(what + " are still being counted (a large store takes a while the first time); try again in a few seconds");
    }
}
