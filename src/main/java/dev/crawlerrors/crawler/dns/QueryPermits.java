package dev.crawlerrors.crawler.dns;

import java.util.ArrayDeque;

/**
 * A bound on DNS queries in flight that never blocks: a query over the bound is queued and started
 * when a permit comes back. Follow-up queries (the forward lookup of a check whose PTR is known)
 * go before new ones, so a burst of new addresses does not hold back checks that are half done.
 */
final class QueryPermits {

    private final int limit;
    private final ArrayDeque<Runnable> followUps = new ArrayDeque<>();
    private final ArrayDeque<Runnable> newcomers = new ArrayDeque<>();
    /** Queries handed a permit by a release further up this thread's stack, run when it unwinds. */
    private final ThreadLocal<ArrayDeque<Runnable>> handedOver = new ThreadLocal<>();
    private int available;

    /** @param limit queries in flight at most, at least 1 */
    QueryPermits(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("the bound on DNS queries in flight must be at least 1, not " + limit);
        }
        this.limit = limit;
        this.available = limit;
    }

    /**
     * Runs {@code start} holding a permit: now, on this thread, if one is free; otherwise later, on
     * the thread that releases a permit. Whoever runs it must {@link #release} once. {@code start}
     * must not throw.
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

    /**
     * Gives a permit back, handing it straight to the next queued query, which runs on this thread.
     * A query that fails at once releases again from inside; that release queues its successor
     * here instead of recursing, so a run of failures cannot overflow the stack.
     */
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
        ArrayDeque<Runnable> outer = handedOver.get();
        if (outer != null) {
            outer.add(next);
            return;
        }
        ArrayDeque<Runnable> mine = new ArrayDeque<>();
        handedOver.set(mine);
        try {
            for (Runnable start = next; start != null; start = mine.poll()) {
                start.run();
            }
        } finally {
            handedOver.remove();
        }
    }

    synchronized int inUse() {
        return limit - available;
    }

    synchronized int waiting() {
        return followUps.size() + newcomers.size();
    }
}
