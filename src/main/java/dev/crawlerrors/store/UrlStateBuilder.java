package dev.crawlerrors.store;

/**
 * Folds a URL's hits, given in time order (ties in the store's order), into its {@link UrlState}.
 * One pass, constant memory: the fixed flag and the flips are kept as the hits go by.
 */
public final class UrlStateBuilder {

    private static final int NO_CLASS = 0;
    private static final int OK = 1;
    private static final int ERROR = 2;

    private final long key;
    private final String host;
    private final String url;
    private long ok;
    private long notModified;
    private long redirects;
    private long clientErrors;
    private long serverErrors;
    private long firstCrawled = UrlState.NONE;
    private long lastCrawled = UrlState.NONE;
    private int lastStatus;
    private long firstError = UrlState.NONE;
    private int firstErrorStatus;
    private long lastError = UrlState.NONE;
    private int lastErrorStatus;
    /** The first ok hit after the last error, if any. */
    private long okAfterError = UrlState.NONE;
    /** Whether a hit that was not ok came after {@link #okAfterError}. */
    private boolean notOkSince;
    private int flips;
    private int lastClass = NO_CLASS;

    public UrlStateBuilder(long key, String host, String url) {
        this.key = key;
        this.host = host;
        this.url = url;
    }

    /**
     * A builder that goes on from {@code state} and its {@link #carry()}, as if the hits it was made
     * of had been added: how a store adds a URL's newer hits to its kept state without its history.
     */
    public static UrlStateBuilder resume(UrlState state, int carry) {
        UrlStateBuilder b = new UrlStateBuilder(state.key(), state.host(), state.url());
        b.ok = state.ok();
        b.notModified = state.notModified();
        b.redirects = state.redirects();
        b.clientErrors = state.clientErrors();
        b.serverErrors = state.serverErrors();
        b.firstCrawled = state.firstCrawled();
        b.lastCrawled = state.lastCrawled();
        b.lastStatus = state.lastStatus();
        b.firstError = state.firstError();
        b.firstErrorStatus = state.firstErrorStatus();
        b.lastError = state.lastError();
        b.lastErrorStatus = state.lastErrorStatus();
        b.flips = state.flips();
        b.lastClass = carry % 4;
        if (state.fixedSince() != UrlState.NONE) {
            b.okAfterError = state.fixedSince();
        } else if (carry >= 4) {
            // a fix that did not hold: its time is never shown, only that one came
            b.okAfterError = state.lastCrawled();
            b.notOkSince = true;
        }
        return b;
    }

    /** Adds the next hit: no earlier than those added before. */
    public UrlStateBuilder add(long epochMillis, int status) {
        if (firstCrawled == UrlState.NONE) {
            firstCrawled = epochMillis;
        }
        lastCrawled = epochMillis;
        lastStatus = status;
        UrlState.State state = UrlState.State.of(status);
        switch (state) {
            case broken -> {
                if (status >= 500) {
                    serverErrors++;
                } else {
                    clientErrors++;
                }
                if (firstError == UrlState.NONE) {
                    firstError = epochMillis;
                    firstErrorStatus = status;
                }
                lastError = epochMillis;
                lastErrorStatus = status;
                okAfterError = UrlState.NONE;
                notOkSince = false;
                flips += lastClass == OK ? 1 : 0;
                lastClass = ERROR;
            }
            case redirected -> {
                redirects++;
                notOkSince |= okAfterError != UrlState.NONE;
            }
            case ok -> {
                if (status == 304) {
                    notModified++;
                } else {
                    this.ok++;
                }
                if (firstError != UrlState.NONE && okAfterError == UrlState.NONE) {
                    okAfterError = epochMillis;
                }
                flips += lastClass == ERROR ? 1 : 0;
                lastClass = OK;
            }
        }
        return this;
    }

    /**
     * What the next hit's effect depends on beyond the state: the class of the last hit that was
     * ok or broken (0 none, 1 ok, 2 broken), plus 4 when an ok hit after the last error was followed
     * by one that was not ok (a fix that did not hold). A store that folds hits into a kept state
     * keeps it beside the state.
     */
    public int carry() {
        return lastClass + (okAfterError != UrlState.NONE && notOkSince ? 4 : 0);
    }

    /** Whether any hit was added. */
    public boolean isEmpty() {
        return firstCrawled == UrlState.NONE;
    }

    /** The state of the hits added so far; null when none was. */
    public UrlState build() {
        if (isEmpty()) {
            return null;
        }
        long fixedSince = okAfterError != UrlState.NONE && !notOkSince ? okAfterError : UrlState.NONE;
        return new UrlState(key, host, url, ok, notModified, redirects, clientErrors, serverErrors, firstCrawled, lastCrawled, lastStatus,
                firstError, firstErrorStatus, lastError, lastErrorStatus, fixedSince, flips);
    }
}
