package dev.crawlerrors.crawler;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * A bound on DNS queries in flight that never blocks: a query over the bound is queued and started
 * when a permit comes back. Follow-up queries (the forward lookup of a check whose PTR is known)
 * go before new ones, so a burst of new addresses does not hold back checks that are half done.
 */
final class QueryPermits {

    private final int limit;
    private final Executor handOff;
    private final ArrayDeque<Runnable> followUps = new ArrayDeque<>();
    private final ArrayDeque<Runnable> newcomers = new ArrayDeque<>();
    private int available;

    /**
     * @param limit   queries in flight at most, at least 1
     * @param handOff runs a queued query when a permit is released; a queued query is never run on
     *                the releasing thread, so a run of queries that fail at once cannot recurse
     *                down the stack
     */
    QueryPermits(int limit, Executor handOff) {
        if (limit < 1) {
            throw new IllegalArgumentException("the bound on DNS queries in flight must be at least 1, not " + limit);
        }
        this.limit = limit;
        this.available = limit;
        this.handOff = handOff;
    }

    /**
     * Runs {@code start} holding a permit: now, on this thread, if one is free; otherwise later, on
     * the hand-off executor. Whoever runs it must {@link #release} once.
     */
    void acquire(boolean followUp, Runnable start) {
        synchronized (this) {
            if (available == 0) {
                (followUp ? followUps : newcomers).add(start);
                return;
            }
            available--;
        }
        start.run();
    }

    /** Gives a permit back, handing it straight to the next queued query if there is one. */
    void release() {
        Runnable next;
        synchronized (this) {
            next = followUps.poll();
            if (next == null) {
                next = newcomers.poll();
            }
            if (next == null) {
                available++;
                return;
            }
        }
        handOff.execute(next);
    }

    synchronized int inUse() {
        return limit - available;
    }

    synchronized int waiting() {
        return followUps.size() + newcomers.size();
    }
}
