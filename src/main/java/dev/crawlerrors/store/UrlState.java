package dev.crawlerrors.store;

/**
 * What a view's crawlers got from one URL: its hits counted by class, when it was first and last
 * crawled and what it answered last, its first and last error (4xx or 5xx), and whether it is fixed
 * and whether it flapped. Made by {@link UrlStateBuilder} from the URL's hits in time order.
 *
 * @param key             the URL's number ({@link UrlKey#number()}): the last of every order, so pages never repeat or skip one
 * @param host            the virtual host, empty when the log records none
 * @param ok              hits answered 2xx (or below 300 but 304)
 * @param notModified     hits answered 304
 * @param redirects       hits answered 3xx but 304
 * @param fixedSince      when it was fixed: it had an error, and every hit since its first ok hit after
 *                        its last error was ok (that hit's time); null when it is not fixed
 * @param flips           how often its answers went from ok to an error or back (redirects between do not count)
 */
public record UrlState(long key, String host, String url, long ok, long notModified, long redirects, long clientErrors, long serverErrors,
        long firstCrawled, long lastCrawled, int lastStatus, long firstError, int firstErrorStatus, long lastError, int lastErrorStatus,
        long fixedSince, int flips) {

    /** A time that is not there (no error, not fixed). */
    public static final long NONE = Long.MIN_VALUE;

    /** The states a URL can be in, from its latest hit. */
    public enum State {
        /** 4xx or 5xx. */
        broken,
        /** 3xx but 304. */
        redirected,
        /** 2xx or 304. */
        ok;

        /** The state a hit of {@code status} leaves its URL in. */
        public static State of(int status) {
            if (status >= 400) {
                return broken;
            }
            return status >= 300 && status != 304 ? redirected : ok;
        }
    }

    public long hits() {
        return ok + notModified + redirects + clientErrors + serverErrors;
    }

    public long errorHits() {
        return clientErrors + serverErrors;
    }

    public State state() {
        return State.of(lastStatus);
    }

    public boolean fixed() {
        return fixedSince != NONE;
    }

    /** Whether its answers went from ok to an error or back at least twice. */
    public boolean inconsistent() {
        return flips >= 2;
    }

    public boolean hadError() {
        return firstError != NONE;
    }

    /** Whether one of its hits is one the report lists (status 300 and up: a redirect, a 304 or an error). */
    public boolean hadReportedHit() {
        return redirects + notModified + clientErrors + serverErrors > 0;
    }

    /** This state of another URL's: the engines make states by number, and name them after. */
    public UrlState named(String host, String url) {
        return new UrlState(key, host, url, ok, notModified, redirects, clientErrors, serverErrors, firstCrawled, lastCrawled, lastStatus,
                firstError, firstErrorStatus, lastError, lastErrorStatus, fixedSince, flips);
    }
}
